package pinning

import (
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
