package present

import (
	"strconv"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The policy bar names the rules by the versions they cover and says how
// many recorded windows they reproduce; rules the replay chose over the
// log's own evidence say what the others reproduce.
func TestRulesWords(t *testing.T) {
	call := func(n int) string { return "call " + strconv.Itoa(n) }
	for _, c := range []struct {
		lib   model.Library
		level int
		want  string
	}{
		{model.Library{Rules: "9.57", Source: window.VersionFromLog, ByReplay: true, Matched: 13, Compared: 13, Others: "9.55–9.56 rules: 5/13"}, 0,
			"rules 9.57–9.62 (told from the log: reproduces 13/13; 9.55–9.56 rules: 5/13)"},
		{model.Library{Rules: "9.55", Source: window.VersionFromLog, Call: 4, Matched: 16, Compared: 16}, 0,
			"rules 9.55–9.56 (told from the log: call 4's plain notice; reproduces 16/16)"},
		{model.Library{Rules: "9.55", Source: window.VersionFromLog, Call: 4, Matched: 16, Compared: 16}, 1, "rules 9.55–9.56 (told from the log: call 4's plain notice)"},
		{model.Library{Rules: "9.55", Source: window.VersionFromLog, Call: 4, Matched: 16, Compared: 16}, 2, "rules 9.55–9.56 (from the log; 16/16)"},
		{model.Library{Rules: "9.55", Source: window.VersionFromLog, Call: 4, Matched: 16, Compared: 16}, 3, "rules 9.55–9.56 (from the log)"},
		{model.Library{Rules: "9.54", Source: window.VersionFromFlag, Version: "9.54.0"}, 0, "rules ≤ 9.54 (--library-version 9.54.0)"},
		{model.Library{}, 0, "rules 9.57–9.62 (no older rule in the log)"},
		{model.Library{Rules: "9.57", Source: window.VersionByDefault, Matched: 12, Compared: 13}, 4, "rules 9.57–9.62"},
	} {
		if got := RulesWords(c.lib, c.level, call); got != c.want {
			t.Errorf("%+v at level %d: %q, want %q", c.lib, c.level, got, c.want)
		}
	}
}
