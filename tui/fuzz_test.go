package tui

import (
	"encoding/json"
	"testing"

	"github.com/afinspect/inspect/internal/hostile"
	"github.com/afinspect/inspect/model"
)

// toolRun is a two-call run: the request is prompt; the assistant calls
// tool with args, whose result is result; the second call is sent all.
func toolRun(prompt, tool, args, result string) *model.Recording {
	req := &model.Message{Role: model.RoleUser, Content: prompt, ID: 1}
	ask := &model.Message{Role: model.RoleAssistant, Content: prompt, ID: 2, ToolCalls: []model.ToolCall{{ID: tool, Name: tool, Args: json.RawMessage(args)}}}
	res := &model.Message{Role: model.RoleTool, Content: result, ToolCallID: tool, ToolName: tool, ID: 3}
	for _, m := range []*model.Message{req, ask, res} {
		m.Chars()
	}
	return &model.Recording{Source: prompt, Runs: []*model.Run{{
		Index: 1, RunID: tool, Request: prompt, RequestMessage: req, Strategy: tool, Complete: true,
		Calls: []*model.Call{
			{Iteration: 1, MessagesCount: 1, Ended: true, Appended: []*model.Message{ask, res}},
			{Iteration: 2, MessagesCount: 3, Ended: true, Appended: []*model.Message{{Role: model.RoleAssistant, Content: result, ID: 4}}},
		},
	}}}
}

// The TUI's rendering of arbitrary message content: no raw control byte
// in any View (colour aside), no line wider than the frame, at any size.
func FuzzViewOfMessageContent(f *testing.F) {
	f.Add(hostile.Escapes, "read_file", `{"q":"\u001b]0;x\u0007"}`, 120, 40)
	f.Add("a\tb\r\nc", "t\x1b[2J", `[1,2]`, 20, 5)
	f.Add(`{"k":"\u009b\u202e👍🏽"}`, "👨‍👩‍👧", `{}`, 61, 17)
	f.Add("\xff\xfe\x00", "", `not json`, 33, 9)
	f.Fuzz(func(t *testing.T, content, tool, args string, w, h int) {
		w, h = 20+int(uint(w)%140), 5+int(uint(h)%45)
		if !json.Valid([]byte(args)) {
			args = `{}`
		}
		m := open(t, recConfig(content, toolRun(content, tool, args, content)), w, h)
		for _, k := range []string{"", "l", "up", "tab", "pgdown", "!", "esc", "?", "esc", "v", "esc", "i", "esc"} {
			if k != "" {
				m = press(m, k)
			}
			safeView(t, "after "+k, m.View(), w)
			if t.Failed() {
				return
			}
		}
	})
}
