package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/detail"
	"github.com/afinspect/inspect/tui/components/header"
	"github.com/afinspect/inspect/tui/components/picker"
	"github.com/afinspect/inspect/tui/components/textpane"
	"github.com/afinspect/inspect/tui/components/timeline"
	"github.com/afinspect/inspect/tui/present"
)

// The root model's layout: where each component goes on the screen,
// and the frame drawn from them.

// showTimeline: the timeline takes three lines, when the terminal has
// room for them and the recording is on screen.
func (m Model) showTimeline() bool {
	if m.overlay == advisorOverlay && m.height < 32 {
		return false // a small terminal gives its lines to the advisor's chart and table
	}
	return m.s != nil && m.s.Calls() > 0 && m.height >= 20
}

// timelineTop is the screen line the timeline starts on.
func (m Model) timelineTop() int { return header.Height }

// paneTop is the screen line the panes' frames start on.
func (m Model) paneTop() int {
	return m.requestTop() + requestHeight*boolInt(m.showRequest())
}

// requestTop is the screen line of the request line (components/detail/request.go).
func (m Model) requestTop() int {
	if m.showTimeline() {
		return header.Height + timeline.Height
	}
	return header.Height
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// paneHeight is the height of the panes, frames included.
func (m Model) paneHeight() int {
	return max(0, m.height-m.paneTop()-m.bar.Height()-1)
}

// layout sizes every component for the terminal.
func (m Model) layout() Model {
	w := m.width
	m.header.SetSize(w, header.Height)
	m.bar.SetSize(w, 0)
	m.help.Width = w
	m.timeline.SetSize(w, timeline.Height)
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
	m.adv.SetSize(ow, oh)
	// the response and the recorded window rebuild their text when sized
	// (judging, rendering a window that may hold a 6.7 MB result): only
	// while open, not on every resize
	switch m.overlay {
	case recordedOverlay:
		m.recWin.SetSize(ow, oh)
	case changedOverlay:
		m.sinceWin.SetSize(ow, oh)
	case responseOverlay:
		m.resp.SetSize(ow, oh)
	}
	m.bar.Spin = m.spin.View()
	loading, stream := "", ""
	if m.s == nil {
		loading = m.spin.View()
	}
	if m.stream != nil {
		stream = m.stream.line(m.st)
	}
	m.header.SetStatus(loading, stream, m.fileNote())
	return m
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
	// Every printer made its recording text safe, so the only escapes in
	// the screen are the style sheet's and each part has the lines it
	// was given: Frame shows whatever slipped past a printer, and a
	// screen it had to change is cut to the terminal again (a
	// placeholder is wider than the character it stands for).
	s := m.screen()
	if f := m.st.Palette().Frame(s); f != s {
		s = present.Lines(f, m.width, m.height)
	}
	return m.drawn(s)
}

// screen is the frame as the components drew it, before the last guard
// (View): each part on the lines it was given, cut to the terminal.
func (m Model) screen() string {
	ps := m.parts()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = part(p.text, p.lines)
	}
	return present.Lines(strings.Join(out, "\n"), m.width, m.height)
}

// screenPart is what one component drew and the lines it is given.
type screenPart struct {
	text  string
	lines int
}

// parts are the screen's parts, top to bottom.
func (m Model) parts() []screenPart {
	var ps []screenPart
	add := func(s string, n int) {
		if n > 0 {
			ps = append(ps, screenPart{s, n})
		}
	}
	add(m.header.View(), header.Height)
	if m.showTimeline() {
		add(m.timeline.View(), timeline.Height)
	}
	if m.showRequest() {
		add(detail.RequestLine(m.s, m.st, m.width), requestHeight)
	}
	h := m.paneHeight()
	add(m.panes(h), h)
	if m.s != nil {
		add(m.bar.View(), m.bar.Height())
	}
	add(m.footer(), 1)
	return ps
}

// part is s on exactly n lines: a line too many (a newline a printer let
// through) cannot push the parts below it down, nor one too few pull
// them up.
func part(s string, n int) string {
	if c := strings.Count(s, "\n") + 1; c > n {
		i := 0
		for range n {
			i += strings.IndexByte(s[i:], '\n') + 1
		}
		return s[:i-1]
	} else if c < n {
		return s + strings.Repeat("\n", n-c)
	}
	return s
}

// panes is the middle of the screen: the turn list and the detail side
// by side, or the overlay that covers them.
func (m Model) panes(h int) string {
	w := m.width
	switch {
	case m.s == nil:
		return present.Lines("", w, h)
	case m.overlay == helpOverlay:
		return common.Box(m.st, "Keys (?, q or esc closes; G the end)"+moreMark(m.keyhelp), m.keyhelp.View(), w, h, true)
	case m.overlay == problemsOverlay:
		return common.Box(m.st, "Problems (!, q or esc closes)"+moreMark(m.problems), m.problems.View(), w, h, true)
	case m.overlay == transcriptOverlay:
		return common.Box(m.st, m.trans.Title(m.s), m.trans.View(), w, h, true)
	case m.overlay == recordedOverlay:
		return common.Box(m.st, "Recorded window beside the replay (←/→ call, W, q or esc closes)"+moreMark(m.recWin), m.recWin.View(), w, h, true)
	case m.overlay == changedOverlay:
		return common.Box(m.st, "What changed since the previous call (←/→ call, u, q or esc closes)"+moreMark(m.sinceWin), m.sinceWin.View(), w, h, true)
	case m.overlay == pickerOverlay:
		more := ""
		if m.picker.More() {
			more = " · ↓ more"
		}
		return common.Box(m.st, "Agents, conversations and runs (↑/↓ g/G choose, → its runs, / filter, enter opens, w, q or esc closes)"+more, m.picker.View(), w, h, true)
	case m.overlay == advisorOverlay:
		return common.Box(m.st, m.adv.Title(), m.adv.View(), w, h, true)
	case m.overlay == responseOverlay:
		return common.Box(m.st, "Response of call "+itoa(m.s.Call+1)+" — its values and why (i, q or esc closes; knobs replay)"+moreMark(m.resp), m.resp.View(), w, h, true)
	}
	listW := m.list.Width + 2
	cw := m.convColumn()
	left := common.Box(m.st, m.list.Title(), m.list.View(), listW, h, m.list.Focused)
	right := common.Box(m.st, m.detail.Title(), m.detail.View(), w-cw-listW, h, m.detail.Focused)
	panes := present.JoinColumns(left, right)
	if cw > 0 {
		col := common.Box(m.st, "Conversations (w)", picker.ColumnText(m.s.Views, m.st, cw-2, h-2), cw, h, false)
		panes = present.JoinColumns(col, panes)
	}
	return panes
}

func moreMark(p *textpane.TextPane) string {
	if p.More() {
		return " · ↓ more"
	}
	return ""
}

// footer is the short help, or the go-to-call prompt while it is open.
func (m Model) footer() string {
	if m.prompt {
		p := m.st.Title.Render(m.promptText()) + m.digits + "▏  "
		return p + m.help.ShortHelpView(m.keys.PromptHelp())
	}
	if m.flash != "" {
		// an answer to a key names tools, ids and values of the recording
		return m.st.Unknown.Render(termtext.Line(m.flash))
	}
	if m.search.Active() {
		return m.search.View()
	}
	if m.mouseOff {
		note := m.st.Title.Render("mouse off: select text with it; M takes it back") + "  "
		h := m.help
		h.Width = max(0, h.Width-ansi.StringWidth(note))
		return note + h.ShortHelpView(hints(h, m.keys.ShortHelp(), m.keys.Help, m.keys.Quit, h.Width))
	}
	return m.help.ShortHelpView(hints(m.help, m.keys.ShortHelp(), m.keys.Help, m.keys.Quit, m.help.Width))
}

// hints are the short help's keys for a line w wide: all of them when
// the line reaches "? help" and "q quit" (the help model cuts what comes
// after), else without the keys just before them, the nearest first,
// until it does: on a narrow terminal the line still says how to ask
// for the rest.
func hints(h help.Model, all []key.Binding, helpKey, quit key.Binding, w int) []key.Binding {
	last := -1
	for i, b := range all {
		if same(b, helpKey) || same(b, quit) {
			last = i
		}
	}
	if last < 0 || w <= 0 {
		return all
	}
	h.Width = 0 // measured whole
	width := func(bs []key.Binding) int { return ansi.StringWidth(h.ShortHelpView(bs)) }
	head := append([]key.Binding{}, all[:last+1]...)
	for width(head) > w {
		drop := -1
		for i := len(head) - 1; i >= 0; i-- {
			if !same(head[i], helpKey) && !same(head[i], quit) {
				drop = i
				break
			}
		}
		if drop < 0 {
			break
		}
		head = append(head[:drop], head[drop+1:]...)
	}
	if len(head) == last+1 {
		return all
	}
	return append(head, all[last+1:]...)
}

// same reports whether two bindings are one entry (the same keys).
func same(a, b key.Binding) bool {
	ak, bk := a.Keys(), b.Keys()
	if len(ak) != len(bk) {
		return false
	}
	for i := range ak {
		if ak[i] != bk[i] {
			return false
		}
	}
	return a.Help() == b.Help()
}

// A knob key on a long run starts a replay that takes tens of ms at
// call 50,000. The frame of the key itself would say
// "replaying…" over the screen before it, and drawing it (a millisecond
// or more at 200×50) took a core from the replay's two goroutines just
// as they started. So that frame is the one before, unchanged: the
// policy bar still names the policy the screen shows, and nothing on it
// is new. The replay's own frame follows it; if the replay takes longer
// than spinStart, the spinner's first tick draws "replaying…" (any other
// message draws its own frame too).

// lastFrame is the last frame View drew, at its size.
type lastFrame struct {
	s             string
	width, height int
}

// heldFrame is the frame before, when this update only started a replay
// and the terminal has the size it was drawn at.
func (m Model) heldFrame() (string, bool) {
	f := m.frame
	if !m.hold || f == nil || f.s == "" || f.width != m.width || f.height != m.height {
		return "", false
	}
	return f.s, true
}

// drawn notes s as the last frame drawn, and returns it.
func (m Model) drawn(s string) string {
	if m.frame != nil {
		m.frame.s, m.frame.width, m.frame.height = s, m.width, m.height
	}
	return s
}
