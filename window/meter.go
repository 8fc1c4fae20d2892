package window

import (
	"strings"

	"github.com/afinspect/inspect/model"
)

// A token strategy engages on the reading of the agent's meter (§7). An
// agent run by a Sequence has none: the Sequence executor does not
// attach it. Whether an agent in a Loop, a Conditional, a Parallel or a
// swarm has one is not recorded (§15.6): it is replayed as a plain
// agent, with one, and the policy's evidence says so.

// metered reports whether agent a's visits read a meter: every agent's
// but a Sequence step's. A run built by hand may have no agent: a plain
// one.
func metered(a *model.Agent) bool { return compositionKind(a) != "Sequence" }

// compositionKind is the kind of the innermost composition agent a runs
// in, as its composition path names it ("Sequence", "Loop",
// "Conditional", "Parallel"; a swarm is a Loop); "" for a plain agent.
// A composition mounted in another's step is in no composition path
// (§15.1): the one that runs it is.
func compositionKind(a *model.Agent) string {
	if a == nil {
		return ""
	}
	kind := ""
	for _, e := range a.Path {
		if k, _, ok := strings.Cut(e, ":"); ok && (k == "Sequence" || k == "Parallel" || k == "Loop" || k == "Conditional") {
			kind = k
		}
	}
	return kind
}

// MeterNote says, for a token strategy inferred or given for agent a,
// what is known of a's meter: "" for a plain agent, whose meter the log
// shows; that a Sequence step has none, so the strategy never engages;
// that a Loop, Conditional, Parallel or swarm agent's is not recorded and
// is replayed as a plain agent's.
func MeterNote(a *model.Agent) string {
	switch kind := compositionKind(a); kind {
	case "":
		return ""
	case "Sequence":
		return " (a Sequence step has no meter: a token strategy never engages there)"
	default:
		return " (whether an agent in a " + kind + " has a meter is not recorded: replayed with one, as a plain agent, §15.6)"
	}
}

// noMeterNote says why a window that changed with no budget_pressure
// event is sliding-window's doing, for the composition agent a runs in:
// a Sequence step has no meter (§7); elsewhere the token strategies
// emit budget_pressure whenever they engage, and whether a Loop,
// Conditional or Parallel agent has a meter is not recorded (§15.6).
func noMeterNote(a *model.Agent) string {
	switch kind := compositionKind(a); kind {
	case "Sequence":
		return "(a Sequence step has no meter: only sliding-window changes its windows)"
	case "":
		return "(no budget_pressure event, which the token strategies emit whenever they engage)"
	default:
		return "(no budget_pressure event, which the token strategies emit whenever they engage; whether an agent in a " + kind + " has a meter is not recorded)"
	}
}
