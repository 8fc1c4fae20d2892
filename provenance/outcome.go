package provenance

import (
	"encoding/json"

	"github.com/afinspect/inspect/model"
)

// What became of an answer (EVIDENCE-SEMANTICS §9.4).
const (
	// RevisionAsked: the answer check asked for a revision; the library
	// appended the answer and its correction and the run went on.
	RevisionAsked = "revision-asked"
	// Refused: posture rails refused it; the run completes in the log,
	// then run() throws UnsupportedValuesError: nothing was delivered.
	Refused = "refused"
	// Delivered: the last answer of a run that ended (turn_end): run(),
	// followUp() or resume() returned it.
	Delivered = "delivered"
	// Undelivered: the last answer of a run with no turn_end (it threw or
	// was cut off after answering).
	Undelivered = "undelivered"
	// Superseded: any other answer: the run went on past it (a schema
	// re-ask, the unfinished-steps nudge).
	Superseded = "superseded"
)

// Outcomes is the outcome of each call of run, in run.Calls' order: ""
// for a call that is no answer. A call is an answer when the model
// ended it (llm_end) with no tool calls, or when it is the last call of
// an agent run that finished: its tool calls will not run.
//
// A segment may hold several agent runs (a Loop's passes, WINDOW-
// SEMANTICS §15.2): each starts again at iteration 1, and one that a
// later pass follows has finished.
func Outcomes(run *model.Run) []string {
	out := make([]string, len(run.Calls))
	for _, p := range passes(run) {
		finished := run.Complete || p[1] < len(run.Calls)
		for k := p[0]; k < p[1]; k++ {
			out[k] = outcome(run, k, k == p[1]-1, finished)
		}
	}
	return out
}

// FinalAnswer is the place in run.Calls of the final answer of the agent
// run that holds call k: its last answer (delivered, refused or
// undelivered), never a revision-asked draft; -1 when it has none.
func FinalAnswer(run *model.Run, k int) int {
	for _, p := range passes(run) {
		if k < p[0] || k >= p[1] {
			continue
		}
		finished := run.Complete || p[1] < len(run.Calls)
		for j := p[1] - 1; j >= p[0]; j-- {
			if outcome(run, j, j == p[1]-1, finished) != "" {
				return j
			}
		}
	}
	return -1
}

// passes cuts run.Calls into agent runs, [from, to): a call whose
// iteration is not past the one before starts another.
func passes(run *model.Run) [][2]int {
	var out [][2]int
	from := 0
	for k := 1; k <= len(run.Calls); k++ {
		if k == len(run.Calls) || run.Calls[k].Iteration <= run.Calls[k-1].Iteration {
			out = append(out, [2]int{from, k})
			from = k
		}
	}
	return out
}

// outcome is call k's; last: it is its agent run's last call, finished:
// that run has its turn_end.
func outcome(run *model.Run, k int, last, finished bool) string {
	c := run.Calls[k]
	answer := c.Ended && len(c.Facts.Response.ToolCalls) == 0 || last && finished
	if !answer {
		return ""
	}
	switch action := checkAction(c.Facts.EvidenceChecked); {
	case action == RevisionAsked:
		return RevisionAsked
	case action == Refused:
		return Refused
	case last && finished:
		return Delivered
	case last:
		return Undelivered
	case action == "" && revisionAsked(run, k):
		return RevisionAsked
	}
	return Superseded
}

// checkAction is the action of a recorded evidence_checked payload, ""
// when there is none.
func checkAction(raw json.RawMessage) string {
	var p struct {
		Action string `json:"action"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &p) != nil {
		return ""
	}
	return p.Action
}

// revisionAsked tells a revision from the log alone (its event lost):
// the next call's recorded window ends, before its deliveries, with the
// answer check's correction (§9.4.5). A refusal leaves no such trace.
func revisionAsked(run *model.Run, k int) bool {
	if k+1 >= len(run.Calls) {
		return false
	}
	next := run.Calls[k+1]
	at := len(next.Recorded) - 1 - next.Deliveries
	if at < 0 || at >= len(next.Recorded) {
		return false
	}
	m := next.Recorded[at]
	return m.IsCorrection() && len(m.Content) >= len(model.EvidenceCheckPrefix) &&
		m.Content[:len(model.EvidenceCheckPrefix)] == model.EvidenceCheckPrefix
}
