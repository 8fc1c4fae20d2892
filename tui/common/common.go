// Package common is what every component of the screen is given and
// meets: the style sheet, the keys and the session in one Common; the
// Component interface; the frame a pane is drawn in.
package common

import (
	"strings"

	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Common is what every component reads: one style sheet, one key map,
// and the session on screen (nil until the recording is loaded). The
// root holds it and is the only one that changes it; each component is
// given the same one, so a new session reaches them all at once.
type Common struct {
	Styles  *theme.Styles
	Keys    keys.KeyMap
	Session *session.Session
}

// Component is one area of the screen: a tea.Model that is told its size
// and says which keys it answers.
type Component interface {
	tea.Model
	SetSize(width, height int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// Border glyphs: a focused pane has a thick frame, so focus shows
// without colour too.
var (
	thinFrame  = [6]string{"╭", "╮", "╰", "╯", "─", "│"}
	thickFrame = [6]string{"┏", "┓", "┗", "┛", "━", "┃"}
)

// Box frames body (already at most w-2 columns wide) in a w×h border
// with title set into the top edge.
func Box(st *theme.Styles, title, body string, w, h int, focused bool) string {
	if w < 4 || h < 2 {
		return ""
	}
	f, bs := thinFrame, st.Border
	if focused {
		f, bs = thickFrame, st.BorderFocused
	}
	inner := w - 2
	title = present.Fit(" "+title+" ", inner-1)
	top := bs.Render(f[0]+f[4]) + st.Title.Render(title) + bs.Render(strings.Repeat(f[4], max(0, inner-1-ansi.StringWidth(title)))+f[1])
	lines := strings.Split(body, "\n")
	out := make([]string, 0, h)
	out = append(out, top)
	side := bs.Render(f[5])
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, side+present.Pad(l, inner)+side)
	}
	out = append(out, bs.Render(f[2]+strings.Repeat(f[4], inner)+f[3]))
	return strings.Join(out, "\n")
}
