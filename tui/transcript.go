package tui

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// transcript is the whole window of one call as the model read it: every
// message the library sent, in order, numbered, in one scrollable pane
// the width of the screen. It is rendered in a tea.Cmd.
type transcript struct {
	st            *theme.Styles
	keys          keys.KeyMap
	width, height int
	vp            viewport.Model
	call          int // the call shown; -1 before the first
	gen           int // counts renders; only the latest answer is used
	busy          bool
	raw           string // the rendered text, before search hits are marked
	mark          string
}

func newTranscript(st *theme.Styles, keys keys.KeyMap) *transcript {
	vp := viewport.New(0, 0)
	vp.MouseWheelEnabled = true
	return &transcript{st: st, keys: keys, vp: vp, call: -1}
}

func (t *transcript) Init() tea.Cmd { return nil }

func (t *transcript) SetSize(w, h int) {
	t.width, t.height = max(0, w), max(0, h)
	t.vp.Width, t.vp.Height = t.width, t.height
	t.vp.SetYOffset(t.vp.YOffset)
}

func (t *transcript) ShortHelp() []key.Binding {
	return []key.Binding{t.keys.Calls, t.keys.PageDown, t.keys.Pager, t.keys.Transcript}
}
func (t *transcript) FullHelp() [][]key.Binding {
	k := t.keys
	return [][]key.Binding{{k.Transcript, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Pager}}
}

// Update scrolls.
func (t *transcript) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return t, scroll(&t.vp, &t.keys, msg, true)
}

// transcriptMsg is sent by transcriptCmd with a call's window rendered.
type transcriptMsg struct {
	gen, call int
	text      string
}

// show asks for call c's window at the pane's width; the screen says it
// is being rendered until the answer comes.
func (t *transcript) show(c *window.CallReplay) tea.Cmd {
	if c == nil {
		return nil
	}
	t.gen++
	t.call, t.busy = c.Index, true
	if provenance.Unjudged(c) {
		t.busy = false
		t.setText(t.st.Unknown.Render(unknownWindow))
		return nil
	}
	t.setText(t.st.Dim.Render("rendering the window of call " + itoa(c.Index+1) + "…"))
	w := c.Window()
	for _, m := range w {
		m.Chars() // measured on the UI's goroutine, as renderCmd does
	}
	gen, st, width := t.gen, t.st, max(1, t.width)
	return func() tea.Msg {
		return transcriptMsg{gen: gen, call: c.Index, text: renderWindow(st, w, width)}
	}
}

// rendered takes a render, when it is the latest asked for.
func (t *transcript) rendered(msg transcriptMsg) {
	if msg.gen != t.gen {
		return
	}
	t.busy = false
	t.setText(msg.text)
	t.vp.GotoTop()
}

func (t *transcript) setText(s string) {
	t.raw = s
	t.vp.SetContent(markHits(t.st, s, t.mark))
}

func (t *transcript) setMark(q string) {
	if q != t.mark {
		t.mark = q
		y := t.vp.YOffset
		t.vp.SetContent(markHits(t.st, t.raw, q))
		t.vp.SetYOffset(y)
	}
}

// title names the call and where in the text the view is.
func (t *transcript) title(s *session.Session) string {
	c := s.Current()
	if c == nil {
		return "Transcript"
	}
	w := c.Window()
	what := "the window as the model read it"
	switch {
	case provenance.Unjudged(c):
		what = "its window is not in the log"
	case c.Recorded() == window.Differs:
		what = "the replay's window, not the one the library sent (W)"
	case c.Recorded() == window.Unknown:
		what = "the replay's window; the log does not record what was sent"
	}
	title := fmt.Sprintf("Transcript of call %d · %s · %s, %s chars (v, q or esc closes)",
		c.Index+1, what, present.Plural(len(w), "msg"), present.Thousands(model.WindowChars(w)))
	if provenance.Unjudged(c) {
		title = fmt.Sprintf("Transcript of call %d · %s (v, q or esc closes)", c.Index+1, what)
	}
	if n := t.vp.TotalLineCount(); n > t.vp.Height && t.vp.Height > 0 {
		title += fmt.Sprintf(" · lines %d–%d of %d", t.vp.YOffset+1, min(n, t.vp.YOffset+t.vp.Height), n)
	}
	return title
}

func (t *transcript) View() string { return present.Lines(t.vp.View(), t.width, t.height) }

// renderWindow is every message of a window, numbered, in order.
func renderWindow(st *theme.Styles, w []*model.Message, width int) string {
	if len(w) == 0 {
		return st.Dim.Render("the window of this call is empty")
	}
	parts := make([]string, len(w))
	for i, m := range w {
		parts[i] = st.Title.Render(fmt.Sprintf("#%d", i+1)) + "\n" + present.RenderMessage(st, m, width)
	}
	return strings.Join(parts, "\n\n")
}
