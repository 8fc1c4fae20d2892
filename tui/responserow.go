package tui

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// The response row — the model's output, on the call that produced it,
// not only in the next call's window: the last row of every call's turn list is what the model answered on that
// call. Its line says it in a few words (provenance.Produced) with the
// call's flagged values; selected, the detail shows the response in full
// — text, tool calls with their arguments, usage, stop reason — and
// every value with its verdict, drawn by responseText as the i overlay
// draws it.

// responseWord is the response row's word in the fate column.
const responseWord = "response"

// onResponse reports whether the cursor is on the response row.
func (l *turnList) onResponse() bool {
	return l.cursor >= 0 && l.cursor < len(l.items) && l.items[l.cursor].kind == responseItem
}

// toResponse puts the cursor on the response row.
func (l *turnList) toResponse() {
	l.chosen = true
	l.cursorTo(func(it listItem) bool { return it.kind == responseItem })
}

// responseLine draws the response row: the word, what the call produced,
// what became of it when it is an answer, and its flagged values,
// counted: the answer's, then the arguments'.
func (l *turnList) responseLine(selected bool) string {
	st := l.st
	head := " " + cursorMark(selected, l.focused) + " " + st.Response.Render(responseWord)
	c := l.s.Current()
	if c == nil {
		return head
	}
	what := produced(c)
	if o := l.s.Outcomes[c.Call]; o != "" {
		what += " · " + present.OutcomeWord(o) // first: a refused answer reached no one
	}
	if c.Run.Composition {
		what += " · the composition's result"
	}
	t := l.s.JudgedCounts(l.s.Call)
	if t.Answer.Total() > 0 {
		what += " · " + present.TallyWords(t.Answer, nil)
	}
	if t.Args.Total() > 0 {
		what += " · args: " + present.TallyWords(t.Args, nil)
	}
	room := max(0, l.width-ansi.StringWidth(head)-1)
	body := present.Fit(what, room)
	if selected {
		body = st.Title.Render(body)
	}
	return head + " " + body
}

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
		t += " of call " + itoa(d.s.Call+1) + " · " + produced(c)
	}
	return t + d.position()
}

// responseMessages is the response of the call on screen as the one
// assistant message it is, for the pager (o) and the clipboard (y); nil
// when the cursor is not on the response row.
func (m Model) responseMessages() []*model.Message {
	c := m.s.Current()
	if c == nil || !m.list.onResponse() {
		return nil
	}
	r := c.Call.Facts.Response
	return []*model.Message{{Role: model.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}}
}

// produced is what the call produced, in a few words (provenance.Produced),
// or that it failed with no reply.
func produced(c *window.CallReplay) string {
	if present.FailedCall(c) {
		return "no reply: the call failed"
	}
	return termtext.Line(provenance.Produced(c.Call))
}
