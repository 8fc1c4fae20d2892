// Package textpane is an overlay's body: text in a viewport that scrolls
// with the arrows, the pages and the mouse wheel.
package textpane

import (
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/present"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// TextPane is an overlay's body: text in a viewport that scrolls with
// the arrows, the pages and the mouse wheel.
type TextPane struct {
	c             *common.Common
	width, height int
	vp            viewport.Model
	Text          func(w int) string // the content at width w
}

// New is a pane of the text text makes at a width, answering c's keys.
func New(c *common.Common, text func(w int) string) *TextPane {
	vp := viewport.New(0, 0)
	vp.MouseWheelEnabled = true
	return &TextPane{c: c, vp: vp, Text: text}
}

func (p *TextPane) Init() tea.Cmd { return nil }

func (p *TextPane) SetSize(w, h int) {
	if w == p.width && h == p.height {
		return
	}
	p.width, p.height = max(0, w), max(0, h)
	p.vp.Width, p.vp.Height = p.width, p.height
	p.Refresh()
}

func (p *TextPane) ShortHelp() []key.Binding {
	return []key.Binding{p.c.Keys.Turns, p.c.Keys.PageDown, p.c.Keys.Close}
}

func (p *TextPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *TextPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return p, common.Scroll(&p.vp, &p.c.Keys, msg, true)
}

// Refresh rebuilds the text (the replay's problems change with the
// policy) and keeps the scroll position where it can.
func (p *TextPane) Refresh() {
	y := p.vp.YOffset
	p.vp.SetContent(p.Text(max(1, p.width)))
	p.vp.SetYOffset(y)
}

// More says whether the text runs past the bottom of the pane.
func (p *TextPane) More() bool { return !p.vp.AtBottom() }

func (p *TextPane) View() string { return present.Lines(p.vp.View(), p.width, p.height) }

// Top shows the start of the pane's text, rebuilt.
func (p *TextPane) Top() {
	p.Refresh()
	p.vp.GotoTop()
}
