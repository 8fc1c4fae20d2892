package window

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

func TestNoticeText(t *testing.T) {
	// Hand-written from docs/rules/window.md §6.
	want := "[dropped history — 3 earlier message(s) were dropped from this window at iteration 4 by the 'sliding-window' window strategy. " +
		"Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. " +
		"Tool results are among them (a, b) — call the tool again if you need its output; do not reconstruct ids or values from memory. " +
		"Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	if got := NoticeText(3, 4, "sliding-window", true, []string{"a", "b"}); got != want {
		t.Fatalf("NoticeText =\n%s\nwant\n%s", got, want)
	}
	five := NoticeText(1, 1, "token-budget", false, []string{"a", "b", "c", "d", "e"})
	if !strings.Contains(five, "(a, b, c, d, …) — call") {
		t.Fatalf("more than four names: %q", five)
	}
	plain := NoticeText(1, 1, "sliding-window", false, nil)
	if strings.Contains(plain, "Tool results") || strings.Contains(plain, "current request") {
		t.Fatalf("plain notice: %q", plain)
	}
}

// needsNotice builds a window whose span (turns 0-1) reaches the front and
// leaves an assistant turn at the head, so the wire needs a notice.
// The anchor is off so the old user message may leave.
func needsNotice(spanText string) ([]*model.Message, VisitInput) {
	w := []*model.Message{user("old"), asst(spanText), asst("B")}
	in := VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 1, NoAnchor: true}, Request: "new", Iteration: 9}
	return w, in
}

func TestNoticeLadderBoundary(t *testing.T) {
	plainLen := model.Len(NoticeText(2, 9, "sliding-window", false, nil))
	cases := []struct {
		name       string
		spanText   string // the span is "old" (3 units) plus this
		wantNotice bool
	}{
		{"span exactly the notice's length: not smaller", strings.Repeat("x", plainLen-3), false},
		{"span one longer: the notice fits", strings.Repeat("x", plainLen-2), true},
		// 😀 is 2 UTF-16 units (1 rune, 4 bytes): counting runes would
		// refuse the notice here, UTF-16 accepts it.
		{"emoji count two units", strings.Repeat("😀", (plainLen-2)/2) + strings.Repeat("x", (plainLen-2)%2), true},
		// 日 is 1 unit (3 bytes): counting bytes would accept the notice
		// here, UTF-16 says the span is exactly as long.
		{"CJK counts one unit", strings.Repeat("日", plainLen-3), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, in := needsNotice(c.spanText)
			v := VisitWindow(w, in)
			if got := v.Notice != nil; got != c.wantNotice {
				t.Fatalf("notice = %v, want %v (span %d units, notice %d)", got, c.wantNotice, 3+model.Len(c.spanText), plainLen)
			}
			if c.wantNotice {
				if len(v.After) != 2 || v.After[0] != v.Notice || v.After[1] != w[2] {
					t.Fatalf("want notice + assistant B, got %d messages", len(v.After))
				}
				return
			}
			// no notice and the wire needs one: nothing leaves, and the
			// refusal says why, listed first
			if len(v.Evicted) != 0 || len(v.After) != 3 {
				t.Fatalf("nothing should leave, evicted %d", len(v.Evicted))
			}
			r := v.Record.Refusals
			if len(r) == 0 || r[0] != (model.Refusal{Reason: model.ReasonReplacementNotSmaller, TurnIndex: 0, MessageIndex: 0}) {
				t.Fatalf("refusals = %v", r)
			}
		})
	}
}

func TestRichNoticeNeedsNameableTools(t *testing.T) {
	big := strings.Repeat("r", 2000)
	w := []*model.Message{user("old"), asst("", "has space:c1"), tool("has space", "c1", big), asst("B")}
	in := VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 1, NoAnchor: true}, Request: "new", Iteration: 3}
	v := VisitWindow(w, in)
	if v.Notice == nil || strings.Contains(v.Notice.Content, "Tool results") {
		t.Fatalf("a tool name outside the pattern gets the plain notice: %v", v.Notice)
	}
	if len(v.Record.DroppedObservations) != 1 || v.Record.DroppedObservations[0] != "has space" {
		t.Fatalf("droppedObservations = %v", v.Record.DroppedObservations)
	}
}

func TestToolNameFromCall(t *testing.T) {
	// a result without toolName takes the name of the call with its id
	w := []*model.Message{user("q"), asst("", "lookup:c1"), {Role: model.RoleTool, ToolCallID: "c1", Content: "r"}, asst("x"), asst("y")}
	in := VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, Request: "q", Iteration: 3}
	v := VisitWindow(w, in)
	if len(v.Pins) != 1 || v.Pins[0].ToolName != "lookup" || v.Pins[0].Chars != 1 {
		t.Fatalf("pins = %+v", v.Pins)
	}
}

func TestContentHashMatchesLibrary(t *testing.T) {
	// contentHash of the first context.injected event in
	// testdata/event-samples.txt, written by the library.
	got := ContentHash("user", 0, "Find out why the config loader ignores the override file, and confirm with the database.")
	if got != 0xbe692eae {
		t.Fatalf("ContentHash = %x, want be692eae", got)
	}
}

func TestNoticeLenIsTheTextsLength(t *testing.T) {
	for _, c := range []struct {
		n, it    int
		strategy string
		kept     bool
		names    []string
	}{
		{1, 1, "sliding-window", false, nil},
		{12, 345, "token-budget", true, []string{"a"}},
		{7, 9, "sliding-window", true, []string{"read_file", "list:hosts", "x.y", "a-b", "more"}},
	} {
		text := NoticeText(c.n, c.it, c.strategy, c.kept, c.names)
		if got, want := noticeLen(c.n, c.it, c.strategy, c.kept, c.names), model.Len(text); got != want {
			t.Errorf("noticeLen = %d, Len(NoticeText) = %d for %q", got, want, text)
		}
	}
	for name, want := range map[string]bool{"read_file": true, "list:hosts.v2-x": true, "": false, "has space": false,
		"é": false, strings.Repeat("a", 48): true, strings.Repeat("a", 49): false} {
		if nameable(name) != want {
			t.Errorf("nameable(%q) = %v", name, !want)
		}
	}
}
