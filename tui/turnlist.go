package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// turnList is every turn of the conversation so far at the call on
// screen, one line each, with its fate word, in conversation order.
type turnList struct {
	s       *session
	st      *Styles
	keys    KeyMap
	width   int // inside the frame
	height  int
	cursor  int
	offset  int
	focused bool
	// chosen: the user moved the cursor, so it follows that turn from
	// call to call; until then it goes to what left at each call.
	chosen   bool
	hideGone bool         // turns that left at earlier calls are not listed
	visible  []window.Row // the session's rows, less the hidden ones
}

func newTurnList(st *Styles, keys KeyMap) *turnList {
	return &turnList{st: st, keys: keys, focused: true}
}

func (l *turnList) Init() tea.Cmd { return nil }

// SetSize is the size inside the frame.
func (l *turnList) SetSize(w, h int) {
	l.width, l.height = max(0, w), max(0, h)
	l.scroll()
}

func (l *turnList) ShortHelp() []key.Binding  { return []key.Binding{l.keys.Up, l.keys.Down} }
func (l *turnList) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

func (l *turnList) rows() []window.Row { return l.visible }

// Update hides or shows gone turns, and moves the cursor while focused.
func (l *turnList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
	case key.Matches(km, l.keys.HideGone):
		l.hideGone = !l.hideGone
		k := ""
		if r := l.selected(); r != nil {
			k = r.Key
		}
		l.reselect(k)
	case !l.focused:
	case key.Matches(km, l.keys.Up):
		l.move(-1)
		l.chosen = true
	case key.Matches(km, l.keys.Down):
		l.move(1)
		l.chosen = true
	}
	return l, nil
}

func (l *turnList) move(d int) {
	l.cursor = max(0, min(l.cursor+d, len(l.rows())-1))
	l.scroll()
}

// scroll keeps the cursor inside the visible lines.
func (l *turnList) scroll() {
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.height > 0 && l.cursor >= l.offset+l.height {
		l.offset = l.cursor - l.height + 1
	}
	l.offset = max(0, min(l.offset, len(l.rows())-l.height))
}

// selected is the row under the cursor, nil when there are none.
func (l *turnList) selected() *window.Row {
	rs := l.rows()
	if l.cursor < 0 || l.cursor >= len(rs) {
		return nil
	}
	return &rs[l.cursor]
}

// reselect places the cursor after the rows changed (another call,
// another replay): on the turn with key k when the user chose it and it
// is still there, else on the first turn that left at this call, else
// on the newest.
func (l *turnList) reselect(k string) {
	l.visible = l.visible[:0]
	if l.s != nil {
		for _, r := range l.s.rows {
			if !l.hideGone || r.Fate != window.FateGone {
				l.visible = append(l.visible, r)
			}
		}
	}
	rs := l.visible
	l.cursor = len(rs) - 1
	found := false
	for i, r := range rs {
		if l.chosen && r.Key == k {
			l.cursor, found = i, true
			break
		}
	}
	if !found {
		for i, r := range rs {
			if r.Fate == window.FateEvicted {
				l.cursor = i
				break
			}
		}
	}
	l.cursor = max(0, l.cursor)
	l.scroll()
}

// title counts the turns, those sent, and says when some are hidden.
func (l *turnList) title() string {
	t := "Turns"
	if l.s == nil || len(l.s.rows) == 0 {
		return t
	}
	sent := 0
	for _, r := range l.s.rows {
		if r.Sent {
			sent++
		}
	}
	t += fmt.Sprintf(" · %d · %d sent", len(l.s.rows), sent)
	if l.hideGone {
		t += fmt.Sprintf(" · %d gone hidden", len(l.s.rows)-len(l.visible))
	}
	return t
}

func (l *turnList) View() string {
	rs := l.rows()
	if len(rs) == 0 {
		return lines(l.st.Dim.Render("no turns at this call"), l.width, l.height)
	}
	out := make([]string, 0, l.height)
	for i := l.offset; i < len(rs) && i < l.offset+l.height; i++ {
		out = append(out, l.row(rs[i], i == l.cursor))
	}
	return lines(strings.Join(out, "\n"), l.width, l.height)
}

// row is one turn: change mark, cursor, fate word, its detail (pin tool,
// kept reason, when it left), a preview, and its size in chars.
func (l *turnList) row(r window.Row, selected bool) string {
	mark, cur := " ", " "
	if l.s.changes.of(r.Key) != "" {
		mark = l.st.Changed.Render("≠")
	}
	if selected {
		cur = "▸"
		if !l.focused {
			cur = "▹"
		}
	}
	fs := l.st.Fate(r.Fate)
	head := mark + cur + " " + fs.Render(fmt.Sprintf("%-7s", r.Fate))
	size := fmt.Sprintf(" %6s", thousands(turnChars(r.Messages)))
	if tag := termtext.Line(rowTag(r)); tag != "" {
		// the tag may take what is left but a little preview
		head += " " + fs.Render(fit(tag, l.width-ansi.StringWidth(head)-len(size)-4))
	}
	room := l.width - ansi.StringWidth(head) - len(size) - 1
	body := " " + fit(termtext.Line(turnPreview(r.Messages)), max(0, room))
	text := body
	switch {
	case r.Fate == window.FateGone:
		text = l.st.Gone.Render(body)
	case selected:
		text = l.st.Title.Render(body)
	}
	return head + pad(text, max(0, room+1)) + l.st.Dim.Render(size)
}

// rowTag names what the fate word alone does not: the pinned tool, the
// refusal that kept a turn, when a gone turn left.
func rowTag(r window.Row) string {
	switch r.Fate {
	case window.FatePinned:
		return r.PinTool
	case window.FateKept:
		if r.Reason == "" {
			return "not reached"
		}
		return r.Reason
	case window.FateGone:
		return fmt.Sprintf("left@%d", r.LeftAt+1)
	}
	return ""
}

// turnPreview is a turn in a few words: who spoke and which tools it
// called, then the first words of the first message that has any.
func turnPreview(msgs []*model.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	who := msgs[0].Role + ":"
	if names := toolNames(msgs); len(names) > 0 {
		who = msgs[0].Role + "→" + strings.Join(names, ",")
	}
	for _, m := range msgs {
		c := m.Content
		if len(c) > 400 { // a preview never needs more; keeps frames cheap
			c = strings.ToValidUTF8(c[:400], "")
		}
		if c = oneLine(c); c != "" {
			return who + " " + c
		}
	}
	return who
}

func turnChars(msgs []*model.Message) int {
	return model.WindowChars(msgs)
}
