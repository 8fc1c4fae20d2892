package provenance

import (
	"encoding/json"

	"github.com/afinspect/inspect/model"
)

// What became of an answer (docs/rules/evidence.md §9.4).
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
// ended it (llm_end; at tier minimal, where there is none, the
// iteration_end that stands for it, §9.6) with no tool calls, or when it
// is the last call of an agent run that finished: its tool calls will
// not run. A run is one agent run: a Loop's passes are runs of their own
// (docs/rules/compositions.md §15.2). A composition's own calls (a Parallel's
// merge, §15.5) are no agent run's: what the model answered there is the
// composition's result, which no run() returned as its answer, and
// nothing in the log says what became of it: they have none.
func Outcomes(run *model.Run) []string {
	out := make([]string, len(run.Calls))
	if run.Composition {
		return out
	}
	for k := range run.Calls {
		out[k] = outcome(run, k)
	}
	return out
}

// OutcomesByCall is the outcome of every answer of rec's runs
// (Outcomes), by call; a call that is no answer is not in it.
func OutcomesByCall(rec *model.Recording) map[*model.Call]string {
	out := map[*model.Call]string{}
	for _, run := range rec.Runs {
		for k, o := range Outcomes(run) {
			if o != "" {
				out[run.Calls[k]] = o
			}
		}
	}
	return out
}

// FinalAnswer is the place in run.Calls of the run's final answer
// (docs/rules/evidence.md §9.4.3): its last answer (delivered, refused or
// undelivered), never a revision-asked draft; -1 when it has none.
func FinalAnswer(run *model.Run) int {
	if run.Composition {
		return -1
	}
	for j := len(run.Calls) - 1; j >= 0; j-- {
		if outcome(run, j) != "" {
			return j
		}
	}
	return -1
}

// outcome is call k's.
func outcome(run *model.Run, k int) string {
	c := run.Calls[k]
	last, finished := k == len(run.Calls)-1, run.Complete
	answer := (c.Ended || c.History) && len(c.Facts.Response.ToolCalls) == 0 || last && finished
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
