package tui

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// stripLegendRoom is the height of the detail from which a tool turn's
// lifetime strip has its legend: a 40-line terminal's, the request line
// taken.
const stripLegendRoom = 29

// detailPane is the selected turn in full: why it has its fate at this
// call (kept in view), then every message in a scrollable viewport.
type detailPane struct {
	s       *session.Session
	st      *theme.Styles
	keys    keys.KeyMap
	width   int // inside the frame
	height  int
	focused bool

	row     *window.Row
	note    string   // shown instead of a turn (a fold of gone turns is selected)
	head    []string // the reason and what changed; never scrolls
	vp      viewport.Model
	bodyFor renderKey // what the viewport's content was rendered from

	cache  renderCache
	job    tea.Cmd       // a render to start; the root model takes it
	gen    int64         // counts renders asked for
	latest *atomic.Int64 // the newest gen, read by renders in flight
	// pending: the turn on screen is being rendered; want is where the
	// keys pressed meanwhile scrolled it to.
	pending bool
	want    int
	raw     string // the rendered turn, before search hits are marked
	// markPending: scroll to the first hit once the render arrives.
	markPending bool
	mark        string // the search query whose hits are marked

	// response: the pane shows the response of call respCall (the
	// response row is selected), as respText draws it.
	response bool
	respCall int
	respText func(w int) string
	// request: the pane shows the call's system prompt and tools (S), as
	// reqText draws them; reqCall is the call it was drawn for
	request  bool
	reqCall  int
	reqText  func(w int) (string, []int)
	reqFocus int // the piece to scroll to once, -1 for none
}

func newDetailPane(st *theme.Styles, keys keys.KeyMap) *detailPane {
	vp := viewport.New(0, 0)
	vp.MouseWheelEnabled = true
	return &detailPane{st: st, keys: keys, vp: vp, latest: new(atomic.Int64), reqFocus: -1}
}

func (d *detailPane) Init() tea.Cmd { return nil }

func (d *detailPane) ShortHelp() []key.Binding {
	return []key.Binding{d.keys.Up, d.keys.Down, d.keys.PageUp, d.keys.PageDown}
}
func (d *detailPane) FullHelp() [][]key.Binding {
	k := d.keys
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown}}
}

// top scrolls back to the top: a new call starts its detail there.
func (d *detailPane) top() { d.vp.GotoTop() }

// SetSize is the size inside the frame.
func (d *detailPane) SetSize(w, h int) {
	if w == d.width && h == d.height {
		return
	}
	d.width, d.height = max(0, w), max(0, h)
	if d.request {
		d.showRequest()
		return
	}
	if d.response {
		d.showResponse()
		return
	}
	d.show(d.row)
}

// Update scrolls: lines with ↑/↓ while focused, pages and the mouse
// wheel always.
func (d *detailPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && d.pending {
		d.scrollPending(k)
		return d, nil
	}
	return d, common.Scroll(&d.vp, &d.keys, msg, d.focused)
}

// scrollPending moves where the turn being rendered will be scrolled to.
func (d *detailPane) scrollPending(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, d.keys.PageUp):
		d.want -= d.vp.Height
	case key.Matches(msg, d.keys.PageDown):
		d.want += d.vp.Height
	case d.focused && key.Matches(msg, d.keys.Up):
		d.want--
	case d.focused && key.Matches(msg, d.keys.Down):
		d.want++
	}
	d.want = max(0, d.want)
}

// show puts row in the pane. The messages are rendered again only when
// the turn or the width changed; the reason is cheap and always redone.
func (d *detailPane) show(row *window.Row) {
	d.row, d.note, d.response, d.request = row, "", false, false
	d.head = nil
	if row == nil || d.s == nil || d.s.Current() == nil {
		d.setContent("")
		d.bodyFor = renderKey{}
		d.resize()
		return
	}
	w := max(1, d.width)
	c := d.s.Current()
	fs := d.st.Fate(row.Fate)
	d.head = present.WrapLines(termtext.Line(present.TurnReason(*row, c, d.s.Policy)+session.GuessNote(*row, c, d.s)), fs, w)
	sent := "sent to the model on this call"
	st := d.st.Dim
	switch {
	case row.Placeholder:
		sent, st = "not recorded — the library never sent this (the replay folded where the library did not)", d.st.Evicted
	case !row.Sent:
		sent = "not sent on this call"
	case c.Recorded() == window.Differs:
		// the replay's window is not what the library sent (W shows what it did)
		sent, st = "in the replayed window; the library's recorded window for this call differs (W)", d.st.Differs
	case c.Recorded() == window.Unknown:
		sent, st = "in the replayed window; the log does not record what this call sent", d.st.Unknown
	}
	if lf, ok := common.LivesOf(d.s).Of(row.Key); ok {
		sent += "; " + present.Lifeline(lf, d.s.Replay, d.s.Policy)
		if g := d.s.Agent.GuessFor(d.s.Policy); lf.Left >= 0 && len(g.K) > 1 {
			sent += " (a guess: keepRecentTurns " + model.Range(g.K) + " reproduce the same windows)"
		}
	}
	d.head = append(d.head, present.WrapLines(sent, st, w)...)
	if row.Messages[0].IsCorrection() && row.First > 0 {
		// the library's words, sent as a user message: not the person's
		d.head = append(d.head, present.WrapLines(fmt.Sprintf("written by the library, not the user: it sends call %d's answer back and asks for a revision (EVIDENCE §9.4)", row.First), d.st.Notice, w)...)
	}
	if ch := d.s.Changes.Of(row.Key); ch != "" {
		d.head = append(d.head, present.WrapLines("≠ differs from the recorded policy: "+termtext.Line(ch), d.st.Changed, w)...)
	}
	d.head = append(d.head, toolStrips(d.s, d.st, row.Messages, w, d.height >= stripLegendRoom)...)
	if len(d.head) > d.height/2 {
		d.head = d.head[:d.height/2]
	}
	if k := (renderKey{row.Messages[0], len(row.Messages), w}); k != d.bodyFor {
		resized := k.first == d.bodyFor.first && k.n == d.bodyFor.n && !d.pending
		d.bodyFor = k
		d.body(row, resized)
	}
	d.resize()
}

// body fills the viewport for the turn in d.bodyFor: from the cache, at
// once when the turn is small, else with a line saying it is being
// rendered while renderCmd does the work. After a resize the turn stays
// on screen at its old width until the new rendering is ready.
func (d *detailPane) body(row *window.Row, resized bool) {
	k := d.bodyFor
	text, ok := d.cache.get(k)
	if !ok && quick(row.Messages) {
		text, ok = present.RenderTurn(d.st, row.Messages, k.width), true
		d.cache.put(k, text)
	}
	d.pending, d.want = !ok, 0
	if !ok {
		d.gen++
		d.latest.Store(d.gen)
		d.job = renderCmd(d.st, k, row.Messages, d.gen, d.latest)
		if resized {
			d.want = d.vp.YOffset
			return
		}
		text = d.st.Dim.Render("rendering " + present.ByteSize(int64(turnBytes(row.Messages))) + "…")
	}
	d.setContent(text)
	d.vp.GotoTop()
}

// rendered takes a background render: kept for a later visit, shown if
// it is the turn on screen.
func (d *detailPane) rendered(msg renderedMsg) {
	d.cache.put(msg.key, msg.text)
	if msg.key == d.bodyFor && d.pending {
		d.pending = false
		d.setContent(msg.text)
		d.resize()
		d.vp.SetYOffset(d.want) // the scrolling done while it rendered
		if d.markPending {
			d.toMark()
		}
	}
}

// setContent puts a rendered turn in the viewport, search hits marked.
func (d *detailPane) setContent(text string) {
	d.raw = text
	d.vp.SetContent(present.MarkHits(d.st, text, d.mark))
}

// setMark marks the hits of q in the turn on screen, keeping the scroll.
func (d *detailPane) setMark(q string) {
	if q == d.mark {
		return
	}
	d.mark = q
	y := d.vp.YOffset
	d.vp.SetContent(present.MarkHits(d.st, d.raw, q))
	d.vp.SetYOffset(y)
}

// toMark scrolls to the first line holding a hit (once the turn is
// rendered, when it is being rendered).
func (d *detailPane) toMark() {
	d.markPending = d.pending
	if d.pending {
		return
	}
	if i := present.FirstHitLine(d.raw, d.mark); i >= 0 {
		d.vp.SetYOffset(max(0, i-2))
	}
}

// takeJob hands over the render to start, if there is one.
func (d *detailPane) takeJob() tea.Cmd {
	j := d.job
	d.job = nil
	return j
}

func (d *detailPane) resize() {
	d.vp.Width = d.width
	d.vp.Height = max(0, d.height-len(d.head)-1)
	if len(d.head) == 0 {
		d.vp.Height = d.height
	}
	d.vp.SetYOffset(d.vp.YOffset) // clamp after a resize
}

// title names the turn and, when it overflows, how far it is scrolled.
func (d *detailPane) title() string {
	if d.response {
		return d.responseTitle()
	}
	if d.request {
		return d.requestTitle()
	}
	if d.row == nil {
		return "Detail"
	}
	t := fmt.Sprintf("%s turn · %s · %s chars", d.row.Fate, present.Plural(len(d.row.Messages), "msg"), present.Thousands(present.TurnChars(d.row.Messages)))
	return t + d.position()
}

// position says which lines of the text are in view, when not all are.
func (d *detailPane) position() string {
	n := d.vp.TotalLineCount()
	if n <= d.vp.Height || d.vp.Height <= 0 {
		return ""
	}
	first := d.vp.YOffset + 1
	return fmt.Sprintf(" · lines %d–%d of %d", first, min(n, d.vp.YOffset+d.vp.Height), n)
}

// showNote puts a sentence in the pane instead of a turn.
func (d *detailPane) showNote(text string) {
	d.show(nil)
	d.note = text
}

func (d *detailPane) View() string {
	if d.response || d.request {
		return present.Lines(d.vp.View(), d.width, d.height)
	}
	if d.row == nil && d.note != "" {
		return present.Lines(strings.Join(present.WrapLines(d.note, d.st.Gone, max(1, d.width)), "\n"), d.width, d.height)
	}
	if d.row == nil {
		return present.Lines(d.st.Dim.Render("no turn selected"), d.width, d.height)
	}
	if len(d.head) == 0 {
		return present.Lines(d.vp.View(), d.width, d.height)
	}
	sep := d.st.Border.Render(strings.Repeat("┄", d.width))
	return present.Lines(strings.Join(d.head, "\n")+"\n"+sep+"\n"+d.vp.View(), d.width, d.height)
}
