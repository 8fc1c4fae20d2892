package window

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// drop removes the planned span (docs/rules/window.md §6). It reports false
// when the span had to stay because the wire needs a notice in front and
// none is smaller than what it would replace. It returns the tool names
// whose results left.
func (v *Visit) drop(turns []model.Turn, pl *plan, in *VisitInput, spanChars int) (bool, []string) {
	w := v.Before
	spanStart := turns[pl.from].Start
	spanEnd := turns[pl.to].Start + turns[pl.to].Length
	head, span, tail := w[:spanStart], w[spanStart:spanEnd], w[spanEnd:]
	var names []string
	if f := in.mem.facts(); f.named && sameSlice(f.w, w) {
		names = in.mem.names.keep(spanNamesOf(in.mem.namesScratch(len(span)), f.ids[spanStart:spanEnd], &in.mem.toolNames))
	} else {
		names = in.mem.names.keep(spanToolNames(in.mem.namesScratch(len(span)), w, span))
	}

	var notice string
	var noticeChars int
	requestKept := pl.requestKeptAtHead() && in.Rules.keptRequestNotice()
	if spanStart == 0 || requestKept {
		var newHead *model.Message
		if len(head) > 0 {
			newHead = head[0]
		} else if len(tail) > 0 {
			newHead = tail[0]
		}
		needs := newHead == nil || newHead.Role != model.RoleUser
		offered := names
		if !in.Rules.richNotice() {
			offered = nil
		}
		notice, noticeChars = chooseNotice(len(span), spanChars, in.Iteration, in.Policy.Strategy, requestKept, offered, &in.mem.text)
		if notice == "" && (needs || in.Rules.vetoes()) {
			return false, nil
		}
	}
	n := len(head) + len(tail)
	if notice != "" {
		n++
	}
	after := append(in.mem.window(n, spareAfter(in.Call))[:0], head...)
	if notice != "" {
		v.Notice = &in.mem.notices.take(1)[0]
		*v.Notice = model.Message{Role: model.RoleUser, Content: notice}
		v.Notice.KnownChars(noticeChars)
		after = append(after, v.Notice)
	}
	v.After = append(after, tail...)
	v.Evicted = span
	return true, names
}

// spareAfter is the room a window before call c leaves after it: for
// the call's deliveries and what the call adds (deliver, chain.after).
func spareAfter(c *model.Call) int {
	if c == nil {
		return 0
	}
	return c.Deliveries + len(c.Appended)
}

// spanNamesOf is spanToolNames by the numbers of the span's names (ids,
// as segmentFacts read them against the whole window).
func spanNamesOf(names []string, ids []int32, tn *pinning.Names) []string {
	var low uint64 // the numbers met under 64; the others looked for in names
	for _, id := range ids {
		switch {
		case id < 0:
		case id < 64:
			if bit := uint64(1) << uint(id); low&bit == 0 {
				low |= bit
				names = append(names, tn.Name(id))
			}
		default:
			if n := tn.Name(id); !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// spanToolNames are the tool names of the span's messages, resolved
// against the whole window, each once, in order of first appearance.
func spanToolNames(names []string, w, span []*model.Message) []string {
	namer := pinning.NewNamer(w)
	for _, m := range span {
		if n := namer.Name(m); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// record is what an engaged visit files.
// before and evicted are the sizes of Before and of the span planned.
func (v *Visit) record(p model.Policy, in *VisitInput, turnsBefore int, refusals []model.Refusal, dropped []string, before, evicted int) *model.Record {
	r := &in.mem.records.take(1)[0]
	after := before // the window is Before, or Before with the span Evicted and the Notice in its place (drop)
	if len(v.Evicted) > 0 {
		after -= evicted
		if v.Notice != nil {
			after += v.Notice.Chars()
		}
	}
	*r = model.Record{
		Strategy:            p.Strategy,
		Iteration:           in.Iteration,
		KeepRecentTurns:     p.KeepRecentTurns,
		RemovedMessageCount: len(v.Evicted),
		WindowCharsBefore:   before,
		WindowCharsAfter:    after,
		Refusals:            refusals,
		DroppedObservations: dropped,
	}
	if !in.Rules.observes() {
		r.DroppedObservations = nil
	}
	if p.Strategy == model.TokenBudget {
		r.MeasuredTokens, r.OverBudget, r.ThresholdTokens = in.PrevUsage.Input, true, p.ThresholdTokens
		r.Unmeasured = in.OverUnmeasured
	} else {
		r.TurnsBefore, r.TurnsAfter = turnsBefore, v.turnsAfter(turnsBefore)
	}
	v.observe(r, p, in)
	return r
}

// turnsAfter is countTurns(v.After) of a visit that dropped turns from..to
// of turnsBefore (or nothing): the turns before the span, the notice, and
// the turns after it. Every turn after the first starts with a message
// that is not a tool's, so none of them joins another in After.
func (v *Visit) turnsAfter(turnsBefore int) int {
	if len(v.Evicted) == 0 {
		return turnsBefore
	}
	n := int(v.from) + turnsBefore - int(v.to) - 1
	if v.Notice != nil {
		n++
	}
	return n
}

// observe files what the pin did, when it did anything and the library's
// records said so (since 9.57.0).
func (v *Visit) observe(r *model.Record, p model.Policy, in *VisitInput) {
	mem := in.mem
	if r.Refusals == nil {
		r.Refusals = []model.Refusal{}
	}
	if in.Rules.observes() && p.KeepLastToolResults > 0 && (len(v.Pins) > 0 || v.Yielded > 0 || v.StandDown) {
		pinned := v.Pins
		if pinned == nil {
			pinned = []model.Pin{}
		}
		r.Observations = mem.observations(model.Observations{Pinned: pinned, Yielded: v.Yielded, Limit: p.KeepLastToolResults, StandDown: v.StandDown})
	}
}
