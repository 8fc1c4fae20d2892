package tui

import (
	"strings"

	"github.com/afinspect/inspect/termtext"
)

// The root model's layout: where each component goes on the screen,
// and the frame drawn from them.

// showTimeline: the timeline takes three lines, when the terminal has
// room for them and the recording is on screen.
func (m Model) showTimeline() bool {
	return m.s != nil && m.s.calls() > 0 && m.height >= 20
}

// timelineTop is the screen line the timeline starts on.
func (m Model) timelineTop() int { return headerHeight }

// paneTop is the screen line the panes' frames start on.
func (m Model) paneTop() int {
	if m.showTimeline() {
		return headerHeight + timelineHeight
	}
	return headerHeight
}

// paneHeight is the height of the panes, frames included.
func (m Model) paneHeight() int {
	return max(0, m.height-m.paneTop()-m.bar.height()-1)
}

// layout sizes every component for the terminal.
func (m *Model) layout() {
	w := m.width
	m.header.SetSize(w, headerHeight)
	m.bar.SetSize(w, 0)
	m.help.Width = w
	m.timeline.SetSize(w, timelineHeight)
	m.search.SetSize(w, 1)
	paneH := m.paneHeight()
	w -= m.convColumn() // the conversations' column takes the left, when shown
	listW := max(30, w*2/5)
	if listW > w-24 {
		listW = w / 2
	}
	m.list.SetSize(listW-2, paneH-2)
	m.detail.SetSize(w-listW-2, paneH-2)
	ow, oh := m.width-2, paneH-2
	m.problems.SetSize(ow, oh)
	m.keyhelp.SetSize(ow, oh)
	m.picker.SetSize(ow, oh)
	m.trans.SetSize(ow, oh)
	// the response and the recorded window rebuild their text when sized
	// (judging, rendering a window that may hold a 6.7 MB result): only
	// while open, not on every resize
	switch m.overlay {
	case recordedOverlay:
		m.recWin.SetSize(ow, oh)
	case responseOverlay:
		m.resp.SetSize(ow, oh)
	}
	m.bar.spin = m.spin.View()
	m.header.loading = ""
	if m.s == nil {
		m.header.loading = m.spin.View()
	}
	m.header.stream = m.stream
	m.header.note = m.fileNote()
}

func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return "" // no size yet: the first WindowSizeMsg is on its way
	}
	if m.quitting {
		return "" // a frame drawn as the screen is given back stays behind
	}
	if f, ok := m.heldFrame(); ok {
		return f
	}
	parts := []string{m.header.View()}
	if m.showTimeline() {
		parts = append(parts, m.timeline.View())
	}
	parts = append(parts, m.panes(m.paneHeight()))
	if m.s != nil {
		parts = append(parts, m.bar.View())
	}
	parts = append(parts, m.footer())
	// every printer sanitized its text; Frame is the guard behind them
	return m.drawn(termtext.Frame(lines(strings.Join(parts, "\n"), m.width, m.height)))
}

// panes is the middle of the screen: the turn list and the detail side
// by side, or the overlay that covers them.
func (m Model) panes(h int) string {
	w := m.width
	switch {
	case m.s == nil:
		return lines("", w, h)
	case m.overlay == helpOverlay:
		return box(m.st, "Keys (?, q or esc closes; G the end)"+moreMark(m.keyhelp), m.keyhelp.View(), w, h, true)
	case m.overlay == problemsOverlay:
		return box(m.st, "Problems (!, q or esc closes)"+moreMark(m.problems), m.problems.View(), w, h, true)
	case m.overlay == transcriptOverlay:
		return box(m.st, m.trans.title(m.s), m.trans.View(), w, h, true)
	case m.overlay == recordedOverlay:
		return box(m.st, "Recorded window beside the replay (←/→ call, W, q or esc closes)"+moreMark(m.recWin), m.recWin.View(), w, h, true)
	case m.overlay == pickerOverlay:
		return box(m.st, "Agents, conversations and runs (↑/↓ choose, enter opens, w, q or esc closes)"+moreMark(m.picker), m.picker.View(), w, h, true)
	case m.overlay == responseOverlay:
		return box(m.st, "Response of call "+itoa(m.s.call+1)+" — its values and why (i, q or esc closes; knobs replay)"+moreMark(m.resp), m.resp.View(), w, h, true)
	}
	listW := m.list.width + 2
	cw := m.convColumn()
	left := box(m.st, m.list.title(), m.list.View(), listW, h, m.list.focused)
	right := box(m.st, m.detail.title(), m.detail.View(), w-cw-listW, h, m.detail.focused)
	panes := joinColumns(left, right)
	if cw > 0 {
		col := box(m.st, "Conversations (w)", convColumnText(m.s.views, m.st, cw-2), cw, h, false)
		panes = joinColumns(col, panes)
	}
	return panes
}

func moreMark(p *textPane) string {
	if p.more() {
		return " · ↓ more"
	}
	return ""
}

// footer is the short help, or the go-to-call prompt while it is open.
func (m Model) footer() string {
	if m.prompt {
		p := m.st.Title.Render(m.promptText()) + m.digits + "▏  "
		return p + m.help.ShortHelpView(m.keys.promptHelp())
	}
	if m.flash != "" {
		return m.st.Unknown.Render(m.flash)
	}
	if m.search.active() {
		return m.search.View()
	}
	if m.mouseOff {
		return m.st.Title.Render("mouse off: select text with it; m takes it back") + "  " + m.help.ShortHelpView(m.keys.ShortHelp())
	}
	return m.help.ShortHelpView(m.keys.ShortHelp())
}

// joinColumns puts two blocks of equal height side by side.
func joinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	out := make([]string, max(len(al), len(bl)))
	for i := range out {
		if i < len(al) {
			out[i] = al[i]
		}
		if i < len(bl) {
			out[i] += bl[i]
		}
	}
	return strings.Join(out, "\n")
}
