// Package detail is the pane beside the turn list: the selected turn in
// full (why it has its fate, its lifetime strip, every message), or the
// call's response, or its request (system prompt, tools, slots).
package detail

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// stripLegendRoom is the height of the detail from which a tool turn's
// lifetime strip has its legend: a 40-line terminal's, the request line
// taken.
const stripLegendRoom = 29

// Pane is the selected turn in full: why it has its fate at this
// call (kept in view), then every message in a scrollable viewport.
type Pane struct {
	c       *common.Common
	width   int // inside the frame
	height  int
	Focused bool

	row     *window.Row
	note    string   // shown instead of a turn (a fold of gone turns is selected)
	head    []string // the reason and what changed; never scrolls
	VP      viewport.Model
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
	RespText func(w int) string
	// Request: the pane shows the call's system prompt and tools (S);
	// reqCall is the call it was drawn for
	Request  bool
	reqCall  int
	ReqFocus int // the piece to scroll to once, -1 for none
}

// New is the detail pane drawn from c.
func New(c *common.Common) *Pane {
	vp := viewport.New(0, 0)
	vp.MouseWheelEnabled = true
	return &Pane{c: c, VP: vp, latest: new(atomic.Int64), ReqFocus: -1}
}

func (d *Pane) Init() tea.Cmd { return nil }

func (d *Pane) ShortHelp() []key.Binding {
	return []key.Binding{d.c.Keys.Up, d.c.Keys.Down, d.c.Keys.PageUp, d.c.Keys.PageDown}
}
func (d *Pane) FullHelp() [][]key.Binding {
	k := d.c.Keys
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown}}
}

// Top scrolls back to the Top: a new call starts its detail there.
func (d *Pane) Top() { d.VP.GotoTop() }

// SetSize is the size inside the frame.
func (d *Pane) SetSize(w, h int) {
	if w == d.width && h == d.height {
		return
	}
	d.width, d.height = max(0, w), max(0, h)
	if d.Request {
		d.ShowRequest()
		return
	}
	if d.response {
		d.ShowResponse()
		return
	}
	d.Show(d.row)
}

// Update scrolls: lines with ↑/↓ while focused, pages and the mouse
// wheel always.
func (d *Pane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && d.pending {
		d.scrollPending(k)
		return d, nil
	}
	return d, common.Scroll(&d.VP, &d.c.Keys, msg, d.Focused)
}

// scrollPending moves where the turn being rendered will be scrolled to.
func (d *Pane) scrollPending(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, d.c.Keys.PageUp):
		d.want -= d.VP.Height
	case key.Matches(msg, d.c.Keys.PageDown):
		d.want += d.VP.Height
	case d.Focused && key.Matches(msg, d.c.Keys.Up):
		d.want--
	case d.Focused && key.Matches(msg, d.c.Keys.Down):
		d.want++
	}
	d.want = max(0, d.want)
}

// Show puts row in the pane. The messages are rendered again only when
// the turn or the width changed; the reason is cheap and always redone.
func (d *Pane) Show(row *window.Row) {
	d.row, d.note, d.response, d.Request = row, "", false, false
	d.head = nil
	if row == nil || d.c.Session == nil || d.c.Session.Current() == nil {
		d.setContent("")
		d.bodyFor = renderKey{}
		d.resize()
		return
	}
	w := max(1, d.width)
	c := d.c.Session.Current()
	fs := d.c.Styles.Fate(row.Fate)
	d.head = present.WrapLines(termtext.Line(present.TurnReason(*row, c, d.c.Session.Policy)+session.GuessNote(*row, c, d.c.Session)), fs, w)
	sent := "sent to the model on this call"
	st := d.c.Styles.Dim
	switch {
	case row.Placeholder:
		sent, st = "not recorded — the library never sent this (the replay folded where the library did not)", d.c.Styles.Evicted
	case !row.Sent:
		sent = "not sent on this call"
	case c.Recorded() == window.Differs:
		// the replay's window is not what the library sent (W shows what it did)
		sent, st = "in the replayed window; the library's recorded window for this call differs (W)", d.c.Styles.Differs
	case c.Recorded() == window.Unknown:
		sent, st = "in the replayed window; the log does not record what this call sent", d.c.Styles.Unknown
	}
	if lf, ok := common.LivesOf(d.c.Session).Of(row.Key); ok {
		sent += "; " + present.Lifeline(lf, d.c.Session.Replay, d.c.Session.Policy)
		if g := d.c.Session.Agent.GuessFor(d.c.Session.Policy); lf.Left >= 0 && len(g.K) > 1 {
			sent += " (a guess: keepRecentTurns " + model.Range(g.K) + " reproduce the same windows)"
		}
	}
	d.head = append(d.head, present.WrapLines(sent, st, w)...)
	if row.Messages[0].IsCorrection() && row.First > 0 {
		// the library's words, sent as a user message: not the person's
		d.head = append(d.head, present.WrapLines(fmt.Sprintf("written by the library, not the user: it sends call %d's answer back and asks for a revision (EVIDENCE §9.4)", row.First), d.c.Styles.Notice, w)...)
	}
	if ch := d.c.Session.Changes.Of(row.Key); ch != "" {
		d.head = append(d.head, present.WrapLines("≠ differs from the recorded policy: "+termtext.Line(ch), d.c.Styles.Changed, w)...)
	}
	d.head = append(d.head, present.ToolStrips(common.StripOf(d.c.Session), d.c.Styles, row.Messages, w, d.height >= stripLegendRoom)...)
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
func (d *Pane) body(row *window.Row, resized bool) {
	k := d.bodyFor
	text, ok := d.cache.get(k)
	if !ok && quick(row.Messages) {
		text, ok = present.RenderTurn(d.c.Styles, row.Messages, k.width), true
		d.cache.put(k, text)
	}
	d.pending, d.want = !ok, 0
	if !ok {
		d.gen++
		d.latest.Store(d.gen)
		d.job = renderCmd(d.c.Styles, k, row.Messages, d.gen, d.latest)
		if resized {
			d.want = d.VP.YOffset
			return
		}
		text = d.c.Styles.Dim.Render("rendering " + present.ByteSize(int64(turnBytes(row.Messages))) + "…")
	}
	d.setContent(text)
	d.VP.GotoTop()
}

// Rendered takes a background render: kept for a later visit, shown if
// it is the turn on screen.
func (d *Pane) Rendered(msg RenderedMsg) {
	d.cache.put(msg.key, msg.text)
	if msg.key == d.bodyFor && d.pending {
		d.pending = false
		d.setContent(msg.text)
		d.resize()
		d.VP.SetYOffset(d.want) // the scrolling done while it rendered
		if d.markPending {
			d.ToMark()
		}
	}
}

// setContent puts a rendered turn in the viewport, search hits marked.
func (d *Pane) setContent(text string) {
	d.raw = text
	d.VP.SetContent(present.MarkHits(d.c.Styles, text, d.mark))
}

// SetMark marks the hits of q in the turn on screen, keeping the scroll.
func (d *Pane) SetMark(q string) {
	if q == d.mark {
		return
	}
	d.mark = q
	y := d.VP.YOffset
	d.VP.SetContent(present.MarkHits(d.c.Styles, d.raw, q))
	d.VP.SetYOffset(y)
}

// ToMark scrolls to the first line holding a hit (once the turn is
// rendered, when it is being rendered).
func (d *Pane) ToMark() {
	d.markPending = d.pending
	if d.pending {
		return
	}
	if i := present.FirstHitLine(d.raw, d.mark); i >= 0 {
		d.VP.SetYOffset(max(0, i-2))
	}
}

// TakeJob hands over the render to start, if there is one.
func (d *Pane) TakeJob() tea.Cmd {
	j := d.job
	d.job = nil
	return j
}

func (d *Pane) resize() {
	d.VP.Width = d.width
	d.VP.Height = max(0, d.height-len(d.head)-1)
	if len(d.head) == 0 {
		d.VP.Height = d.height
	}
	d.VP.SetYOffset(d.VP.YOffset) // clamp after a resize
}

// Title names the turn and, when it overflows, how far it is scrolled.
func (d *Pane) Title() string {
	if d.response {
		return d.responseTitle()
	}
	if d.Request {
		return d.requestTitle()
	}
	if d.row == nil {
		return "Detail"
	}
	t := fmt.Sprintf("%s turn · %s · %s chars", d.row.Fate, present.Plural(len(d.row.Messages), "msg"), present.Thousands(present.TurnChars(d.row.Messages)))
	return t + d.position()
}

// position says which lines of the text are in view, when not all are.
func (d *Pane) position() string {
	n := d.VP.TotalLineCount()
	if n <= d.VP.Height || d.VP.Height <= 0 {
		return ""
	}
	first := d.VP.YOffset + 1
	return fmt.Sprintf(" · lines %d–%d of %d", first, min(n, d.VP.YOffset+d.VP.Height), n)
}

// ShowNote puts a sentence in the pane instead of a turn.
func (d *Pane) ShowNote(text string) {
	d.Show(nil)
	d.note = text
}

func (d *Pane) View() string {
	if d.response || d.Request {
		return present.Lines(d.VP.View(), d.width, d.height)
	}
	if d.row == nil && d.note != "" {
		return present.Lines(strings.Join(present.WrapLines(d.note, d.c.Styles.Gone, max(1, d.width)), "\n"), d.width, d.height)
	}
	if d.row == nil {
		return present.Lines(d.c.Styles.Dim.Render("no turn selected"), d.width, d.height)
	}
	if len(d.head) == 0 {
		return present.Lines(d.VP.View(), d.width, d.height)
	}
	sep := d.c.Styles.Border.Render(strings.Repeat("┄", d.width))
	return present.Lines(strings.Join(d.head, "\n")+"\n"+sep+"\n"+d.VP.View(), d.width, d.height)
}

// ShowResponse puts the response of the call on screen in the detail;
// at the same call it keeps the scroll (the suggestions arrive later).
func (d *Pane) ShowResponse() {
	call, same, y := d.clearFor(d.response, d.respCall)
	d.response, d.respCall = true, call
	text := ""
	if d.RespText != nil && call >= 0 {
		text = d.RespText(max(1, d.width))
	}
	d.setContent(text)
	d.resize()
	if same {
		d.VP.SetYOffset(y)
	}
}

// responseTitle is the detail's title while it shows the response.
func (d *Pane) responseTitle() string {
	t := "response"
	if c := d.c.Session.Current(); c != nil {
		t += " of call " + strconv.Itoa(d.c.Session.Call+1) + " · " + present.Produced(c)
	}
	return t + d.position()
}

// Raw is the text in the pane as rendered, before search hits are marked.
func (d *Pane) Raw() string { return d.raw }

// Note is the sentence shown instead of a turn, if any.
func (d *Pane) Note() string { return d.note }

// Row is the turn shown, nil for none.
func (d *Pane) Row() *window.Row { return d.row }

// Busy reports whether the turn on screen is still being rendered or
// its render is still to be started.
func (d *Pane) Busy() bool { return d.pending || d.job != nil }

// Mark is the search query whose hits are marked.
func (d *Pane) Mark() string { return d.mark }

// Width is the width inside the frame.
func (d *Pane) Width() int { return d.width }

// clearFor empties the pane for a view of the call on screen (its
// response, its request): the call, whether that view of it was on
// screen already (shown, of call was), and the scroll it had then.
func (d *Pane) clearFor(shown bool, was int) (call int, same bool, y int) {
	call = -1
	if d.c.Session != nil {
		call = d.c.Session.Call
	}
	same, y = shown && was == call, d.VP.YOffset
	d.Show(nil)
	return call, same, y
}
