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
	// ReadingAt is the iteration of the call PrevUsage was reported for
	// (0: the call just before this one). A reading older than the
	// previous iteration has expired (§7).
	ReadingAt int
	Records   []model.Record // records filed earlier in this run (stand-down reads the last two)
	// PausedCallID names a tool call the run is paused on ("" for none);
	// CheckIn says the pause is a human check-in.
	PausedCallID string
	CheckIn      bool
	// Summaries is the summarize-oldest state of the conversation (its
	// latch, and the agent's recorded folds); Call the call the visit
	// precedes, whose recorded window the recorded folds were read from.
	// Both are used by summarize-oldest only; a nil Summaries knows no
	// recorded fold and latches for this visit alone.
	Summaries *Summaries
	Call      *model.Call
	// Rules are the window rules of the library version replayed (§17).
	Rules Rules
	// OverUnmeasured: the reading is over budget, its number not in the
	// log (tier minimal keeps no token counts, §16.4); a token strategy
	// engages and its record says the count is unknown.
	OverUnmeasured bool

	mem *arena // where the visit's slices come from; nil: its own
	// filed, when set, stands for Records: the last records filed, oldest
	// first, as a replay's chain keeps them (not copied for every visit)
	filed []*model.Record
}

// TurnFate is one turn of the window as it stood before a visit, and what
// the visit did with it.
type TurnFate struct {
	model.Turn
	Evicted bool   // left the window at this visit
	Folded  bool   // it left folded into a compaction frame (summarize-oldest)
	Reason  string // why it stayed: a refusal reason, or "" (removable, not reached)
	Notice  bool   // the turn is a drop notice or a compaction frame written earlier
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
	Frame   *model.Message   // the compaction frame they were folded into, if any
	Anchor  int              // index in Before of the current request, -1 for none
	Record  *model.Record    // filed when the strategy engaged
	// Pins are the admitted last-tool-result pins (newest first); Yielded
	// counts the candidates past the limit.
	Pins    []model.Pin
	Yielded int
	// Problem says why the strategy could not decide (e.g. a call whose
	// tokens were not measured); the window is then left as it was.
	Problem string
	heldBy  string // why the span stayed: the refusal listed first

	from, to int32 // the span, in turns; from = -1 when none
	// sent is the size of After plus one when the visit knows it (the
	// size of a window the drop made, or of one it left as it was); 0
	// when not: read it (model.WindowChars)
	sent int
	// (the flags last, together: a replay keeps one Visit per call)
	Engaged   bool // the strategy engaged (and a record was filed)
	StandDown bool // the pins stood down (§7)
	held      bool // the span stayed (no notice or frame was smaller, or the summarizer failed)
}

// VisitWindow runs one visit of the window stage over history.
func VisitWindow(history []*model.Message, in VisitInput) Visit {
	var v Visit
	visitWindow(&v, history, &in)
	return v
}

// visitWindow is VisitWindow writing the visit into v, which is zero
// (a replay's calls are written where they are kept, zero: callInto).
func visitWindow(v *Visit, history []*model.Message, in *VisitInput) {
	if in.mem == nil {
		in.mem = &arena{}
	}
	decide(v, history, in)
	in.mem.after(v)
}

// decide is visitWindow but for the facts it keeps. v is zero.
func decide(v *Visit, history []*model.Message, in *VisitInput) {
	p := in.Policy
	v.Before, v.After, v.Anchor, v.from, v.to = history, history, -1, -1, -1
	pinLimit := p.KeepLastToolResults
	standDown := pinLimit > 0 && in.standsDown()
	if standDown {
		pinLimit = 0
	}
	// the sizes, and the names when pins are on, read in the same pass
	turns, tc, ids := in.mem.segmentFacts(history, in.Request, !p.NoAnchor, p.KeepLastToolResults > 0, &v.Anchor)
	if standDown {
		ids = nil
	}
	n := len(turns)
	engaged, problem := engages(p, n, in)
	v.Problem = problem
	if !engaged {
		v.sent = in.mem.windowChars() + 1
		return
	}
	v.Engaged, v.StandDown = true, standDown
	pl := planRemoval(history, turns, &planInput{
		keepRecent: p.KeepRecentTurns, pinLimit: pinLimit, anchor: v.Anchor,
		paused: in.PausedCallID, checkIn: in.CheckIn, mem: in.mem, turnChars: tc, nameIDs: ids, facts: in.mem.turnFacts(),
	})
	if p.Strategy == model.SummarizeOldest {
		onlyExistingSummary(history, turns, &pl, in.mem)
	}
	v.Pins, v.Yielded = pl.pinned, pl.yielded
	v.from, v.to = int32(pl.from), int32(pl.to)
	if p.Strategy == model.SummarizeOldest {
		if in.Summaries == nil {
			in.Summaries = NewSummaries(nil)
		}
		var o summarizeOutcome
		refusals, dropped := v.fold(turns, &pl, in, &o)
		v.Record = v.summarizeRecord(p, in, refusals, dropped, o)
		return
	}
	refusals := pl.refusals
	var dropped []string
	before, evicted := in.mem.windowChars(), 0
	if pl.from >= 0 {
		var ok bool
		evicted = sum(tc[pl.from : pl.to+1])
		ok, dropped = v.drop(turns, &pl, in, evicted)
		if !ok {
			v.held, v.heldBy = true, model.ReasonReplacementNotSmaller
			refusals = in.mem.refusals.take(len(pl.refusals) + 1)
			refusals[0] = model.Refusal{Reason: model.ReasonReplacementNotSmaller, TurnIndex: pl.from, MessageIndex: turns[pl.from].Start}
			copy(refusals[1:], pl.refusals)
		}
	}
	v.Record = v.record(p, in, n, refusals, dropped, before, evicted)
	v.sent = v.Record.WindowCharsAfter + 1
}

// Turns cuts Before into turns and says what the visit did with each.
func (v *Visit) Turns() []TurnFate {
	turns := Segment(v.Before)
	out := make([]TurnFate, len(turns))
	for i, t := range turns {
		first := v.Before[t.Start]
		out[i] = TurnFate{Turn: t, Notice: first.IsNotice() || first.IsFrame()}
	}
	if v.Record != nil {
		for _, r := range v.Record.Refusals {
			out[r.TurnIndex].Reason = r.Reason
		}
	}
	for _, pin := range v.Pins {
		out[pin.TurnIndex].PinTool = pin.ToolName
	}
	for ti := int(v.from); ti >= 0 && ti <= int(v.to); ti++ {
		if v.held {
			out[ti].Reason = v.heldBy
		} else {
			out[ti].Evicted, out[ti].Folded = true, v.Frame != nil
		}
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// engages asks the strategy whether this visit acts at all.
func engages(p model.Policy, turns int, in *VisitInput) (bool, string) {
	switch p.Strategy {
	case model.TokenBudget, model.SummarizeOldest:
		// both read the provider's count of the previous call (§7, §11.1)
		if in.OverUnmeasured {
			return true, ""
		}
		if in.FirstCall || in.ReadingAt > 0 && in.ReadingAt < in.Iteration-1 {
			return false, "" // no current reading
		}
		if in.PrevUsage.Input == 0 && in.PrevUsage.Output == 0 {
			return false, p.Strategy + ": the previous call reported no tokens (unmeasurable)"
		}
		return in.PrevUsage.Input > p.ThresholdTokens, ""
	case model.StrategyNone:
		return false, ""
	default:
		return turns > p.KeepRecentTurns, ""
	}
}

// standsDown: the last two records both removed nothing and both named
// last-tool-result, so the pin is costing more than it is worth.
func (in *VisitInput) standsDown() bool {
	if in.filed != nil {
		n := len(in.filed)
		return n >= 2 && idleOnPins(in.filed[n-2]) && idleOnPins(in.filed[n-1])
	}
	n := len(in.Records)
	return n >= 2 && idleOnPins(&in.Records[n-2]) && idleOnPins(&in.Records[n-1])
}

// idleOnPins: r removed nothing and named last-tool-result.
func idleOnPins(r *model.Record) bool {
	return r.RemovedMessageCount == 0 && namesReason(r.Refusals, model.ReasonLastToolResult)
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
