package tui

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// foldMin is the shortest stretch of gone turns folded into one row, when
// the list is longer than its pane.
const foldMin = 4

// itemKind is what one line of the turn list is.
type itemKind int

const (
	turnItem     itemKind = iota // one turn
	runItem                      // a separator: run N starts here (never selected)
	foldItem                     // a stretch of gone turns of one run, folded
	responseItem                 // the call's response, last
)

// listItem is one line of the turn list.
type listItem struct {
	kind itemKind
	row  int    // turnItem: index into session.rows; foldItem: its first row
	n    int    // foldItem: how many rows it folds
	run  int    // runItem: the run's index
	fold string // the Key of the first row of the gone stretch this is in ("" when none)
}

// turnList is every turn of the conversation so far at the call on
// screen, one line each, with its fate word, in conversation order; a
// separator opens each run after the first, and in a long list each
// run's stretches of gone turns fold into one row that enter opens.
type turnList struct {
	s       *session.Session
	st      *theme.Styles
	keys    keys.KeyMap
	width   int // inside the frame
	height  int
	cursor  int // index into items; never on a runItem
	offset  int
	focused bool
	// chosen: the user moved the cursor, so it stays on that turn across
	// replays of the same call; a new call always lands it afresh.
	chosen   bool
	hideGone bool            // turns that left at earlier calls are not listed
	expanded map[string]bool // gone stretches opened, by their first row's Key
	items    []listItem
}

func newTurnList(st *theme.Styles, keys keys.KeyMap) *turnList {
	return &turnList{st: st, keys: keys, focused: true, expanded: map[string]bool{}}
}

func (l *turnList) Init() tea.Cmd { return nil }

// SetSize is the size inside the frame. Whether gone turns fold depends
// on the height, so the items are rebuilt.
func (l *turnList) SetSize(w, h int) {
	if w == l.width && h == l.height {
		return
	}
	l.width, l.height = max(0, w), max(0, h)
	l.reselect(l.selectedKey())
}

func (l *turnList) ShortHelp() []key.Binding { return []key.Binding{l.keys.Up, l.keys.Down} }
func (l *turnList) FullHelp() [][]key.Binding {
	return [][]key.Binding{{l.keys.Up, l.keys.Down, l.keys.Expand, l.keys.HideGone}}
}

// Update hides or shows gone turns, opens and closes folds, and moves
// the cursor while focused.
func (l *turnList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
	case key.Matches(km, l.keys.HideGone):
		l.hideGone = !l.hideGone
		l.reselect(l.selectedKey())
	case !l.focused:
	case key.Matches(km, l.keys.Expand):
		l.toggleFold()
	case key.Matches(km, l.keys.Up):
		l.move(-1)
		l.chosen = true
	case key.Matches(km, l.keys.Down):
		l.move(1)
		l.chosen = true
	}
	return l, nil
}

// move steps the cursor by d selectable items.
func (l *turnList) move(d int) {
	i := l.cursor
	for step := 0; step < abs(d); {
		next := i + sign(d)
		if next < 0 || next >= len(l.items) {
			break
		}
		i = next
		if l.items[i].kind != runItem {
			step++
		}
	}
	if i < len(l.items) && l.items[i].kind != runItem {
		l.cursor = i
	}
	l.scroll()
}

// scroll keeps the cursor inside the visible lines, and the separator
// above it when it is the run's first turn.
func (l *turnList) scroll() {
	top := l.cursor
	if top > 0 && l.items[top-1].kind == runItem {
		top--
	}
	if top < l.offset {
		l.offset = top
	}
	if l.height > 0 && l.cursor >= l.offset+l.height {
		l.offset = l.cursor - l.height + 1
	}
	l.offset = max(0, min(l.offset, len(l.items)-l.height))
}

// selected is the turn under the cursor, nil on a fold or when there are
// no turns.
func (l *turnList) selected() *window.Row {
	if l.s == nil || l.cursor < 0 || l.cursor >= len(l.items) || l.items[l.cursor].kind != turnItem {
		return nil
	}
	return l.s.Rows.At(l.items[l.cursor].row)
}

// selectedFold is the fold under the cursor, if it is one.
func (l *turnList) selectedFold() (listItem, bool) {
	if l.cursor < 0 || l.cursor >= len(l.items) || l.items[l.cursor].kind != foldItem {
		return listItem{}, false
	}
	return l.items[l.cursor], true
}

func (l *turnList) selectedKey() string {
	if r := l.selected(); r != nil {
		return r.Key
	}
	return ""
}

// land places the cursor after the call changed, whatever key changed
// it: on the first turn that left at this call, else the first new one,
// else the last turn (goTo keeps it on the response row when it was).
func (l *turnList) land() {
	l.chosen = false
	l.build()
	if !l.cursorTo(func(it listItem) bool { return it.kind == turnItem && leaves(l.s.Rows.At(it.row).Fate) }) &&
		!l.cursorTo(func(it listItem) bool { return it.kind == turnItem && l.s.Rows.At(it.row).Fate == window.FateNew }) {
		l.cursor = len(l.items)
		l.move(-1)
		if l.onResponse() && l.s.Rows.Len() > 0 {
			l.move(-1) // the last turn, not the response row under it
		}
	}
}

// reselect rebuilds the items at the same call (another replay, a fold,
// a size) and puts the cursor back on the turn with key k (or the
// response row) when the user chose it and it is still listed; otherwise
// it lands as on a new call.
func (l *turnList) reselect(k string) {
	chosen, resp := l.chosen, l.onResponse()
	l.build()
	if chosen && resp {
		l.toResponse()
		return
	}
	if k != "" && chosen && l.cursorTo(func(it listItem) bool { return it.kind == turnItem && l.s.Rows.At(it.row).Key == k }) {
		return
	}
	l.land()
	l.chosen = chosen && k != ""
}

// cursorTo moves the cursor to the first item ok accepts.
func (l *turnList) cursorTo(ok func(listItem) bool) bool {
	for i, it := range l.items {
		if ok(it) {
			l.cursor = i
			l.scroll()
			return true
		}
	}
	return false
}

// title counts the turns, those sent (those in the replay's window, where
// it differs from the recorded one), and says when some are hidden.
func (l *turnList) title() string {
	t := "Turns"
	if l.s == nil || l.s.Rows.Len() == 0 {
		return t
	}
	n, sent, gone := l.s.Rows.Len(), l.s.Rows.Sent(), l.s.Rows.Gone()
	// the library sent these only if the replay's window is the one it
	// recorded: where it differs, or the log does not record it (a run's
	// last call at tier minimal), they are the replay's
	if c := l.s.Current(); c != nil && c.Recorded() != window.Match {
		t += fmt.Sprintf(" · %d · %d replayed", n, sent)
		if c.Recorded() == window.Unknown {
			t += " (not in the log)"
		}
	} else {
		t += fmt.Sprintf(" · %d · %d sent", n, sent)
	}
	if l.hideGone {
		t += fmt.Sprintf(" · %d gone hidden", gone)
	}
	return t
}

func (l *turnList) View() string {
	if l.s == nil || len(l.items) == 0 {
		return present.Lines(l.st.Dim.Render("no turns at this call"), l.width, l.height)
	}
	out := make([]string, 0, l.height)
	for i := l.offset; i < len(l.items) && i < l.offset+l.height; i++ {
		out = append(out, l.line(l.items[i], i == l.cursor))
	}
	return present.Lines(strings.Join(out, "\n"), l.width, l.height)
}

// line draws one item.
func (l *turnList) line(it listItem, selected bool) string {
	switch it.kind {
	case runItem:
		label := fmt.Sprintf("── run %d ", it.run)
		return l.st.Label.Render(label + strings.Repeat("─", max(0, l.width-ansi.StringWidth(label))))
	case foldItem:
		first, last := l.s.Rows.At(it.row).LeftAt+1, lastLeft(l.s.Rows, it.row, it.n)+1
		at := fmt.Sprintf("%d", first)
		if last != first {
			at += fmt.Sprintf("–%d", last)
		}
		text := fmt.Sprintf("%s %-7s %d turns left@%s · enter", cursorMark(selected, l.focused), window.FateGone, it.n, at)
		return " " + l.st.Gone.Render(present.Fit(text, l.width-1))
	case responseItem:
		return l.responseLine(selected)
	}
	return l.row(*l.s.Rows.At(it.row), selected)
}

func cursorMark(selected, focused bool) string {
	switch {
	case selected && focused:
		return "▸"
	case selected:
		return "▹"
	}
	return " "
}

// row is one turn: change mark, cursor, fate word, who it is (the tools
// it called or answered, first, as they are what one looks for), what
// the fate word does not say (kept reason, when it left), a preview, and
// its size in chars.
func (l *turnList) row(r window.Row, selected bool) string {
	mark := " "
	if l.s.Changes.Of(r.Key) != "" {
		mark = l.st.Changed.Render("≠")
	}
	fs := l.st.Fate(r.Fate)
	head := mark + cursorMark(selected, l.focused) + " " + fs.Render(fmt.Sprintf("%-7s", r.Fate))
	size := fmt.Sprintf(" %6s", present.Thousands(turnChars(r.Messages)))
	who := termtext.Line(turnWho(r.Messages))
	if tag := termtext.Line(rowTag(r)); tag != "" {
		who += " " + tag
	}
	room := l.width - ansi.StringWidth(head) - len(size) - 1
	who = present.Fit(who, max(0, room))
	body := " " + who
	if rest := room - ansi.StringWidth(who) - 1; rest > 2 {
		body += " " + l.st.Dim.Render(present.Fit(termtext.Line(turnText(r.Messages)), rest))
	}
	switch {
	case r.Fate == window.FateGone:
		body = l.st.Gone.Render(body)
	case selected:
		body = l.st.Title.Render(body)
	}
	return head + present.Pad(body, max(0, room+1)) + l.st.Dim.Render(size)
}

// rowTag names what the fate word alone does not: the refusal that kept
// a turn, when a gone turn left.
func rowTag(r window.Row) string {
	switch r.Fate {
	case window.FateKept:
		if r.Reason == "" {
			return "(not reached)"
		}
		return "(" + r.Reason + ")"
	case window.FateGone:
		return fmt.Sprintf("left@%d", r.LeftAt+1)
	case window.FateSummary:
		if r.Placeholder {
			return "(NOT RECORDED)"
		}
		return "(by a model)"
	}
	return ""
}

// turnWho is who a turn is: the tools it called or answered for, else
// the role of its first message.
func turnWho(msgs []*model.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	if names := present.ToolNames(msgs); len(names) > 0 {
		return strings.Join(names, ",")
	}
	switch {
	case msgs[0].IsFrame():
		return "frame"
	case msgs[0].IsCorrection():
		return "library:" // its correction, sent as a user message
	}
	return msgs[0].Role + ":"
}

// turnText is the first words of the first message that has any.
func turnText(msgs []*model.Message) string {
	for _, m := range msgs {
		c := m.Content
		if len(c) > 400 { // a preview never needs more; keeps frames cheap
			cut := 400 // at a character's start, a lone surrogate kept whole
			for cut > 0 && c[cut]&0xC0 == 0x80 {
				cut--
			}
			c = c[:cut]
		}
		if c = present.OneLine(c); c != "" {
			return c
		}
	}
	return ""
}

func turnChars(msgs []*model.Message) int {
	return model.WindowChars(msgs)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// leaves: the turn left the window at this call (dropped or folded).
func leaves(f window.Fate) bool { return f == window.FateEvicted || f == window.FateFolded }
