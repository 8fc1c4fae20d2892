package present

import (
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
)

// What the picker, the column and the header call an agent inside a
// composition (docs/rules/compositions.md §15): a Sequence's step, a Loop's body
// and its passes, a swarm's agents, a Conditional's and a Parallel's
// branches, and a composition's own model calls (§15.5). Every name
// comes from the recording and goes through termtext.

// CompositionMatch is matchText for a composition's own calls, whose
// windows the log mostly does not hold (§15.5).
func CompositionMatch(matched, compared int) string {
	if compared == 0 {
		return "windows not in the log"
	}
	return MatchText(matched, compared)
}

// AgentNote says what agent a is: its agentId, or its place in the
// composition it runs in (§15.1): a Sequence's step, a Loop's body (a run
// per pass), a swarm's agent, a Conditional's or a Parallel's branch.
func AgentNote(a *model.Agent) string {
	if a.HasID {
		return " (agentId " + termtext.Line(a.AgentID) + ")"
	}
	kind, id := Composition(a)
	step, in := termtext.Line(a.Step), termtext.Line(kind+" "+id)
	switch {
	case kind == "Sequence":
		return " (step " + step + " of " + in + ")"
	case kind == "Loop" && a.Step == "body":
		return " (the body of " + in + ": a run per pass)"
	case kind == "Loop" && strings.HasPrefix(a.Step, "body/"):
		return " (agent " + termtext.Line(strings.TrimPrefix(a.Step, "body/")) + " of " + in + "'s body, a swarm: a run per hand-off)"
	case kind == "Conditional" || kind == "Parallel":
		return " (branch " + step + " of " + in + ")"
	}
	parts := make([]string, len(a.Path))
	for i, e := range a.Path {
		parts[i] = termtext.Line(e)
	}
	return " (a step of " + strings.Join(parts, " / ") + ")"
}

// StepWords names a run's agent path (§15.1) as its composition calls
// it: a Conditional's or a Parallel's "branch urgent", else the path
// itself ("body", "body/triage", "step-research").
func StepWords(a *model.Agent, step string) string {
	if kind, _ := Composition(a); (kind == "Conditional" || kind == "Parallel") && !a.Composition && !strings.Contains(step, "/") {
		return "branch " + termtext.Line(step)
	}
	return termtext.Line(step)
}

// CompositionWords names the kind of a composition whose own calls these
// are, "(Parallel)", or where it is mounted, "(in Sequence pipeline's
// step-merge)", for one nested in another's step (§15.1).
func CompositionWords(a *model.Agent) string {
	kind, id := Composition(a)
	if a.Step != "" {
		return "(in " + termtext.Line(kind+" "+id) + "'s " + termtext.Line(a.Step) + ")"
	}
	return "(" + termtext.Line(kind) + ")"
}

// Composition is the kind and id of the innermost composition a's path
// names ("Loop", "refine"; a swarm is a Loop); "" for a plain agent.
func Composition(a *model.Agent) (kind, id string) {
	if a == nil {
		return "", ""
	}
	for _, e := range a.Path {
		if k, name, ok := strings.Cut(e, ":"); ok && k != "Agent" {
			kind, id = k, name
		}
	}
	return kind, id
}
