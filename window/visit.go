package window

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// VisitInput is what one window visit knows besides the history.
type VisitInput struct {
	Policy    model.Policy
	Request   string // the run's own request text (the anchor is matched against it)
	Iteration int    // the library's iteration number of the call about to be made
	FirstCall bool   // the first call of the run: nothing measured yet
	PrevUsage model.Usage
	Records   []model.Record // records filed earlier in this run
	// PausedCallID names a tool call the run is paused on ("" for none);
	// CheckIn says the pause is a human check-in.
	PausedCallID string
	CheckIn      bool

	mem *arena // where the visit's slices come from; nil: its own
}

// TurnFate is one turn of the window as it stood before a visit, and what
// the visit did with it.
type TurnFate struct {
	model.Turn
	Evicted bool   // left the window at this visit
	Reason  string // why it stayed: a refusal reason, or "" (removable, not reached)
	Notice  bool   // the turn is a drop notice the library wrote earlier
	PinTool string // the tool whose latest result it holds, when pinned
}

// Visit is the outcome of one window visit, before one model call.
type Visit struct {
	Before  []*model.Message // the history as it stood
	Turns   []TurnFate       // Before, cut into turns, with fates
	After   []*model.Message // the window the model is sent
	Evicted []*model.Message // what left at this head
	Notice  *model.Message   // the notice put in their place, if any
	Anchor  int              // index in Before of the current request, -1 for none
	Engaged bool             // the strategy engaged (and a record was filed)
	Record  *model.Record
	// Pins are the admitted last-tool-result pins; Candidates all of them.
	Pins, Candidates []model.Pin
	Yielded          int
	StandDown        bool
	// Problem says why the strategy could not decide (e.g. a call whose
	// tokens were not measured); the window is then left as it was.
	Problem string
}

// VisitWindow runs one visit of the window stage over history.
func VisitWindow(history []*model.Message, in VisitInput) Visit {
	p := in.Policy
	if in.mem == nil {
		in.mem = &arena{}
	}
	v := Visit{Before: history, After: history, Anchor: -1}
	turns := in.mem.turns.take(countTurns(history))
	segmentInto(turns, history)
	if !p.NoAnchor {
		v.Anchor = pinning.CurrentRequest(history, in.Request)
	}
	v.Turns = in.mem.fates.take(len(turns))
	for i, t := range turns {
		v.Turns[i] = TurnFate{Turn: t, Notice: history[t.Start].IsNotice()}
	}
	engaged, problem := engages(p, len(turns), in)
	v.Problem = problem
	if !engaged {
		return v
	}
	v.Engaged = true
	pinLimit := p.KeepLastToolResults
	if pinLimit > 0 && standsDown(in.Records) {
		pinLimit, v.StandDown = 0, true
	}
	pl := planRemoval(history, turns, planInput{
		keepRecent: p.KeepRecentTurns, pinLimit: pinLimit, anchor: v.Anchor,
		paused: in.PausedCallID, checkIn: in.CheckIn, mem: in.mem,
	})
	v.Pins, v.Candidates, v.Yielded = pl.pinned, pl.candidates, pl.yielded
	for _, r := range pl.refusals {
		v.Turns[r.TurnIndex].Reason = r.Reason
	}
	for _, pin := range pl.pinned {
		v.Turns[pin.TurnIndex].PinTool = pin.ToolName
	}
	refusals := pl.refusals
	var dropped []string
	if pl.from >= 0 {
		var ok bool
		ok, dropped = v.drop(turns, pl, in)
		if !ok {
			refusals = in.mem.refusals.take(len(pl.refusals) + 1)
			refusals[0] = model.Refusal{Reason: model.ReasonReplacementNotSmaller, TurnIndex: pl.from, MessageIndex: turns[pl.from].Start}
			copy(refusals[1:], pl.refusals)
			for ti := pl.from; ti <= pl.to; ti++ {
				v.Turns[ti].Reason = model.ReasonReplacementNotSmaller
			}
		}
	}
	v.Record = v.record(p, in, len(turns), refusals, dropped)
	return v
}

// engages asks the strategy whether this visit acts at all.
func engages(p model.Policy, turns int, in VisitInput) (bool, string) {
	switch p.Strategy {
	case model.TokenBudget:
		if in.FirstCall {
			return false, ""
		}
		if in.PrevUsage.Input == 0 && in.PrevUsage.Output == 0 {
			return false, "token-budget: the previous call reported no tokens (unmeasurable)"
		}
		return in.PrevUsage.Input > p.ThresholdTokens, ""
	case model.SummarizeOldest:
		return false, "summarize-oldest is not replayed (its summaries come from a model)"
	default:
		return turns > p.KeepRecentTurns, ""
	}
}

// standsDown: the last two records both removed nothing and both named
// last-tool-result, so the pin is costing more than it is worth.
func standsDown(records []model.Record) bool {
	if len(records) < 2 {
		return false
	}
	for _, r := range records[len(records)-2:] {
		if r.RemovedMessageCount != 0 || !namesReason(r.Refusals, model.ReasonLastToolResult) {
			return false
		}
	}
	return true
}

func namesReason(rs []model.Refusal, reason string) bool {
	for _, r := range rs {
		if r.Reason == reason {
			return true
		}
	}
	return false
}
