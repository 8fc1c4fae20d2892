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
	NoReading bool   // no current reading (§7): a fresh run's first call, an expired one, a Sequence step
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

// Visit is the outcome of one window visit, before one model call. It
// keeps what the visit decided; the per-turn account of it (Turns) is
// worked out when asked, so that a replay of thousands of calls keeps
// little more than the windows themselves.
type Visit struct {
	Before  []*model.Message // the history as it stood
	After   []*model.Message // the window the model is sent
	Evicted []*model.Message // what left at this head (a part of Before)
	Notice  *model.Message   // the notice put in their place, if any
	Anchor  int              // index in Before of the current request, -1 for none
	Engaged bool             // the strategy engaged (and a record was filed)
	Record  *model.Record
	// Pins are the admitted last-tool-result pins (newest first); Yielded
	// counts the candidates past the limit.
	Pins      []model.Pin
	Yielded   int
	StandDown bool
	// Problem says why the strategy could not decide (e.g. a call whose
	// tokens were not measured); the window is then left as it was.
	Problem string

	from, to int  // the span, in turns; from = -1 when none
	held     bool // the span stayed: no notice was smaller (replacement-not-smaller)
}

// VisitWindow runs one visit of the window stage over history.
func VisitWindow(history []*model.Message, in VisitInput) Visit {
	p := in.Policy
	if in.mem == nil {
		in.mem = &arena{}
	}
	v := Visit{Before: history, After: history, Anchor: -1, from: -1, to: -1}
	if !p.NoAnchor {
		v.Anchor = pinning.CurrentRequest(history, in.Request)
	}
	n := countTurns(history)
	engaged, problem := engages(p, n, in)
	v.Problem = problem
	if !engaged {
		return v
	}
	v.Engaged = true
	turns := in.mem.scratchTurns(n)
	segmentInto(turns, history)
	pinLimit := p.KeepLastToolResults
	if pinLimit > 0 && standsDown(in.Records) {
		pinLimit, v.StandDown = 0, true
	}
	pl := planRemoval(history, turns, planInput{
		keepRecent: p.KeepRecentTurns, pinLimit: pinLimit, anchor: v.Anchor,
		paused: in.PausedCallID, checkIn: in.CheckIn, mem: in.mem,
	})
	v.Pins, v.Yielded = pl.pinned, pl.yielded
	v.from, v.to = pl.from, pl.to
	refusals := pl.refusals
	var dropped []string
	if pl.from >= 0 {
		var ok bool
		ok, dropped = v.drop(turns, pl, in)
		if !ok {
			v.held = true
			refusals = in.mem.refusals.take(len(pl.refusals) + 1)
			refusals[0] = model.Refusal{Reason: model.ReasonReplacementNotSmaller, TurnIndex: pl.from, MessageIndex: turns[pl.from].Start}
			copy(refusals[1:], pl.refusals)
		}
	}
	v.Record = v.record(p, in, n, refusals, dropped)
	return v
}

// Turns cuts Before into turns and says what the visit did with each.
func (v *Visit) Turns() []TurnFate {
	turns := Segment(v.Before)
	out := make([]TurnFate, len(turns))
	for i, t := range turns {
		out[i] = TurnFate{Turn: t, Notice: v.Before[t.Start].IsNotice()}
	}
	if v.Record != nil {
		for _, r := range v.Record.Refusals {
			out[r.TurnIndex].Reason = r.Reason
		}
	}
	for _, pin := range v.Pins {
		out[pin.TurnIndex].PinTool = pin.ToolName
	}
	for ti := v.from; ti >= 0 && ti <= v.to; ti++ {
		if v.held {
			out[ti].Reason = model.ReasonReplacementNotSmaller
		} else {
			out[ti].Evicted = true
		}
	}
	return out
}

// engages asks the strategy whether this visit acts at all.
func engages(p model.Policy, turns int, in VisitInput) (bool, string) {
	switch p.Strategy {
	case model.TokenBudget:
		if in.NoReading {
			return false, ""
		}
		if in.PrevUsage.Input == 0 && in.PrevUsage.Output == 0 {
			return false, "token-budget: the previous call reported no tokens (unmeasurable)"
		}
		return in.PrevUsage.Input > p.ThresholdTokens, ""
	case model.SummarizeOldest:
		return false, "summarize-oldest is not replayed (its summaries come from a model)"
	case model.StrategyNone:
		return false, ""
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

// Candidates are every tool's latest-result pin the visit could have
// admitted, newest first (before the limit and the keep window).
func (v *Visit) Candidates() []model.Pin {
	if !v.Engaged {
		return nil
	}
	return pinning.Candidates(Segment(v.Before), v.Before, v.Anchor)
}
