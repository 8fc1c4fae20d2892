package present

import (
	"fmt"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// Whose window rules the replay follows (docs/rules/versions-and-tiers.md §17) and what
// the log's tier keeps (§16): the header says both in a few words, the
// problems panel (!) in full, as the report's footer does.

// RulesWords is the header's word on the library version's rules, how
// they were told and how many recorded windows they reproduce, shorter
// at each level (0: in full): "rules 9.55–9.56 (told from the log: call
// 4's plain notice; reproduces 16/16)", the same without the count,
// "rules 9.55–9.56 (from the log; 16/16)", "rules 9.55–9.56 (from the
// log)", "rules 9.55–9.56". call is the call's number as the screen says
// it.
func RulesWords(lib model.Library, level int, call func(n int) string) string {
	rules := window.RulesNamed(lib.Rules).Versions() // "": not settled, the newest
	if level >= 4 {
		return "rules " + rules
	}
	counted := level%2 == 0 && lib.Compared > 0
	how := ""
	switch lib.Source {
	case window.VersionFromFlag:
		how = "--library-version " + lib.Version
	case window.VersionFromEnvelope:
		how = "the envelope says " + lib.Version
	case window.VersionFromLog:
		how = "told from the log"
		if level < 2 && lib.Call > 0 {
			what := "'s plain notice" // §17.2 b: 9.57.0 would have named the tool results
			if window.RulesNamed(lib.Rules) == window.Rules954 {
				what = " dropped the request" // §17.2 a: no anchor before 9.55.0
			}
			how += ": " + call(lib.Call) + what
		}
		if level >= 2 {
			how = "from the log"
		}
	default:
		how = "no older rule in the log"
	}
	count := fmt.Sprintf("%d/%d", lib.Matched, lib.Compared)
	switch {
	case !counted:
	case level >= 2:
		how += "; " + count
	case lib.ByReplay && lib.Others != "":
		how += ": reproduces " + count + "; " + lib.Others
	default:
		how += "; reproduces " + count
	}
	return "rules " + rules + " (" + termtext.Line(how) + ")"
}

// TierWords is the header's word on a log written at tier minimal, which
// keeps no usage, no tool events and no run's last window (§16.3); ""
// at any other tier, which keeps them.
func TierWords(tier string, level int) string {
	if tier != model.TierMinimal {
		return ""
	}
	if level >= 2 {
		return "tier minimal"
	}
	return "tier minimal: no tokens, tool events or runs' last windows in the log"
}

// LibraryText is the problems panel's section on the rules and the
// tier: the report footer's sentence, and what the tier does not keep.
func LibraryText(rec *model.Recording) []string {
	l := rec.Library
	named := "no version named"
	if l.Version != "" {
		named = "version " + l.Version
	}
	rules := window.RulesNamed(l.Rules).Versions()
	out := []string{fmt.Sprintf("The replay follows the %s window rules (%s; from %s: %s).", rules, named, orDefault(l.Source), l.Evidence)}
	if l.Compared > 0 {
		line := fmt.Sprintf("Under them and the recorded policy the replay reproduces %d/%d recorded windows", l.Matched, l.Compared)
		if l.Others != "" {
			line += " (" + l.Others + ")"
		}
		out = append(out, line+".")
	}
	switch rec.Tier {
	case model.TierMinimal:
		out = append(out, "Written at tier minimal: the log keeps only the agent.* and error.* events. Each call is rebuilt from its iteration_end; "+
			"each run's last window is not in the log (the replay computes it, and the screen says \"replayed\", never \"sent\"); "+
			"no token counts (usage), no tool_start/tool_end (a tool result is known only as the message the model got), "+
			"no context.* events, no pauses, no failed calls and no composition calls.")
	case "":
	default:
		out = append(out, "Written at tier "+rec.Tier+".")
	}
	return out
}

func orDefault(source string) string {
	if source == "" {
		return window.VersionByDefault
	}
	return source
}
