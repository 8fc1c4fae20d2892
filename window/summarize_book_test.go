package window

import (
	"reflect"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// §11.9: the fold book is read from the recorded windows; a planned fold
// is decided (i) recorded fold, (ii) latch, (iii) learned refusal, (iv)
// label alone too long, (v) placeholder.

// recorded makes a call whose recorded window is w, as the loader keeps
// it: its messages, compared by role and content.
func recorded(iteration int, w []*model.Message) *model.Call {
	return &model.Call{Iteration: iteration, MessagesCount: len(w), Recorded: w}
}

// bookWindow: request + search, read, search, read (results 1000 chars);
// the library folded messages 1–4 into a frame at iteration 5.
func bookWindow() (p []*model.Message, frame *model.Message, w []*model.Message) {
	p = loop("find it", []string{"search", "read", "search", "read"}, 1000)
	frame = user(FrameText(4, 5, "cheap-1", RetainDiscard, "they searched and read"))
	w = append([]*model.Message{p[0], frame}, p[5:]...)
	return p, frame, w
}

func TestObserveReadsAFold(t *testing.T) {
	p, frame, w := bookWindow()
	b := NewFoldBook()
	got := b.Observe(recorded(5, w), p, 0)
	if !sameWindow(got, w) || b.Folds() != 1 || b.Model != "cheap-1" || b.Retain != RetainDiscard {
		t.Fatalf("Observe: %d messages, %d folds, model %q retain %q", len(got), b.Folds(), b.Model, b.Retain)
	}
	f := b.folds[fingerprintOf(p[1:5])]
	if f != (Fold{Summary: "they searched and read", Model: "cheap-1", Retain: RetainDiscard}) {
		t.Fatalf("fold %+v", f)
	}
	// unchanged: the library sent P as it was
	c := recorded(4, p)
	if got := b.Observe(c, p, 0); !sameWindow(got, p) || !b.lib[c].unchanged {
		t.Fatalf("unchanged window not read as such")
	}
	// a delivery at the end is not the visit's
	dw := append(append([]*model.Message{}, w...), user("delivered"))
	if got := NewFoldBook().Observe(recorded(5, dw), p, 1); !sameWindow(got, w) {
		t.Fatalf("with a delivery: %d messages", len(got))
	}
	_ = frame
}

func TestObserveRefusesWhatIsNotOneFold(t *testing.T) {
	p, _, _ := bookWindow()
	frameAt := func(n, it int) *model.Message { return user(FrameText(n, it, "m", RetainConversation, "s")) }
	cases := map[string][]*model.Message{
		"another iteration's frame":   append([]*model.Message{p[0], frameAt(4, 4)}, p[5:]...),
		"a count that is not the gap": append([]*model.Message{p[0], frameAt(3, 5)}, p[5:]...),
		"a tail that is not P's":      {p[0], frameAt(4, 5), p[5], p[6], p[7], user("other")},
		"no frame where they differ":  append([]*model.Message{p[0], user("x")}, p[5:]...),
		"the frame sent as assistant": append([]*model.Message{p[0], {Role: model.RoleAssistant, Content: frameAt(4, 5).Content}}, p[5:]...),
	}
	for name, w := range cases {
		c := recorded(5, w)
		b := NewFoldBook()
		if got := b.Observe(c, p, 0); got != nil || b.Folds() != 0 {
			t.Errorf("%s: read as a fold (%d messages)", name, len(got))
		}
	}
	if got := NewFoldBook().Observe(&model.Call{Iteration: 5}, p, 0); got != nil {
		t.Errorf("an unknown window was read")
	}
}

func TestRecordedFoldRebuiltForThisVisit(t *testing.T) {
	p, _, w := bookWindow()
	b := NewFoldBook()
	b.Observe(recorded(5, w), p, 0)
	// (i) the same span at iteration 7 gets the recorded summary with
	// this visit's N and I, and is not a placeholder
	in := over(7)
	in.Policy.KeepLastToolResults = 0
	in.Summaries = NewSummaries(b)
	v := VisitWindow(p, in)
	want := FrameText(4, 7, "cheap-1", RetainDiscard, "they searched and read")
	if v.Frame == nil || v.Frame.Content != want || v.Frame.Placeholder || v.Record.SummaryRecorded != nil {
		t.Fatalf("frame %+v record %+v", v.Frame, v.Record)
	}
}

func TestPlaceholderFold(t *testing.T) {
	p, _, _ := bookWindow()
	in := over(5)
	in.Policy.KeepLastToolResults = 0
	in.Summaries = NewSummaries(nil) // no recorded frame: unknown-model, conversation
	v := VisitWindow(p, in)
	want := FrameLabel(4, 5, UnknownModel, RetainConversation) + "\n\n" + PlaceholderSummary
	if v.Frame == nil || v.Frame.Content != want || !v.Frame.Placeholder {
		t.Fatalf("placeholder frame %+v", v.Frame)
	}
	r := v.Record
	if r.SummaryRecorded == nil || *r.SummaryRecorded || *r.SummaryChars != model.Len(want) || r.WindowCharsAfter != 7+model.Len(want)+2000 {
		t.Fatalf("placeholder record %+v", r)
	}
	exact := "[summary not recorded: the library never folded this span, so the text its summarizer would have written here is unknown]"
	if !strings.HasSuffix(v.Frame.Content, "\n\n"+exact) {
		t.Fatalf("placeholder text %q", v.Frame.Content)
	}
}

func TestRefusalsLearnedAndLabelTooLong(t *testing.T) {
	p, _, _ := bookWindow()
	in := over(5)
	in.Policy.KeepLastToolResults = 0
	b := NewFoldBook()
	c := recorded(5, p) // the library sent P unchanged although it engaged
	b.Observe(c, p, 0)
	learning := NewSummaries(b)
	learning.learn = true
	in.Summaries, in.Call = learning, c
	v := VisitWindow(p, in)
	if !b.refused[fingerprintOf(p[1:5])] || v.Record.RemovedMessageCount != 0 || v.Record.SummaryChars != nil ||
		v.Record.Refusals[0] != ref(model.ReasonReplacementNotSmaller, 1, 1) {
		t.Fatalf("(learned) refusal: record %+v", v.Record)
	}
	// (iii) another replay, not learning, takes it as refused, and latches
	in.Summaries, in.Call = NewSummaries(b), nil
	VisitWindow(p, in)
	if v := VisitWindow(p, in); !v.Record.SummarizerSkipped {
		t.Fatalf("a learned refusal is latched: %+v", v.Record)
	}
	// (iv) a span no longer than the label + "\n\n" cannot be folded by
	// any summary: refused, latched. Two turns of 100 chars.
	small := loop("find it", []string{"search", "read", "search", "read"}, 100)
	in.Summaries = NewSummaries(nil)
	v = VisitWindow(small, in)
	if v.Frame != nil || v.Record.Refusals[0] != ref(model.ReasonReplacementNotSmaller, 1, 1) || v.Record.SummaryChars != nil {
		t.Fatalf("(iv): %+v", v.Record)
	}
	if v := VisitWindow(small, in); !v.Record.SummarizerSkipped {
		t.Fatalf("(iv) latches")
	}
}

// The latch is per conversation: a new Summaries has none.
func TestLatchPerConversation(t *testing.T) {
	p, _, _ := bookWindow()
	in := over(5)
	in.Policy.KeepLastToolResults = 0
	small := loop("find it", []string{"search", "read", "search", "read"}, 100)
	in.Summaries = NewSummaries(nil)
	VisitWindow(small, in)
	in.Summaries = NewSummaries(nil)
	if v := VisitWindow(small, in); v.Record.SummarizerSkipped {
		t.Fatalf("a new conversation inherited the latch")
	}
	if !reflect.DeepEqual(fingerprintOf(p[1:3]), fingerprintOf([]*model.Message{asst("", "search:ca"), tool("search", "ca", strings.Repeat("x", 1000))})) {
		t.Fatalf("fingerprints compare role and content, not identity")
	}
}

// A placeholder names the summarizer of its own agent's recorded frames,
// and unknown-model for an agent whose frames name none (§11.9).
func TestPlaceholderNamesItsAgentsSummarizer(t *testing.T) {
	p, _, w := bookWindow()
	a, other := &model.Agent{Key: "a"}, &model.Agent{Key: "b"}
	b := NewFoldBook()
	ca, cb := recorded(5, w), recorded(5, p)
	b.Observe(ca, p, 0)
	b.noteAgent(a, ca)
	b.noteAgent(other, cb)
	in := over(6)
	in.Policy.KeepLastToolResults = 0
	small := loop("find it", []string{"x", "y", "x", "y"}, 900) // another span: a placeholder
	in.Summaries, in.Call = NewSummaries(b), ca
	if v := VisitWindow(small, in); v.Frame == nil || !strings.Contains(v.Frame.Content, "SUMMARY written by cheap-1;") ||
		!strings.Contains(v.Frame.Content, "not retained beyond") {
		t.Fatalf("agent a's placeholder: %+v", v.Frame)
	}
	in.Summaries, in.Call = NewSummaries(b), cb
	if v := VisitWindow(small, in); v.Frame == nil || !strings.Contains(v.Frame.Content, "SUMMARY written by "+UnknownModel+";") ||
		!strings.Contains(v.Frame.Content, "retained verbatim") {
		t.Fatalf("agent b's placeholder: %+v", v.Frame)
	}
}

// (i) before (ii): a span the library refused once (the summarizer threw,
// which the log cannot tell from not-smaller, so it was latched here) and
// folded at a later visit is folded there with the recorded summary.
func TestRecordedFoldBeforeLatch(t *testing.T) {
	p, _, w := bookWindow()
	b := NewFoldBook()
	b.Observe(recorded(5, w), p, 0)
	fp := fingerprintOf(p[1:5])
	b.refused[fp] = true
	in := over(6)
	in.Policy.KeepLastToolResults = 0
	in.Summaries = NewSummaries(b)
	in.Summaries.latch(fp)
	if v := VisitWindow(p, in); v.Frame == nil || v.Record.SummarizerSkipped || v.Record.RemovedMessageCount != 4 {
		t.Fatalf("a recorded fold of a latched span: %+v", v.Record)
	}
}
