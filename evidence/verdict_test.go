package evidence

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// §5: the first grounded verdict that applies, and left / never-read with
// the messages that hold a value; §9.3: a summary's value no tool result
// that left holds is summary-unsupported.
func TestJudge(t *testing.T) {
	tc := 25.0 // the tool's own text is the first 25 units
	frame := "[compacted history — 4 earlier message(s) were folded out of this window at iteration 5. The text after this line is a SUMMARY written by m-1234; it is a claim.]\n\nThe host was 10.12.4.25 in us-east-1b."
	window := []*model.Message{
		{Role: model.RoleUser, Content: "Check INC-20931 on web-7f3a2c"},
		{Role: model.RoleUser, Content: frame},
		{Role: model.RoleUser, Content: "[dropped history — 2 earlier message(s) at ITER-0007]"},
		{Role: model.RoleAssistant, Content: "web-3e6f14", ToolCalls: []model.ToolCall{{ID: "c1", Name: "get_metrics"}}},
		{Role: model.RoleTool, ToolCallID: "c1", ToolName: "get_metrics", Content: `{"host":"web-7f3a2c"} [filled: NOTE-4242]`, ToolChars: &tc},
		{Role: model.RoleUser, Content: "[evidence check]\n\n`web-9d4b27` (identifier)"},
	}
	goneTool := &model.Message{Role: model.RoleTool, ToolCallID: "c0", ToolName: "list_hosts", Content: `[{"id":"web-9d4b27","az":"us-east-1b"}]`}
	goneUser := &model.Message{Role: model.RoleUser, Content: "Earlier request BD-2026-118843 about web-9d4b27"}
	goneAssistant := &model.Message{Role: model.RoleAssistant, Content: "I made up web-3e6f14 and web-1111"}
	gone := []*model.Message{goneTool, goneUser, goneAssistant}
	values := Candidates("web-7f3a2c INC-20931 SC-1234 us-east-1b 10.12.4.25 m-1234 NOTE-4242 ITER-0007 web-9d4b27 bd-2026-118843 web-3e6f14 web-1111")
	view := View{Window: window, Request: "Check INC-20931 on web-7f3a2c", SystemPrompt: []string{"contract SC-1234"}}
	got := NewJudger().Judge(values, view, func() []*model.Message { return gone })
	want := map[string]struct {
		verdict string
		sources []int
	}{
		"web-7f3a2c":     {InView, nil},             // tool bytes beat the request
		"inc-20931":      {UserSupplied, nil},       // the request
		"sc-1234":        {UserSupplied, nil},       // the system prompt
		"us-east-1b":     {Summary, nil},            // only in the frame's summary (grounded wins), and list_hosts held it
		"10.12.4.25":     {SummaryUnsupported, nil}, // only in the summary: no tool result held it
		"m-1234":         {LibraryNote, nil},        // the frame's label
		"note-4242":      {LibraryNote, nil},        // past the tool's own bytes
		"iter-0007":      {LibraryNote, nil},        // a drop notice
		"web-9d4b27":     {Left, []int{0, 1}},       // the re-ask is not exempt; two messages that left
		"bd-2026-118843": {Left, []int{1}},
		"web-3e6f14":     {NeverRead, nil}, // assistant text is never evidence
		"web-1111":       {NeverRead, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("%d values: %v", len(got), got)
	}
	for _, j := range got {
		w := want[j.Value.Value]
		if j.Verdict != w.verdict || !slices.Equal(j.Sources, w.sources) {
			t.Errorf("%s: %s %v, want %s %v", j.Value.Value, j.Verdict, j.Sources, w.verdict, w.sources)
		}
		if folded := j.Value.Value == "us-east-1b"; folded != (len(j.Folded) == 1 && j.Folded[0] == goneTool) {
			t.Errorf("%s: folded results holding it %v", j.Value.Value, j.Folded)
		}
	}
}

func TestSplitFrame(t *testing.T) {
	l, s := SplitFrame("[compacted history — x]\n\nsummary [a]\n\nb")
	if l != "[compacted history — x]" || s != "summary [a]\n\nb" {
		t.Errorf("%q %q", l, s)
	}
}

// Past FormLimit forms the library adds no more: a value only in the
// forms it left out is unsupported, even in a tool result in view — the
// verdict never contradicts the library; its characters were in view, so
// it is in-view-text (§9.2).
func TestJudgePastTheLimit(t *testing.T) {
	var b strings.Builder
	for i := range FormLimit + 5 {
		fmt.Fprintf(&b, "v%d ", i)
	}
	window := []*model.Message{
		{Role: model.RoleUser, Content: "go"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "dump"}}},
		{Role: model.RoleTool, ToolCallID: "c1", ToolName: "dump", Content: b.String()},
	}
	got := NewJudger().Judge([]Value{{"v1234", ShapeIdentifier}, {"v200003", ShapeIdentifier}},
		View{Window: window, Request: "go"}, func() []*model.Message { return nil })
	if got[0].Verdict != InView || got[1].Verdict != InViewText {
		t.Errorf("verdicts %s %s, want in-view in-view-text", got[0].Verdict, got[1].Verdict)
	}
}
