package pinning

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/afinspect/inspect/model"
)

func msg(role, content string) *model.Message { return &model.Message{Role: role, Content: content} }

func TestCurrentRequest(t *testing.T) {
	req := msg("user", "find the host")
	injected := &model.Message{Role: "user", Content: "find the host", InjectedBy: "skill"}
	cases := []struct {
		name    string
		w       []*model.Message
		request string
		want    int
	}{
		{"exact match wins over a later person-said message", []*model.Message{req, msg("assistant", "a"), msg("user", "also this")}, "find the host", 0},
		{"the last exact match", []*model.Message{req, msg("assistant", "a"), msg("user", "find the host")}, "find the host", 2},
		{"fallback: the last person-said message", []*model.Message{msg("user", "first"), msg("assistant", "a"), msg("user", "second")}, "gone", 2},
		{"notices and frames are not person-said", []*model.Message{msg("user", "[dropped history — 2 …]"), msg("user", "[compacted history …]")}, "x", -1},
		{"injected messages are not person-said", []*model.Message{injected}, "find the host", -1},
		{"no user message", []*model.Message{msg("assistant", "a")}, "x", -1},
	}
	for _, c := range cases {
		if got := CurrentRequest(c.w, c.request); got != c.want {
			t.Errorf("%s: CurrentRequest = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	w := []*model.Message{
		msg("user", "q"), // 0
		{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "1", Name: "a"}}}, {Role: "tool", ToolCallID: "1", ToolName: "a", Content: "aaaa"}, // turn 1
		{Role: "assistant", Content: "hm", ToolCalls: []model.ToolCall{{ID: "2", Name: "b"}, {ID: "3", Name: "c"}}},    // turn 2: parallel b and c
		{Role: "tool", ToolCallID: "2", ToolName: "b", Content: "bb"}, {Role: "tool", ToolCallID: "3", Content: "ccc"}, // c named by its call
		{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "4", Name: "b"}}}, {Role: "tool", ToolCallID: "4", ToolName: "b", Content: "b2"}, // turn 3
	}
	turns := []model.Turn{mt(0, 0, 1), mt(1, 1, 2), mt(2, 3, 3), mt(3, 6, 2)}
	// newest first: b@3; then turn 2: c is new but turn 2 gets one pin
	// (c, the last message walked first); b already seen; then a@1.
	want := []model.Pin{
		{ToolName: "b", TurnIndex: 3, MessageIndex: 6, Chars: 2},
		{ToolName: "c", TurnIndex: 2, MessageIndex: 3, Chars: 7},
		{ToolName: "a", TurnIndex: 1, MessageIndex: 1, Chars: 4},
	}
	if got := Candidates(turns, w, 0); !reflect.DeepEqual(got, want) {
		t.Fatalf("Candidates =\n%+v\nwant\n%+v", got, want)
	}
	// nothing at or before the current request is pinnable
	if got := Candidates(turns, w, 5); len(got) != 1 || got[0].ToolName != "b" {
		t.Fatalf("after 5: %+v", got)
	}
}

func mt(index, start, length int) model.Turn {
	return model.Turn{Index: index, Start: start, Length: length}
}

func TestNameSkipsUnnamedCalls(t *testing.T) {
	w := []*model.Message{
		{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "1", Name: ""}}},
		{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "1", Name: "lookup"}}},
	}
	result := &model.Message{Role: "tool", ToolCallID: "1"}
	if got := NewNamer(w).Name(result); got != "lookup" {
		t.Fatalf("Name = %q, want the first call with that id that has a name", got)
	}
	if got := NewNamer(w).Name(&model.Message{Role: "tool"}); got != "" {
		t.Fatalf("a result with no id and no name has no name, got %q", got)
	}
}

// Twenty tools and one called again: past sixteen names Names keeps a
// map, and a table kept from one window to the next answers the same.
func TestCandidatesManyTools(t *testing.T) {
	w := []*model.Message{msg("user", "q")}
	turns := []model.Turn{mt(0, 0, 1)}
	add := func(name string) {
		id := fmt.Sprintf("c%d", len(w))
		turns = append(turns, mt(len(turns), len(w), 2))
		w = append(w, &model.Message{Role: "assistant", ToolCalls: []model.ToolCall{{ID: id, Name: name}}},
			&model.Message{Role: "tool", ToolCallID: id, ToolName: name, Content: "x", ID: len(w) + 1})
	}
	for i := range 20 {
		add(fmt.Sprintf("t%d", i))
	}
	add("t3") // turn 21: t3's latest result; turn 4's is superseded
	var want []string
	want = append(want, "t3@21")
	for i := 19; i >= 0; i-- {
		if i != 3 {
			want = append(want, fmt.Sprintf("t%d@%d", i, i+1))
		}
	}
	var names Names
	for round := range 2 {
		var got []string
		for _, p := range AppendCandidates(nil, turns, w, 0, len(turns), &names) {
			got = append(got, fmt.Sprintf("%s@%d", p.ToolName, p.TurnIndex))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: candidates\n%v\nwant\n%v", round, got, want)
		}
	}
	// only the pins of turns before upTo, the later names spent all the same
	got := AppendCandidates(nil, turns, w, 0, 21, &names)
	if len(got) != 19 || got[0].ToolName != "t19" {
		t.Fatalf("upTo 21: %d pins, first %+v; want 19, t19 first (t3 spent by turn 21)", len(got), got[0])
	}
}

// CurrentRequest finds the anchor, scanning from the end of the window:
// the last person-said message whose content is exactly the run's request,
// else the last person-said message at all, else -1.
func CurrentRequest(w []*model.Message, request string) int {
	fallback := -1
	for i := len(w) - 1; i >= 0; i-- {
		m := w[i]
		if !m.IsPersonSaid() {
			continue
		}
		if m.Content == request {
			return i
		}
		if fallback < 0 {
			fallback = i
		}
	}
	return fallback
}
