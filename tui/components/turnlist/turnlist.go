package turnlist

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// FoldMin is the shortest stretch of gone turns folded into one row, when
// the list is longer than its pane.
const FoldMin = 4

// ItemKind is what one line of the turn list is.
type ItemKind int

const (
	TurnItem     ItemKind = iota // one turn
	RunItem                      // a separator: run N starts here (never selected)
	FoldItem                     // a stretch of gone turns of one run, folded
	ResponseItem                 // the call's response, last
)

// Item is one line of the turn list.
type Item struct {
	Kind ItemKind
	Row  int    // turnItem: index into session.rows; foldItem: its first row
	N    int    // foldItem: how many rows it folds
	Run  int    // runItem: the run's index
	fold string // the Key of the first row of the gone stretch this is in ("" when none)
}

// TurnList is every turn of the conversation so far at the call on
// screen, one line each, with its fate word, in conversation order; a
// separator opens each run after the first, and in a long list each
// run's stretches of gone turns fold into one row that enter opens.
type TurnList struct {
	c       *common.Common
	Width   int // inside the frame
	height  int
	Cursor  int // index into items; never on a runItem
	offset  int
	Focused bool
	// chosen: the user moved the cursor, so it stays on that turn across
	// replays of the same call; a new call always lands it afresh.
	Chosen   bool
	hideGone bool            // turns that left at earlier calls are not listed
	expanded map[string]bool // gone stretches opened, by their first row's Key
	Items    []Item
}

// New is the turn list drawn from c.
func New(c *common.Common) *TurnList {
	return &TurnList{c: c, Focused: true, expanded: map[string]bool{}}
}

func (l *TurnList) Init() tea.Cmd { return nil }

// SetSize is the size inside the frame. Whether gone turns fold depends
// on the height, so the items are rebuilt.
func (l *TurnList) SetSize(w, h int) {
	if w == l.Width && h == l.height {
		return
	}
	l.Width, l.height = max(0, w), max(0, h)
	l.Reselect(l.SelectedKey())
}

func (l *TurnList) ShortHelp() []key.Binding { return []key.Binding{l.c.Keys.Up, l.c.Keys.Down} }
func (l *TurnList) FullHelp() [][]key.Binding {
	return [][]key.Binding{{l.c.Keys.Up, l.c.Keys.Down, l.c.Keys.Expand, l.c.Keys.HideGone}}
}

// Update hides or shows gone turns, opens and closes folds, and moves
// the cursor while focused.
func (l *TurnList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
	case key.Matches(km, l.c.Keys.HideGone):
		l.hideGone = !l.hideGone
		l.Reselect(l.SelectedKey())
	case !l.Focused:
	case key.Matches(km, l.c.Keys.Expand):
		l.toggleFold()
	case key.Matches(km, l.c.Keys.Up):
		l.move(-1)
		l.Chosen = true
	case key.Matches(km, l.c.Keys.Down):
		l.move(1)
		l.Chosen = true
	}
	return l, nil
}

// move steps the cursor by d selectable items.
func (l *TurnList) move(d int) {
	i := l.Cursor
	for step := 0; step < abs(d); {
		next := i + present.Sign(d)
		if next < 0 || next >= len(l.Items) {
			break
		}
		i = next
		if l.Items[i].Kind != RunItem {
			step++
		}
	}
	if i < len(l.Items) && l.Items[i].Kind != RunItem {
		l.Cursor = i
	}
	l.scroll()
}

// scroll keeps the cursor inside the visible lines, and the separator
// above it when it is the run's first turn.
func (l *TurnList) scroll() {
	top := l.Cursor
	if top > 0 && l.Items[top-1].Kind == RunItem {
		top--
	}
	if top < l.offset {
		l.offset = top
	}
	if l.height > 0 && l.Cursor >= l.offset+l.height {
		l.offset = l.Cursor - l.height + 1
	}
	l.offset = max(0, min(l.offset, len(l.Items)-l.height))
}

// Selected is the turn under the cursor, nil on a fold or when there are
// no turns.
func (l *TurnList) Selected() *window.Row {
	if l.c.Session == nil || l.Cursor < 0 || l.Cursor >= len(l.Items) || l.Items[l.Cursor].Kind != TurnItem {
		return nil
	}
	return l.c.Session.Rows.At(l.Items[l.Cursor].Row)
}

// SelectedFold is the fold under the cursor, if it is one.
func (l *TurnList) SelectedFold() (Item, bool) {
	if l.Cursor < 0 || l.Cursor >= len(l.Items) || l.Items[l.Cursor].Kind != FoldItem {
		return Item{}, false
	}
	return l.Items[l.Cursor], true
}

func (l *TurnList) SelectedKey() string {
	if r := l.Selected(); r != nil {
		return r.Key
	}
	return ""
}

// Land places the cursor after the call changed, whatever key changed
// it: on the first turn that left at this call, else the first new one,
// else the last turn (goTo keeps it on the response row when it was).
func (l *TurnList) Land() {
	l.Chosen = false
	l.build()
	if !l.cursorTo(func(it Item) bool { return it.Kind == TurnItem && leaves(l.c.Session.Rows.At(it.Row).Fate) }) &&
		!l.cursorTo(func(it Item) bool { return it.Kind == TurnItem && l.c.Session.Rows.At(it.Row).Fate == window.FateNew }) {
		l.Cursor = len(l.Items)
		l.move(-1)
		if l.OnResponse() && l.c.Session.Rows.Len() > 0 {
			l.move(-1) // the last turn, not the response row under it
		}
	}
}

// Reselect rebuilds the items at the same call (another replay, a fold,
// a size) and puts the cursor back on the turn with key k (or the
// response row) when the user chose it and it is still listed; otherwise
// it lands as on a new call.
func (l *TurnList) Reselect(k string) {
	chosen, resp := l.Chosen, l.OnResponse()
	l.build()
	if chosen && resp {
		l.ToResponse()
		return
	}
	if k != "" && chosen && l.cursorTo(func(it Item) bool { return it.Kind == TurnItem && l.c.Session.Rows.At(it.Row).Key == k }) {
		return
	}
	l.Land()
	l.Chosen = chosen && k != ""
}

// cursorTo moves the cursor to the first item ok accepts.
func (l *TurnList) cursorTo(ok func(Item) bool) bool {
	for i, it := range l.Items {
		if ok(it) {
			l.Cursor = i
			l.scroll()
			return true
		}
	}
	return false
}

// Title counts the turns, those sent (those in the replay's window, where
// it differs from the recorded one), and says when some are hidden.
func (l *TurnList) Title() string {
	t := "Turns"
	if l.c.Session == nil || l.c.Session.Rows.Len() == 0 {
		return t
	}
	n, sent, gone := l.c.Session.Rows.Len(), l.c.Session.Rows.Sent(), l.c.Session.Rows.Gone()
	// the library sent these only if the replay's window is the one it
	// recorded: where it differs, or the log does not record it (a run's
	// last call at tier minimal), they are the replay's
	if c := l.c.Session.Current(); c != nil && c.Recorded() != window.Match {
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

func (l *TurnList) View() string {
	if l.c.Session == nil || len(l.Items) == 0 {
		return present.Lines(l.c.Styles.Dim.Render("no turns at this call"), l.Width, l.height)
	}
	out := make([]string, 0, l.height)
	for i := l.offset; i < len(l.Items) && i < l.offset+l.height; i++ {
		out = append(out, l.Line(l.Items[i], i == l.Cursor))
	}
	return present.Lines(strings.Join(out, "\n"), l.Width, l.height)
}

// Line draws one item.
func (l *TurnList) Line(it Item, selected bool) string {
	switch it.Kind {
	case RunItem:
		label := fmt.Sprintf("── run %d ", it.Run)
		return l.c.Styles.Label.Render(label + strings.Repeat("─", max(0, l.Width-ansi.StringWidth(label))))
	case FoldItem:
		first, last := l.c.Session.Rows.At(it.Row).LeftAt+1, LastLeft(l.c.Session.Rows, it.Row, it.N)+1
		at := fmt.Sprintf("%d", first)
		if last != first {
			at += fmt.Sprintf("–%d", last)
		}
		text := fmt.Sprintf("%s %-7s %d turns left@%s · enter", cursorMark(selected, l.Focused), window.FateGone, it.N, at)
		return " " + l.c.Styles.Gone.Render(present.Fit(text, l.Width-1))
	case ResponseItem:
		return l.responseLine(selected)
	}
	return l.Row(*l.c.Session.Rows.At(it.Row), selected)
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

// Row is one turn: change mark, cursor, fate word, who it is (the tools
// it called or answered, first, as they are what one looks for), what
// the fate word does not say (kept reason, when it left), a preview, and
// its size in chars.
func (l *TurnList) Row(r window.Row, selected bool) string {
	mark := " "
	if l.c.Session.Changes.Of(r.Key) != "" {
		mark = l.c.Styles.Changed.Render("≠")
	}
	fs := l.c.Styles.Fate(r.Fate)
	head := mark + cursorMark(selected, l.Focused) + " " + fs.Render(fmt.Sprintf("%-7s", r.Fate))
	size := fmt.Sprintf(" %6s", present.Thousands(present.TurnChars(r.Messages)))
	who := termtext.Line(TurnWho(r.Messages))
	if tag := termtext.Line(rowTag(r)); tag != "" {
		who += " " + tag
	}
	room := l.Width - ansi.StringWidth(head) - len(size) - 1
	who = present.Fit(who, max(0, room))
	body := " " + who
	if rest := room - ansi.StringWidth(who) - 1; rest > 2 {
		body += " " + l.c.Styles.Dim.Render(present.Fit(termtext.Line(present.TurnText(r.Messages)), rest))
	}
	switch {
	case r.Fate == window.FateGone:
		body = l.c.Styles.Gone.Render(body)
	case selected:
		body = l.c.Styles.Title.Render(body)
	}
	return head + present.Pad(body, max(0, room+1)) + l.c.Styles.Dim.Render(size)
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

// TurnWho is who a turn is: the tools it called or answered for, else
// the role of its first message.
func TurnWho(msgs []*model.Message) string {
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// leaves: the turn left the window at this call (dropped or folded).
func leaves(f window.Fate) bool { return f == window.FateEvicted || f == window.FateFolded }

// ResponseWord is the response row's word in the fate column.
const ResponseWord = "response"

// OnResponse reports whether the cursor is on the response row.
func (l *TurnList) OnResponse() bool {
	return l.Cursor >= 0 && l.Cursor < len(l.Items) && l.Items[l.Cursor].Kind == ResponseItem
}

// ToResponse puts the cursor on the response row.
func (l *TurnList) ToResponse() {
	l.Chosen = true
	l.cursorTo(func(it Item) bool { return it.Kind == ResponseItem })
}

// responseLine draws the response row: the word, what the call produced,
// what became of it when it is an answer, and its flagged values,
// counted: the answer's, then the arguments'.
func (l *TurnList) responseLine(selected bool) string {
	st := l.c.Styles
	head := " " + cursorMark(selected, l.Focused) + " " + st.Response.Render(ResponseWord)
	c := l.c.Session.Current()
	if c == nil {
		return head
	}
	what := present.Produced(c)
	if o := l.c.Session.Outcomes[c.Call]; o != "" {
		what += " · " + present.OutcomeWord(o) // first: a refused answer reached no one
	}
	if c.Run.Composition {
		what += " · the composition's result"
	}
	t := l.c.Session.JudgedCounts(l.c.Session.Call)
	if t.Answer.Total() > 0 {
		what += " · " + present.TallyWords(t.Answer, nil)
	}
	if t.Args.Total() > 0 {
		what += " · args: " + present.TallyWords(t.Args, nil)
	}
	room := max(0, l.Width-ansi.StringWidth(head)-1)
	body := present.Fit(what, room)
	if selected {
		body = st.Title.Render(body)
	}
	return head + " " + body
}

// ScrollBy moves the list's view by d lines, the cursor staying where it is.
func (l *TurnList) ScrollBy(d int) {
	l.offset = max(0, min(l.offset+d, len(l.Items)-l.height))
}

// ClickAt selects the item on line y of the list's view; false when
// there is none, or it is a run separator.
func (l *TurnList) ClickAt(y int) bool {
	i := l.offset + y
	if y < 0 || y >= l.height || i >= len(l.Items) || l.Items[i].Kind == RunItem {
		return false
	}
	l.Cursor, l.Chosen = i, true
	return true
}
