package common

import (
	"github.com/afinspect/inspect/tui/keys"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// Scroll moves vp as msg says: the mouse wheel, a scroll key by a page
// or half a page, and, when lines (the pane has the keys to itself: it
// is focused, or an overlay), by a line or to either end. Other messages
// move nothing.
func Scroll(vp *viewport.Model, k *keys.KeyMap, msg tea.Msg, lines bool) tea.Cmd {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		var cmd tea.Cmd
		*vp, cmd = vp.Update(msg)
		return cmd
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, k.PageUp):
			vp.PageUp()
		case key.Matches(msg, k.PageDown):
			vp.PageDown()
		case key.Matches(msg, k.HalfUp):
			vp.HalfPageUp()
		case key.Matches(msg, k.HalfDown):
			vp.HalfPageDown()
		case !lines:
		case key.Matches(msg, k.Top):
			vp.GotoTop()
		case key.Matches(msg, k.Bottom):
			vp.GotoBottom()
		case key.Matches(msg, k.Up):
			vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			vp.ScrollDown(1)
		}
	}
	return nil
}
