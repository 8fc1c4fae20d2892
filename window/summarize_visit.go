package window

import (
	"github.com/afinspect/inspect/model"
)

// summary is what a summarizer gave for one planned fold (§11.5–§11.6).
type summary struct {
	frame       string       // the whole frame: label, "\n\n", summary
	placeholder bool         // the summary text is not known (§11.9 (v))
	notSmaller  bool         // known to be refused as not smaller, length unknown
	failed      bool         // the summarizer threw
	tokens      *model.Usage // what the summarizer call used, when known
}

// foldRequest is a planned fold, as the summarizer is asked about it.
type foldRequest struct {
	span      []*model.Message
	iteration int
	before    []*model.Message // the whole window before the visit
	call      *model.Call      // the call the visit precedes; nil in a hand-made visit
}

// summarizeOutcome is the part of a summarize-oldest record the fold
// decides (§11.6, §11.7).
type summarizeOutcome struct {
	chars       *int // summaryChars
	skipped     bool
	placeholder bool
	tokens      *model.Usage
}

// onlyExistingSummary applies §11.2's extra rule: a span of exactly one
// turn that is a compaction frame stays, refused only-existing-summary,
// listed after the walking refusals and before the keep window.
func onlyExistingSummary(w []*model.Message, turns []model.Turn, pl *plan, mem *arena) {
	if pl.from < 0 || pl.from != pl.to || !w[turns[pl.from].Start].IsFrame() {
		return
	}
	at := len(pl.refusals)
	for i, r := range pl.refusals {
		if r.Reason == model.ReasonInsideKeepWindow {
			at = i
			break
		}
	}
	rs := mem.refusals.take(len(pl.refusals) + 1)
	copy(rs, pl.refusals[:at])
	rs[at] = model.Refusal{Reason: model.ReasonOnlyExistingSummary, TurnIndex: pl.from, MessageIndex: turns[pl.from].Start}
	copy(rs[at+1:], pl.refusals[at:])
	pl.refusals, pl.from, pl.to = rs, -1, -1
}

// fold replaces the planned span by one frame, wherever it lies (§11.3),
// or keeps it for the first of §11.6's reasons that applies. It returns
// the refusals to file (a kept span's reason first) and the tool names
// whose results were folded.
func (v *Visit) fold(turns []model.Turn, pl *plan, in *VisitInput, out *summarizeOutcome) ([]model.Refusal, []string) {
	zero := 0
	out.chars = &zero
	if pl.from < 0 {
		return pl.refusals, nil
	}
	w := v.Before
	spanStart := turns[pl.from].Start
	spanEnd := turns[pl.to].Start + turns[pl.to].Length
	span := w[spanStart:spanEnd]
	keep := func(reason string) []model.Refusal {
		v.held, v.heldBy = true, reason
		rs := in.mem.refusals.take(len(pl.refusals) + 1)
		rs[0] = model.Refusal{Reason: reason, TurnIndex: pl.from, MessageIndex: spanStart}
		copy(rs[1:], pl.refusals)
		return rs
	}
	fp := fingerprintOf(span)
	sum := in.Summaries
	req := foldRequest{span: span, iteration: in.Iteration, before: w, call: in.Call}
	// A fold the library recorded comes first (§11.9 (i)): the library
	// folded that span, so whatever this replay latched, it was asked.
	s, ok := sum.recorded(req, fp)
	if !ok && sum.latched(fp) {
		out.skipped = true
		return keep(model.ReasonReplacementNotSmaller), nil
	}
	if !ok {
		s = sum.summarize(req)
	}
	out.tokens = s.tokens
	switch {
	case s.failed:
		out.chars = nil
		return keep(model.ReasonSummarizerFailed), nil
	case s.notSmaller:
		sum.latch(fp)
		out.chars = nil
		return keep(model.ReasonReplacementNotSmaller), nil
	}
	n := model.Len(s.frame)
	out.chars, out.placeholder = &n, s.placeholder
	if n >= chars(span) {
		sum.latch(fp)
		return keep(model.ReasonReplacementNotSmaller), nil
	}
	frame := &in.mem.notices.take(1)[0]
	*frame = model.Message{Role: model.RoleUser, Content: s.frame, Placeholder: s.placeholder}
	frame.KnownChars(n)
	after := append(in.mem.msgs.take(len(w) - len(span) + 1)[:0], w[:spanStart]...)
	after = append(after, frame)
	v.After = append(after, w[spanEnd:]...)
	v.Evicted, v.Frame = span, frame
	return pl.refusals, spanToolNames(in.mem.names.take(len(span))[:0], w, span)
}

// summarizeRecord is what an engaged summarize-oldest visit files (§11.7).
func (v *Visit) summarizeRecord(p model.Policy, in *VisitInput, refusals []model.Refusal, dropped []string, o summarizeOutcome) *model.Record {
	r := &in.mem.records.take(1)[0]
	*r = model.Record{
		Strategy:            model.SummarizeOldest,
		Iteration:           in.Iteration,
		MeasuredTokens:      in.PrevUsage.Input,
		ThresholdTokens:     p.ThresholdTokens,
		OverBudget:          true,
		WindowCharsBefore:   chars(v.Before),
		RemovedMessageCount: len(v.Evicted),
		WindowCharsAfter:    chars(v.After),
		SummaryChars:        o.chars,
		SummarizerTokens:    o.tokens,
		SummarizerSkipped:   o.skipped,
		Refusals:            refusals,
		DroppedObservations: dropped,
	}
	if o.placeholder {
		f := false
		r.SummaryRecorded = &f
	}
	if !in.Rules.observes() {
		r.DroppedObservations = nil
	}
	r.Unmeasured = in.OverUnmeasured
	v.observe(r, p, in)
	return r
}
