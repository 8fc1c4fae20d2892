package tui

import (
	"github.com/afinspect/inspect/model"
)

// The response row — the model's output, on the call that produced it,
// not only in the next call's window: the last row of every call's turn list is what the model answered on that
// call. Its line says it in a few words (provenance.Produced) with the
// call's flagged values; selected, the detail shows the response in full
// — text, tool calls with their arguments, usage, stop reason — and
// every value with its verdict, drawn by response.Text as the i overlay
// draws it.

// responseMessages is the response of the call on screen as the one
// assistant message it is, for the pager (o) and the clipboard (y); nil
// when the cursor is not on the response row.
func (m Model) responseMessages() []*model.Message {
	c := m.s.Current()
	if c == nil || !m.list.OnResponse() {
		return nil
	}
	r := c.Call.Facts.Response
	return []*model.Message{{Role: model.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}}
}
