package window

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// Rules are the window rules of one range of library versions
// (docs/rules/versions-and-tiers.md §17.1). They are not knobs: the library that wrote a
// log had no setting for them. The zero value is the newest rules.
type Rules uint8

const (
	// Rules957 are 9.57.0 – 9.62.0's: pins, the rich notice, a notice
	// only where the wire needs one.
	Rules957 Rules = iota
	// Rules955 are 9.55.0 – 9.56.0's: no last-tool-result pins, the plain
	// notice only, the notice vetoes a drop that reaches the front, records
	// without droppedObservations or observations.
	Rules955
	// Rules954 are those before 9.55.0: Rules955 with no current-request
	// anchor, so no notice stands below a kept request.
	Rules954
)

var ruleNames = [...]string{Rules957: "9.57", Rules955: "9.55", Rules954: "9.54"}

// String is the rules' name in the export (§13.3): the first version
// they are the rules of.
func (r Rules) String() string {
	if int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return "?"
}

var ruleSpans = [...]string{Rules957: "9.57–9.62", Rules955: "9.55–9.56", Rules954: "≤ 9.54"}

// Versions names the rules by the library versions they are the rules
// of ("9.55–9.56"), as a person reads them; String is the export's name.
func (r Rules) Versions() string {
	if int(r) < len(ruleSpans) {
		return ruleSpans[r]
	}
	return "?"
}

// AllRules are the rule sets, newest first.
var AllRules = []Rules{Rules957, Rules955, Rules954}

// RulesNamed are the rules the export names name ("9.57", "9.55",
// "9.54"; "" the newest).
func RulesNamed(name string) Rules {
	r, _ := parseRules(name)
	return r
}

// pinsExist: the library had last-tool-result pins (§4), so a recorded
// policy may have keepLastToolResults above 0.
func (r Rules) pinsExist() bool { return r == Rules957 }

// richNotice: the notice may name the tool results that left (§6).
func (r Rules) richNotice() bool { return r == Rules957 }

// vetoes: a notice not smaller than the span refuses the drop even where
// the wire needs no notice (§17.1(3)).
func (r Rules) vetoes() bool { return r != Rules957 }

// keptRequestNotice: a span that starts under a kept current request
// gets a notice too, with the kept-request sentence (since 9.55.0).
func (r Rules) keptRequestNotice() bool { return r != Rules954 }

// anchors: the library knew the current request (§3).
func (r Rules) anchors() bool { return r != Rules954 }

// observes: records carry droppedObservations and observations.
func (r Rules) observes() bool { return r == Rules957 }

// Knobs is p as a policy the library of these rules could have had: no
// pins before 9.57.0, no anchor before 9.55.0 (§17.3). A flag given
// afterwards still overrides a knob.
func (r Rules) Knobs(p model.Policy) model.Policy {
	if !r.pinsExist() {
		p.KeepLastToolResults = 0
	}
	if !r.anchors() {
		p.NoAnchor = true
	}
	return p
}

// rulesNote says which knobs the rules fix, for an inference's evidence.
func rulesNote(r Rules) string {
	if !r.anchors() {
		return "keepLastToolResults 0 and no anchor: the library had no pins and no current-request anchor before 9.55.0"
	}
	return "keepLastToolResults 0: the library had no pins before 9.57.0"
}

// RulesOf are the rules of the version rec was settled under (§17.2),
// the newest when it was not.
func RulesOf(rec *model.Recording) Rules {
	r, _ := parseRules(rec.Library.Rules)
	return r
}

func parseRules(s string) (Rules, bool) {
	for r, name := range ruleNames {
		if name == s {
			return Rules(r), true
		}
	}
	return Rules957, s == ""
}

// Version is a library version X.Y.Z.
type Version [3]int

// ParseVersion reads X.Y.Z (a leading v allowed, a pre-release or build
// suffix ignored: 9.56.0-rc.1 has 9.56.0's window rules).
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(t, "-+"); i >= 0 {
		t = t[:i]
	}
	parts := strings.Split(t, ".")
	var v Version
	if len(parts) != 3 {
		return v, fmt.Errorf("library version %q is not X.Y.Z", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || p[0] == '+' {
			return v, fmt.Errorf("library version %q is not X.Y.Z", s)
		}
		v[i] = n
	}
	return v, nil
}

func (v Version) less(w Version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// Rules are the window rules version v replays under.
func (v Version) Rules() Rules {
	switch {
	case v.less(Version{9, 55, 0}):
		return Rules954
	case v.less(Version{9, 57, 0}):
		return Rules955
	}
	return Rules957
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }
