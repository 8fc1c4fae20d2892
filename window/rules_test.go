package window

import (
	"reflect"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// Small constructors for hand-built windows.
func user(s string) *model.Message { return &model.Message{Role: model.RoleUser, Content: s} }
func asst(s string, ids ...string) *model.Message {
	m := &model.Message{Role: model.RoleAssistant, Content: s}
	for _, id := range ids {
		name, id, _ := strings.Cut(id, ":")
		m.ToolCalls = append(m.ToolCalls, model.ToolCall{ID: id, Name: name, Args: []byte(`{}`)})
	}
	return m
}
func tool(name, id, s string) *model.Message {
	return &model.Message{Role: model.RoleTool, Content: s, ToolCallID: id, ToolName: name}
}

func TestSegment(t *testing.T) {
	w := []*model.Message{
		tool("x", "c0", "orphan result"), // no turn in progress: its own turn
		user("q"),
		asst("", "a:c1", "b:c2"), tool("a", "c1", "1"), tool("b", "c2", "2"), // one parallel turn
		asst("done"),
	}
	got := Segment(w)
	want := []model.Turn{mt(0, 0, 1), mt(1, 1, 1), mt(2, 2, 3), mt(3, 5, 1)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Segment = %v, want %v", got, want)
	}
}

// loop builds request + n single-tool turns, each result of size chars.
func loop(request string, tools []string, size int) []*model.Message {
	w := []*model.Message{user(request)}
	for i, name := range tools {
		id := "c" + string(rune('a'+i))
		w = append(w, asst("", name+":"+id), tool(name, id, strings.Repeat("x", size)))
	}
	return w
}

func TestPlanSpanAndRefusals(t *testing.T) {
	// request, then search, read, search, read: K=2, L=2.
	// Pins (newest first): read@4, search@3 — both inside the keep window
	// (candidates = 5-2 = 3), so none is admitted; turns 1..2 leave.
	// Results of 1000 chars make the span (2000 chars) larger than any notice.
	w := loop("find it", []string{"search", "read", "search", "read"}, 1000)
	v := VisitWindow(w, VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, Request: "find it", Iteration: 5})
	want := []model.Refusal{
		ref(model.ReasonCurrentRequest, 0, 0),
		ref(model.ReasonInsideKeepWindow, 3, 5),
		ref(model.ReasonInsideKeepWindow, 4, 7),
	}
	if !reflect.DeepEqual(v.Record.Refusals, want) {
		t.Fatalf("refusals = %v, want %v", v.Record.Refusals, want)
	}
	if len(v.Evicted) != 4 || v.Evicted[0] != w[1] || v.Evicted[3] != w[4] {
		t.Fatalf("evicted %d messages, want turns 1-2 (4 messages)", len(v.Evicted))
	}
	// the request was kept at the head: a notice saying so follows it
	if v.After[0] != w[0] || v.Notice == nil || v.After[1] != v.Notice {
		t.Fatalf("want request, notice, tail; got %d messages", len(v.After))
	}
	if !strings.Contains(v.Notice.Content, "Your current request is kept") ||
		!strings.Contains(v.Notice.Content, "Tool results are among them (search, read)") {
		t.Fatalf("notice = %q", v.Notice.Content)
	}
	if v.Record.RemovedMessageCount != 4 || !reflect.DeepEqual(v.Record.DroppedObservations, []string{"search", "read"}) {
		t.Fatalf("record = %+v", v.Record)
	}
}

func TestPinnedTurnEndsSpan(t *testing.T) {
	// request, list, search, search, search, search with K=2, L=2:
	// candidates = 6-2 = 4 (turns 0..3). Pins newest first: search@5
	// (inside keep), list@1 (admitted). Turn 1 refused in front is stepped
	// over; turns 2..3 leave; no notice (span does not reach the front and
	// the request is not directly ahead of it).
	w := loop("q", []string{"list", "search", "search", "search", "search"}, 100)
	v := VisitWindow(w, VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, Request: "q", Iteration: 6})
	if v.Notice != nil || len(v.Evicted) != 4 || v.Evicted[0] != w[3] {
		t.Fatalf("want turns 2-3 silently dropped, got notice=%v evicted=%d", v.Notice != nil, len(v.Evicted))
	}
	if len(v.Pins) != 1 || v.Pins[0].ToolName != "list" || v.Pins[0].Chars != 100 {
		t.Fatalf("pins = %+v", v.Pins)
	}
	// a refused turn in the middle stops the span: pin the second search
	// instead by putting a different tool there
	w2 := loop("q", []string{"search", "list", "search", "search", "search"}, 100)
	v2 := VisitWindow(w2, VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, Request: "q", Iteration: 6})
	// turn 1 (search) leaves, turn 2 (list, pinned) ends the span, turn 3 stays
	if len(v2.Evicted) != 2 || v2.Evicted[0] != w2[1] {
		t.Fatalf("evicted %d, want the first search turn only", len(v2.Evicted))
	}
	want := []model.Refusal{ref(model.ReasonCurrentRequest, 0, 0), ref(model.ReasonLastToolResult, 2, 3), ref(model.ReasonInsideKeepWindow, 4, 7), ref(model.ReasonInsideKeepWindow, 5, 9)}
	if !reflect.DeepEqual(v2.Record.Refusals, want) {
		t.Fatalf("refusals = %v, want %v", v2.Record.Refusals, want)
	}
	if tf := v2.Turns()[3]; tf.Evicted || tf.Reason != "" {
		t.Fatalf("turn 3 should stay unreached, got %+v", tf)
	}
}

func TestSmallSpanDropsSilentlyBehindRequest(t *testing.T) {
	// Span of 200 chars: no notice is smaller, but the request still heads
	// the window, so the wire needs none: drop silently.
	w := loop("find it", []string{"search", "read", "search", "read"}, 100)
	v := VisitWindow(w, VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2}, Request: "find it", Iteration: 5})
	if v.Notice != nil || len(v.Evicted) != 4 || len(v.After) != 5 || v.After[0] != w[0] {
		t.Fatalf("want a silent drop of 4 messages, got notice=%v evicted=%d after=%d", v.Notice != nil, len(v.Evicted), len(v.After))
	}
}

func TestPinLimitYields(t *testing.T) {
	// four tools then two more turns; K=2 leaves candidates 0..4; pins
	// newest first d@4 c@3 b@2 a@1 all outside the keep window; L=2 admits
	// d and c, yields 2.
	w := loop("q", []string{"a", "b", "c", "d", "e", "f"}, 50)
	v := VisitWindow(w, VisitInput{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, Request: "q", Iteration: 7})
	if got := []string{v.Pins[0].ToolName, v.Pins[1].ToolName}; !reflect.DeepEqual(got, []string{"d", "c"}) || v.Yielded != 2 {
		t.Fatalf("pins %v yielded %d", got, v.Yielded)
	}
	obs := v.Record.Observations
	if obs == nil || obs.Limit != 2 || obs.Yielded != 2 {
		t.Fatalf("observations = %+v", obs)
	}
}

func TestStandDown(t *testing.T) {
	lastTool := model.Record{Refusals: []model.Refusal{{Reason: model.ReasonLastToolResult}}}
	removed := model.Record{RemovedMessageCount: 2, Refusals: []model.Refusal{{Reason: model.ReasonLastToolResult}}}
	plain := model.Record{Refusals: []model.Refusal{{Reason: model.ReasonCurrentRequest}}}
	cases := []struct {
		records []model.Record
		want    bool
	}{
		{nil, false},
		{[]model.Record{lastTool}, false},
		{[]model.Record{lastTool, lastTool}, true},
		{[]model.Record{removed, lastTool}, false},
		{[]model.Record{lastTool, plain}, false},
		{[]model.Record{plain, lastTool, lastTool}, true},
	}
	for i, c := range cases {
		if got := (&VisitInput{Records: c.records}).standsDown(); got != c.want {
			t.Errorf("case %d: standsDown = %v, want %v", i, got, c.want)
		}
		filed := []*model.Record{} // as a replay's chain tells it
		for j := range c.records {
			filed = append(filed, &c.records[j])
		}
		if got := (&VisitInput{filed: filed}).standsDown(); got != c.want {
			t.Errorf("case %d: standsDown of the filed records = %v, want %v", i, got, c.want)
		}
	}
	// with stand-down the pinned turn is free to leave
	w := loop("q", []string{"list", "search", "search", "search"}, 100)
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}
	v := VisitWindow(w, VisitInput{Policy: p, Request: "q", Iteration: 5, Records: []model.Record{lastTool, lastTool}})
	if !v.StandDown || len(v.Pins) != 0 || v.Record.Observations == nil || !v.Record.Observations.StandDown {
		t.Fatalf("stand-down not applied: %+v", v.Record)
	}
	if len(v.Evicted) != 4 {
		t.Fatalf("evicted %d, want list and the first search (4 messages)", len(v.Evicted))
	}
}

func mt(index, start, length int) model.Turn {
	return model.Turn{Index: index, Start: start, Length: length}
}

func ref(reason string, turn, msg int) model.Refusal {
	return model.Refusal{Reason: reason, TurnIndex: turn, MessageIndex: msg}
}
