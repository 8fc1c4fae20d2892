package transcript

import (
	"fmt"
	"strconv"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// Transcript is the whole window of one call as the model read it: every
// message the library sent, in order, numbered, in one scrollable pane
// the width of the screen. It is rendered in a tea.Cmd.
type Transcript struct {
	c             *common.Common
	width, height int
	Vp            viewport.Model
	Call          int // the call shown; -1 before the first
	gen           int // counts renders; only the latest answer is used
	Busy          bool
	Raw           string // the rendered text, before search hits are marked
	mark          string
}

// New is the transcript drawn from c.
func New(c *common.Common) *Transcript {
	vp := viewport.New(0, 0)
	vp.MouseWheelEnabled = true
	return &Transcript{c: c, Vp: vp, Call: -1}
}

func (t *Transcript) Init() tea.Cmd { return nil }

func (t *Transcript) SetSize(w, h int) {
	t.width, t.height = max(0, w), max(0, h)
	t.Vp.Width, t.Vp.Height = t.width, t.height
	t.Vp.SetYOffset(t.Vp.YOffset)
}

func (t *Transcript) ShortHelp() []key.Binding {
	return []key.Binding{t.c.Keys.Calls, t.c.Keys.PageDown, t.c.Keys.Pager, t.c.Keys.Transcript}
}
func (t *Transcript) FullHelp() [][]key.Binding {
	k := t.c.Keys
	return [][]key.Binding{{k.Transcript, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Pager}}
}

// Update scrolls.
func (t *Transcript) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return t, common.Scroll(&t.Vp, &t.c.Keys, msg, true)
}

// Msg is sent by transcriptCmd with a call's window rendered.
type Msg struct {
	gen, Call int
	text      string
}

// Show asks for call c's window at the pane's width; the screen says it
// is being rendered until the answer comes.
func (t *Transcript) Show(c *window.CallReplay) tea.Cmd {
	if c == nil {
		return nil
	}
	t.gen++
	t.Call, t.Busy = c.Index, true
	if provenance.Unjudged(c) {
		t.Busy = false
		t.setText(t.c.Styles.Unknown.Render(present.UnknownWindow))
		return nil
	}
	t.setText(t.c.Styles.Dim.Render("rendering the window of call " + strconv.Itoa(c.Index+1) + "…"))
	w := c.Window()
	for _, m := range w {
		m.Chars() // measured on the UI's goroutine, as renderCmd does
	}
	gen, st, width := t.gen, t.c.Styles, max(1, t.width)
	return func() tea.Msg {
		return Msg{gen: gen, Call: c.Index, text: present.RenderWindow(st, w, width)}
	}
}

// Rendered takes a render, when it is the latest asked for.
func (t *Transcript) Rendered(msg Msg) {
	if msg.gen != t.gen {
		return
	}
	t.Busy = false
	t.setText(msg.text)
	t.Vp.GotoTop()
}

func (t *Transcript) setText(s string) {
	t.Raw = s
	t.Vp.SetContent(present.MarkHits(t.c.Styles, s, t.mark))
}

func (t *Transcript) SetMark(q string) {
	if q != t.mark {
		t.mark = q
		y := t.Vp.YOffset
		t.Vp.SetContent(present.MarkHits(t.c.Styles, t.Raw, q))
		t.Vp.SetYOffset(y)
	}
}

// Title names the call and where in the text the view is.
func (t *Transcript) Title(s *session.Session) string {
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
	if n := t.Vp.TotalLineCount(); n > t.Vp.Height && t.Vp.Height > 0 {
		title += fmt.Sprintf(" · lines %d–%d of %d", t.Vp.YOffset+1, min(n, t.Vp.YOffset+t.Vp.Height), n)
	}
	return title
}

func (t *Transcript) View() string { return present.Lines(t.Vp.View(), t.width, t.height) }
