package window

import (
	"maps"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// Fold is one fold the library made, as its log shows it: the summary its
// summarizer wrote for a span, and the label's model and retention.
type Fold struct {
	Summary, Model, Retain string
	Tokens                 *model.Usage // the summarizer call's, when an envelope's record states them
}

// FoldBook is what one agent's log says of its summarize-oldest folds
// (docs/rules/summarize-oldest.md §11.9): the summary of every span the library folded,
// the spans it refused to fold, and the library's own history before each
// visit (P), read from the recorded windows alone.
type FoldBook struct {
	folds   map[fingerprint]Fold
	refused map[fingerprint]bool
	// Model and Retain are named by the first recorded frame ("" when
	// there is none); named holds each agent's own (a placeholder names
	// its agent's summarizer, unknown-model when its frames name none).
	Model, Retain string
	named         map[*model.Agent]Fold
	agentOf       map[*model.Call]*model.Agent
	lib           map[*model.Call]libraryVisit
	foldAt        map[*model.Call]fingerprint // the span each call's visit folded
}

// libraryVisit is the library's side of one visit: the history before it
// (P) and whether the recorded window, less its deliveries, equals it.
type libraryVisit struct {
	before    []*model.Message
	unchanged bool
}

// NewFoldBook is an empty book, to be filled by Observe.
func NewFoldBook() *FoldBook {
	return &FoldBook{folds: map[fingerprint]Fold{}, refused: map[fingerprint]bool{},
		lib: map[*model.Call]libraryVisit{}, foldAt: map[*model.Call]fingerprint{},
		named: map[*model.Agent]Fold{}, agentOf: map[*model.Call]*model.Agent{}}
}

// Folds is how many folds the book holds.
func (b *FoldBook) Folds() int { return len(b.folds) }

// Observe reads one call's recorded window W against the library's
// history before the visit, p, and returns W as messages (nil when W is
// not known or cannot be read as p with at most one span folded). The
// last deliveries entries of W are not the visit's (§10.6). If at the
// first index a where p and W differ W holds a frame of this iteration
// folding N messages, and W[a+1:] is p[a+N:], the library folded p[a:a+N]
// into that frame: the book keeps its summary for that span.
func (b *FoldBook) Observe(call *model.Call, p []*model.Message, deliveries int) []*model.Message {
	w := call.Recorded
	if w == nil || deliveries > len(w) {
		return nil
	}
	w = w[:len(w)-deliveries]
	for _, m := range w {
		if f, ok := ParseFrame(m.Content); ok && m.IsFrame() && b.Model == "" {
			b.Model, b.Retain = f.Model, f.Retain
		}
	}
	a := 0
	for a < len(p) && a < len(w) && model.SameText(p[a], w[a]) {
		a++
	}
	if a == len(p) && a == len(w) {
		b.lib[call] = libraryVisit{before: p, unchanged: true}
		return p
	}
	b.lib[call] = libraryVisit{before: p}
	if a >= len(w) || !w[a].IsFrame() {
		return nil
	}
	f, ok := ParseFrame(w[a].Content)
	n := f.Count
	if !ok || f.Iteration != call.Iteration || n < 1 || a+n > len(p) || len(w)-(a+1) != len(p)-(a+n) {
		return nil
	}
	if !sameWindow(p[a+n:], w[a+1:]) {
		return nil
	}
	fp := fingerprintOf(p[a : a+n])
	b.folds[fp] = Fold{Summary: f.Summary, Model: f.Model, Retain: f.Retain}
	b.foldAt[call] = fp
	out := make([]*model.Message, 0, len(p)-n+1)
	return append(append(append(out, p[:a]...), w[a]), p[a+n:]...)
}

// Summaries is summarize-oldest's state in one conversation of a replay:
// the spans latched as not smaller (§11.6 rule 1; the log cannot name
// strategy instances, so the latch is kept per conversation) and the
// agent's recorded folds, which give the summaries.
type Summaries struct {
	book    *FoldBook
	latches map[fingerprint]bool
	// learn notes the folds this replay plans where the library, facing
	// the same history, changed nothing: refusals (§11.9). Only a replay
	// under the recorded policy may learn.
	learn bool
	// write stands in for the recorded folds in hand-made tests.
	write func(foldRequest) summary
}

// NewSummaries starts a conversation's summarize-oldest state over the
// agent's book (nil: no fold is recorded).
func NewSummaries(book *FoldBook) *Summaries {
	if book == nil {
		book = NewFoldBook()
	}
	return &Summaries{book: book, latches: map[fingerprint]bool{}}
}

func (s *Summaries) latched(f fingerprint) bool { return s.latches[f] }
func (s *Summaries) latch(f fingerprint)        { s.latches[f] = true }

// recorded is the frame of a fold the library recorded for this span
// (§11.9 (i)), rebuilt with this visit's count and iteration.
func (s *Summaries) recorded(req foldRequest, fp fingerprint) (summary, bool) {
	f, ok := s.book.folds[fp]
	if !ok || s.write != nil {
		return summary{}, false
	}
	return summary{frame: FrameText(len(req.span), req.iteration, f.Model, f.Retain, f.Summary), tokens: f.Tokens}, true
}

// summarize gives the frame for a planned fold the library did not
// record, after the latch (§11.9 (ii)): a learned refusal; a label that
// alone is already too long; else a placeholder.
func (s *Summaries) summarize(req foldRequest) summary {
	if s.write != nil {
		return s.write(req)
	}
	b := s.book
	n, fp := len(req.span), fingerprintOf(req.span)
	if b.refused[fp] {
		return summary{notSmaller: true}
	}
	by, retain := b.Model, b.Retain
	if a, ok := b.agentOf[req.call]; ok {
		by, retain = b.named[a].Model, b.named[a].Retain // the agent's own frames, or none
	}
	if by == "" {
		by = UnknownModel
	}
	label := FrameLabel(n, req.iteration, by, retain)
	if model.Len(label)+len(frameSep) >= chars(req.span) {
		return summary{notSmaller: true}
	}
	if s.learn && req.call != nil {
		if lv, ok := b.lib[req.call]; ok && lv.unchanged && sameWindow(req.before, lv.before) {
			b.refused[fp] = true
			return summary{notSmaller: true}
		}
	}
	return summary{frame: label + frameSep + PlaceholderSummary, placeholder: true}
}

// RecordedFolds reads the folds of rec for a replay whose recorded policy
// is p (§11.9): the fold book from the recorded windows, then the
// refusals learned by replaying p.
func RecordedFolds(rec *model.Recording, lin *lineage.Lineage, p model.Policy) *FoldBook {
	return readFolds(rec, lin).learnedUnder(rec, lin, p)
}

// learnedUnder is a copy of b with the refusals learned by replaying rec
// under p, taken as the recorded policy. The copy shares b's folds.
func (b *FoldBook) learnedUnder(rec *model.Recording, lin *lineage.Lineage, p model.Policy) *FoldBook {
	c := b.fresh()
	if c != nil && p.Strategy == model.SummarizeOldest {
		policies := map[string]model.Policy{"": p}
		for _, a := range rec.Agents {
			policies[a.Key] = p
		}
		replay(rec, lin, replayOptions{policy: everyAgent(policies), book: c, learn: true})
	}
	return c
}

// joinBooks is one book with the refusals each agent's inference learned
// under that agent's recorded policy (§11.9: each agent has its own; a
// span's fingerprint is its text, so one book can hold them all). The
// books share their folds, read once from the file. nil for none.
func joinBooks(books []*FoldBook) *FoldBook {
	if len(books) < 2 {
		if len(books) == 1 {
			return books[0]
		}
		return nil
	}
	c := books[0].fresh()
	c.folds = maps.Clone(c.folds)
	for _, b := range books[1:] {
		for f := range b.refused {
			c.refused[f] = true
		}
		for f, fold := range b.folds {
			if _, ok := c.folds[f]; !ok {
				c.folds[f] = fold
			}
		}
	}
	return c
}

// fresh is a copy of b, sharing its folds, that learns refusals of its
// own (nil for nil).
func (b *FoldBook) fresh() *FoldBook {
	if b == nil {
		return nil
	}
	c := *b
	c.refused = make(map[fingerprint]bool, len(b.refused))
	for f := range b.refused {
		c.refused[f] = true
	}
	return &c
}

// readFolds builds the fold book of rec from its recorded windows,
// walking the library's history call by call from each segment's seed of
// §10.9 built from recorded windows alone (§11.9): a new conversation's
// request; a follow-up's predecessor's last recorded window, its final
// answer and the request; a resumed run's paused history.
func readFolds(rec *model.Recording, lin *lineage.Lineage) *FoldBook {
	b := NewFoldBook()
	last := make([][]*model.Message, len(rec.Runs)) // each segment's last window as recorded, with deliveries
	mem := &arena{}                                 // histories grow in place where they can (arena.extend)
	for i, run := range rec.Runs {
		link := lin.Links[i]
		var hist []*model.Message
		switch link.Kind {
		case lineage.None, lineage.Composition:
			continue
		case lineage.FollowUp:
			pred := rec.Runs[link.Pred]
			if link.Form == lineage.Reentered { // §14.3: nothing appended
				hist = lineage.LastHistory(pred)
				break
			}
			hist = last[link.Pred]
			if pred.FinalMessage != nil && link.Form == lineage.Answered {
				hist = mem.extendOne(hist, pred.FinalMessage)
			}
			hist = withRequest(hist, run, mem)
		case lineage.Resume:
			hist = last[link.Pred]
			pred := rec.Runs[link.Pred]
			if n := pred.Calls[len(pred.Calls)-1].MessagesCount; run.LeadHistory != nil && n <= len(run.LeadHistory) {
				hist = mem.extend(hist, run.LeadHistory[n:])
			}
		case lineage.Orphan:
			hist = lineage.FirstWindow(run)
		default:
			hist = withRequest(nil, run, mem)
		}
		for _, call := range run.Calls {
			w := b.Observe(call, hist, call.Deliveries)
			if w == nil {
				w = hist // not known or not read: carry on as if unchanged
			}
			if call.Recorded != nil {
				w = mem.extend(w, call.Recorded[len(call.Recorded)-call.Deliveries:])
			}
			last[i] = w
			b.noteTokens(run, call)
			b.noteAgent(run.Agent, call)
			hist = mem.extend(w, call.Appended)
		}
	}
	return b
}

// noteTokens takes the summarizer's token counts of a fold from the
// library's own record of that visit, when an envelope carried it.
func (b *FoldBook) noteTokens(run *model.Run, call *model.Call) {
	fp, ok := b.foldAt[call]
	if !ok {
		return
	}
	for _, r := range run.Records {
		if r.Iteration == call.Iteration && r.SummarizerTokens != nil {
			f := b.folds[fp]
			f.Tokens = r.SummarizerTokens
			b.folds[fp] = f
			return
		}
	}
}

// noteAgent files which agent made call, and the summarizer and retention
// its first recorded frame names.
func (b *FoldBook) noteAgent(a *model.Agent, call *model.Call) {
	b.agentOf[call] = a
	if _, ok := b.named[a]; ok {
		return
	}
	for _, m := range call.Recorded {
		if f, ok := ParseFrame(m.Content); ok && m.IsFrame() {
			b.named[a] = Fold{Model: f.Model, Retain: f.Retain}
			return
		}
	}
}
