package tui

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/present"
)

// The response row — the model's output, on the call that produced it,
// not only in the next call's window: the last row of every call's turn list is what the model answered on that
// call. Its line says it in a few words (provenance.Produced) with the
// call's flagged values; selected, the detail shows the response in full
// — text, tool calls with their arguments, usage, stop reason — and
// every value with its verdict, drawn by responseText as the i overlay
// draws it.

// showResponse puts the response of the call on screen in the detail;
// at the same call it keeps the scroll (the suggestions arrive later).
func (d *detailPane) showResponse() {
	call := -1
	if d.s != nil {
		call = d.s.Call
	}
	same := d.response && d.respCall == call
	y := d.vp.YOffset
	d.show(nil)
	d.response, d.respCall = true, call
	text := ""
	if d.respText != nil && call >= 0 {
		text = d.respText(max(1, d.width))
	}
	d.setContent(text)
	d.resize()
	if same {
		d.vp.SetYOffset(y)
	}
}

// responseTitle is the detail's title while it shows the response.
func (d *detailPane) responseTitle() string {
	t := "response"
	if c := d.s.Current(); c != nil {
		t += " of call " + itoa(d.s.Call+1) + " · " + present.Produced(c)
	}
	return t + d.position()
}

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
