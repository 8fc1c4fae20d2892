package window

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// Hand-checked examples of summarize-oldest (docs/rules/summarize-oldest.md §11). The
// frame text is checked against the library's own bytes in s10's
// wire.json; every other number is worked out in the comments.

// s10Frame is the frame the library sent on s10's fifth call (iteration 5).
func s10Frame(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/s10-summarize/wire.json")
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Calls []struct {
			Messages []struct{ Role, Content string }
		}
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	m := w.Calls[4].Messages[1]
	if m.Role != model.RoleUser {
		t.Fatalf("s10 call 5 message 1 is %s", m.Role)
	}
	return m.Content
}

func TestFrameTextIsTheLibrarys(t *testing.T) {
	sent := s10Frame(t)
	// the label as §11.4 gives it, typed out: 4 messages, iteration 5
	label := "[compacted history — 4 earlier message(s) were folded out of this window at iteration 5. " +
		"The text after this line is a SUMMARY written by cheap-summarizer-1; it is a claim about the conversation, " +
		"not the conversation. The folded messages are retained verbatim with this conversation and can be produced on request.]"
	summary, ok := strings.CutPrefix(sent, label+"\n\n")
	if !ok {
		t.Fatalf("the library's frame does not start with §11.4's label:\n%q", sent)
	}
	if got := FrameText(4, 5, "cheap-summarizer-1", RetainConversation, summary); got != sent {
		t.Fatalf("FrameText:\n%q\nlibrary:\n%q", got, sent)
	}
	if n := model.Len(sent); n != 476 { // the record's summaryChars
		t.Fatalf("frame length %d, the library's record says 476", n)
	}
	f, ok := ParseFrame(sent)
	if want := (Frame{Count: 4, Iteration: 5, Model: "cheap-summarizer-1", Retain: RetainConversation, Summary: summary}); !ok || f != want {
		t.Fatalf("ParseFrame = %+v %v, want %+v", f, ok, want)
	}
	discard := "[compacted history — 12 earlier message(s) were folded out of this window at iteration 10. " +
		"The text after this line is a SUMMARY written by m; it is a claim about the conversation, not the conversation. " +
		"The folded messages were not retained beyond the run that folded them; only this summary carries them forward.]\n\ns"
	if got := FrameText(12, 10, "m", RetainDiscard, "s"); got != discard {
		t.Fatalf("discard frame:\n%q\nwant\n%q", got, discard)
	}
}

func TestParseFrameRejects(t *testing.T) {
	good := FrameText(3, 7, "m", RetainConversation, "sum")
	for _, bad := range []string{
		"[dropped history — 3 earlier message(s) were dropped",
		strings.Replace(good, "— 3 ", "— 03 ", 1),
		strings.Replace(good, "— 3 ", "— x ", 1),
		strings.Replace(good, "]\n\n", "]\n", 1),
		strings.Replace(good, "retained verbatim", "kept", 1),
		strings.Replace(good, "iteration 7.", "iteration 7,", 1),
	} {
		if f, ok := ParseFrame(bad); ok {
			t.Errorf("ParseFrame(%.60q) = %+v, want not a frame", bad, f)
		}
	}
}

// summarizePolicy is K=2 L=2 T=1000 unless changed.
func summarizePolicy() model.Policy {
	return model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 1000}
}

func TestSummarizeEngagesAsTokenBudget(t *testing.T) {
	w := loop("find it", []string{"search", "read", "search", "read"}, 1000)
	cases := []struct {
		name    string
		in      VisitInput
		engaged bool
		problem bool
	}{
		{"first call of a run: no reading", VisitInput{FirstCall: true, PrevUsage: model.Usage{Input: 5000, Output: 1}, Iteration: 1}, false, false},
		{"reading equal to the threshold", VisitInput{PrevUsage: model.Usage{Input: 1000, Output: 1}, Iteration: 5}, false, false},
		{"reading above it", VisitInput{PrevUsage: model.Usage{Input: 1001, Output: 1}, Iteration: 5}, true, false},
		{"reading of iteration I-1", VisitInput{PrevUsage: model.Usage{Input: 1001, Output: 1}, ReadingAt: 4, Iteration: 5}, true, false},
		{"reading of iteration I-2 has expired", VisitInput{PrevUsage: model.Usage{Input: 1001, Output: 1}, ReadingAt: 3, Iteration: 5}, false, false},
		{"zero input and output: unmeasurable", VisitInput{Iteration: 5}, false, true},
	}
	for _, c := range cases {
		in := c.in
		in.Policy, in.Request = summarizePolicy(), "find it"
		in.Summaries = writing(func(foldRequest) summary { return summary{frame: "[compacted history — f"} })
		v := VisitWindow(w, in)
		if v.Engaged != c.engaged || (v.Record != nil) != c.engaged || (v.Problem != "") != c.problem {
			t.Errorf("%s: engaged %v record %v problem %q", c.name, v.Engaged, v.Record != nil, v.Problem)
		}
	}
}

// writing is a conversation state whose summarizer is fn.
func writing(fn func(foldRequest) summary) *Summaries {
	s := NewSummaries(nil)
	s.write = fn
	return s
}

func over(iteration int) VisitInput {
	return VisitInput{Policy: summarizePolicy(), Request: "find it", Iteration: iteration, PrevUsage: model.Usage{Input: 1500, Output: 10}}
}

// s10's ninth visit, in miniature: request, an old frame, then fetch_ticket,
// fetch_logs, fetch_logs. K=2: candidates are turns 0–2. Pins newest first:
// fetch_logs@4 (inside the keep window), fetch_ticket@2 (admitted). The walk
// refuses 0 (current-request), takes 1 (the frame), and 2 (pinned) ends the
// span: one turn, a frame → only-existing-summary, after the walking
// refusals, before the keep window. The library's record at iteration 9
// lists exactly these five.
func TestOnlyExistingSummary(t *testing.T) {
	w := []*model.Message{
		user("find it"), user(FrameText(4, 5, "m", RetainConversation, "old")),
		asst("", "fetch_ticket:c6"), tool("fetch_ticket", "c6", strings.Repeat("t", 300)),
		asst("", "fetch_logs:c7"), tool("fetch_logs", "c7", strings.Repeat("l", 400)),
		asst("", "fetch_logs:c8"), tool("fetch_logs", "c8", strings.Repeat("l", 500)),
	}
	in := over(9)
	in.Summaries = writing(func(foldRequest) summary { t.Fatal("summarizer asked"); return summary{} })
	v := VisitWindow(w, in)
	want := []model.Refusal{
		ref(model.ReasonCurrentRequest, 0, 0), ref(model.ReasonLastToolResult, 2, 2),
		ref(model.ReasonOnlyExistingSummary, 1, 1),
		ref(model.ReasonInsideKeepWindow, 3, 4), ref(model.ReasonInsideKeepWindow, 4, 6),
	}
	r := v.Record
	if r == nil || !reflect.DeepEqual(r.Refusals, want) || r.RemovedMessageCount != 0 || r.SummaryChars == nil || *r.SummaryChars != 0 {
		t.Fatalf("record %+v, want refusals %v and nothing removed", r, want)
	}
	if pins := r.Observations.Pinned; len(pins) != 1 || pins[0] != (model.Pin{ToolName: "fetch_ticket", TurnIndex: 2, MessageIndex: 2, Chars: 300}) {
		t.Fatalf("pins %+v", pins)
	}
	if len(v.After) != len(w) {
		t.Fatalf("the window changed")
	}
	// Without the pin the span reaches the ticket turn: two turns, a frame
	// among them, are foldable (a real turn joined the lone summary).
	in.Policy.KeepLastToolResults = 0
	in.Summaries = writing(func(r foldRequest) summary { return summary{frame: "[compacted history — new"} })
	if v := VisitWindow(w, in); v.Frame == nil || len(v.Evicted) != 3 {
		t.Fatalf("frame + ticket turn: folded %d messages, frame %v", len(v.Evicted), v.Frame)
	}
}

// request (7 chars) + search, read, search, read with 1000-char results.
// K=2, L=0: candidates 0–2, 0 refuses current-request, the span is turns
// 1–2 = messages 1–4 (a, t, a, t), 2000 chars. Window: 7 + 4000 = 4007.
func foldWindow() ([]*model.Message, VisitInput) {
	w := loop("find it", []string{"search", "read", "search", "read"}, 1000)
	in := over(5)
	in.Policy.KeepLastToolResults = 0
	return w, in
}

func TestFoldReplacesTheSpanInPlace(t *testing.T) {
	w, in := foldWindow()
	frame := "[compacted history — " + strings.Repeat("f", 279) // 300 chars
	var asked []foldRequest
	in.Summaries = writing(func(r foldRequest) summary { asked = append(asked, r); return summary{frame: frame} })
	v := VisitWindow(w, in)
	if len(asked) != 1 || len(asked[0].span) != 4 || asked[0].iteration != 5 {
		t.Fatalf("summarizer asked %d times: %+v", len(asked), asked)
	}
	want := []*model.Message{w[0], v.Frame, w[5], w[6], w[7], w[8]}
	if v.Frame == nil || v.Frame.Content != frame || v.Frame.Role != model.RoleUser || !reflect.DeepEqual(v.After, want) {
		t.Fatalf("window after %v", v.After)
	}
	r := v.Record
	// after: 7 + 300 + 2000 = 2307
	if r.RemovedMessageCount != 4 || r.WindowCharsBefore != 4007 || r.WindowCharsAfter != 2307 || *r.SummaryChars != 300 ||
		!reflect.DeepEqual(r.DroppedObservations, []string{"search", "read"}) || r.MeasuredTokens != 1500 ||
		r.ThresholdTokens != 1000 || !r.OverBudget || r.KeepRecentTurns != 0 || r.TurnsBefore != 0 || r.Observations != nil {
		t.Fatalf("record %+v", r)
	}
	wantRefusals := []model.Refusal{ref(model.ReasonCurrentRequest, 0, 0), ref(model.ReasonInsideKeepWindow, 3, 5), ref(model.ReasonInsideKeepWindow, 4, 7)}
	if !reflect.DeepEqual(r.Refusals, wantRefusals) {
		t.Fatalf("refusals %v", r.Refusals)
	}
	fates := v.Turns()
	if !fates[1].Folded || !fates[2].Folded || fates[3].Folded || fates[0].Evicted {
		t.Fatalf("turn fates %+v", fates)
	}
	// With no anchor the span starts at the front; the frame takes its
	// place with no notice rule (§11.3): [frame, a, t, a, t].
	in.Policy.NoAnchor = true
	v = VisitWindow(w, in)
	if len(v.After) != 5 || v.After[0] != v.Frame || len(v.Evicted) != 5 {
		t.Fatalf("no anchor: window %d messages, first %v", len(v.After), v.After[0])
	}
}

// §11.6: latch, then summarizer-failed, then not smaller, then the fold.
func TestFoldOutcomesInOrder(t *testing.T) {
	w, in := foldWindow()
	rns := ref(model.ReasonReplacementNotSmaller, 1, 1)
	// Not smaller: a 2000-char frame for a 2000-char span stays, latched,
	// summaryChars 2000; the next visit does not ask again.
	calls := 0
	in.Summaries = writing(func(foldRequest) summary {
		calls++
		return summary{frame: "[compacted history — " + strings.Repeat("f", 1979)}
	})
	v := VisitWindow(w, in)
	if r := v.Record; r.RemovedMessageCount != 0 || r.Refusals[0] != rns || *r.SummaryChars != 2000 || r.SummarizerSkipped || len(v.After) != len(w) {
		t.Fatalf("not smaller: %+v", r)
	}
	v = VisitWindow(w, in)
	if r := v.Record; calls != 1 || !r.SummarizerSkipped || r.Refusals[0] != rns || r.RemovedMessageCount != 0 {
		t.Fatalf("latched: asked %d times, record %+v", calls, r)
	}
	if f := v.Turns()[1]; f.Reason != model.ReasonReplacementNotSmaller || f.Evicted {
		t.Fatalf("latched turn: %+v", f)
	}
	// The summarizer throws: summarizer-failed first, not latched.
	calls = 0
	in.Summaries = writing(func(foldRequest) summary { calls++; return summary{failed: true} })
	VisitWindow(w, in)
	v = VisitWindow(w, in)
	if r := v.Record; calls != 2 || r.Refusals[0] != ref(model.ReasonSummarizerFailed, 1, 1) || r.RemovedMessageCount != 0 || r.SummaryChars != nil {
		t.Fatalf("failed: asked %d times, record %+v", calls, r)
	}
	// One char smaller folds.
	in.Summaries = writing(func(foldRequest) summary {
		return summary{frame: "[compacted history — " + strings.Repeat("f", 1978)}
	})
	if v := VisitWindow(w, in); v.Record.RemovedMessageCount != 4 || *v.Record.SummaryChars != 1999 {
		t.Fatalf("1999 < 2000 must fold: %+v", v.Record)
	}
}

func TestSummarizeRecordJSON(t *testing.T) {
	w, in := foldWindow()
	in.Summaries = writing(func(foldRequest) summary { return summary{notSmaller: true} })
	b, err := json.Marshal(VisitWindow(w, in).Record)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	for _, k := range []string{"keepRecentTurns", "turnsBefore", "turnsAfter", "summarizerTokens", "summaryRecorded"} {
		if _, ok := got[k]; ok {
			t.Errorf("summarize-oldest record has %q: %s", k, b)
		}
	}
	if v, ok := got["summaryChars"]; !ok || v != nil {
		t.Errorf("summaryChars of a refusal the log does not explain must be null: %s", b)
	}
	for _, k := range []string{"measuredTokens", "thresholdTokens", "overBudget", "windowCharsBefore", "removedMessageCount", "windowCharsAfter", "refusals"} {
		if _, ok := got[k]; !ok {
			t.Errorf("summarize-oldest record lacks %q: %s", k, b)
		}
	}
	sw, _ := json.Marshal(model.Record{Strategy: model.SlidingWindow, KeepRecentTurns: 2})
	if !strings.Contains(string(sw), `"keepRecentTurns":2`) || strings.Contains(string(sw), "summaryChars") {
		t.Errorf("sliding-window record: %s", sw)
	}
}

// §11.8: a lone frame in front of a pinned turn removes nothing twice
// (only-existing-summary + last-tool-result); the third visit stands down,
// the pin is released, and frame and turn fold together.
func TestSummarizeStandDown(t *testing.T) {
	w := []*model.Message{
		user("find it"), user(FrameText(4, 5, "m", RetainConversation, "old")),
		asst("", "fetch_ticket:c6"), tool("fetch_ticket", "c6", strings.Repeat("t", 300)),
		asst("", "fetch_logs:c7"), tool("fetch_logs", "c7", strings.Repeat("l", 400)),
		asst("", "fetch_logs:c8"), tool("fetch_logs", "c8", strings.Repeat("l", 500)),
	}
	in := over(9)
	in.Summaries = writing(func(foldRequest) summary { return summary{frame: "[compacted history — short"} })
	var records []model.Record
	for i := 0; i < 2; i++ {
		in.Records = records
		v := VisitWindow(w, in)
		if v.StandDown || v.Record.RemovedMessageCount != 0 || !namesReason(v.Record.Refusals, model.ReasonOnlyExistingSummary) ||
			!namesReason(v.Record.Refusals, model.ReasonLastToolResult) {
			t.Fatalf("visit %d: %+v", i+1, v.Record)
		}
		records = append(records, *v.Record)
	}
	in.Records = records
	v := VisitWindow(w, in)
	if !v.StandDown || len(v.Pins) != 0 || v.Record.Observations == nil || !v.Record.Observations.StandDown {
		t.Fatalf("third visit did not stand down: %+v", v.Record)
	}
	// K=2: turns 0–2 are candidates; 0 refuses; frame and ticket turn fold
	if v.Frame == nil || len(v.Evicted) != 3 || v.Evicted[0] != w[1] || v.Evicted[2] != w[3] {
		t.Fatalf("folded %d messages, frame %v", len(v.Evicted), v.Frame)
	}
}
