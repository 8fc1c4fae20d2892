package timeline

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/tui/present"
)

// Height is the timeline's lines: window chars, input tokens,
// and the marks (cursor, evictions, differing calls, runs).
const Height = 3

// Label is the width of the labels in front of the cells.
const Label = 6

// blocks are the eight heights of a cell, lowest first.
var blocks = []rune("▁▂▃▄▅▆▇█")

// Timeline is the whole recording at a glance: one cell per call (calls
// share a cell when there are more than columns), the window's size in
// characters and the provider's input tokens as two rows of blocks, and
// a row of marks: ▲ the call on screen, × an eviction (Σ: the turns were
// folded into a summary), ≠ a call whose replay differs from its recorded
// window, │ a new run. Under a
// token-budget policy the token row is scaled to thresholdTokens: a full
// block is at or over the threshold.
type Timeline struct {
	c     *common.Common
	width int
	Memo  session.TimelineCells // the cells of one replay at one width
}

// New is the timeline drawn from c.
func New(c *common.Common) *Timeline { return &Timeline{c: c} }

func (t *Timeline) Init() tea.Cmd                       { return nil }
func (t *Timeline) Update(tea.Msg) (tea.Model, tea.Cmd) { return t, nil }
func (t *Timeline) SetSize(w, _ int)                    { t.width = max(0, w) }
func (t *Timeline) ShortHelp() []key.Binding            { return []key.Binding{t.c.Keys.NextEvict} }
func (t *Timeline) FullHelp() [][]key.Binding {
	return [][]key.Binding{{t.c.Keys.NextEvict, t.c.Keys.NextDiffer, t.c.Keys.NextRun}}
}

// Cells is how many cells the calls get; 0 when there is no room.
func (t *Timeline) Cells() int {
	n := t.c.Session.Calls()
	return max(0, min(n, t.width-Label-1-legendRoom))
}

// bucket is the calls [from, to) that cell j shows.
func (t *Timeline) bucket(j int) (from, to int) {
	return session.BucketOf(j, t.c.Session.Calls(), t.Cells())
}

// CellWidth is the columns each cell takes: more than one when there
// are few calls, up to four, and on a wide terminal what is left after
// the legend, up to maxCellWidth.
func (t *Timeline) CellWidth() int {
	n := t.c.Session.Calls()
	if n == 0 {
		return 1
	}
	w := max(1, min(4, (t.width-Label-1-legendRoom)/n))
	// room beyond the whole legend: the cells take it
	return max(w, min(maxCellWidth, (t.width-Label-1-legendWhole)/n))
}

// maxCellWidth is the widest a cell gets: a few calls on a wide
// terminal stay bars, not slabs.
const maxCellWidth = 12

// legendWhole is the widest legend, every entry in ("▲ here × evicted
// Σ folded ≠ differs │ run"): a cell grows past four columns only when
// the legend still fits whole.
const legendWhole = 42

// legendRoom is kept free after the cells for the scale and the legend.
const legendRoom = 16

// CallAt is the first call of the cell at screen column x.
func (t *Timeline) CallAt(x int) (int, bool) {
	if t.c.Session == nil || x < Label {
		return 0, false
	}
	j := (x - Label) / t.CellWidth()
	if j >= t.Cells() {
		return 0, false
	}
	from, _ := t.bucket(j)
	return from, true
}

func (t *Timeline) View() string {
	if t.c.Session == nil || t.Cells() == 0 {
		return present.Lines("", t.width, Height)
	}
	w, cw := t.Cells(), t.CellWidth()
	m := t.cellsOf(w)
	// the marks' styles by markStyleIndex, then the call on screen's
	marks := styledRuns{styles: []lipgloss.Style{t.c.Styles.Dim, t.c.Styles.Differs, t.c.Styles.Label, t.c.Styles.Evicted, t.c.Styles.Title}}
	chars := styledRuns{styles: []lipgloss.Style{t.c.Styles.Value}}
	toks := styledRuns{styles: []lipgloss.Style{t.c.Styles.New, t.c.Styles.Evicted}}
	for j := range w {
		mark, ms := m.Marks[j], m.MarkStyleIndex[j]
		if from, to := t.bucket(j); t.c.Session.Call >= from && t.c.Session.Call < to {
			mark, ms = "▲", 4
		}
		ts := 0
		if m.Over[j] {
			ts = 1
		}
		c, k := string(block(m.Chars[j], m.MaxChars)), string(block(m.Toks[j], m.ScaleTok))
		if m.NoWindow[j] {
			c = "?"
		}
		if m.NoTokens[j] {
			k = "?"
		}
		chars.add(0, strings.Repeat(c, cw))
		toks.add(ts, strings.Repeat(k, cw))
		marks.add(ms, mark+strings.Repeat(" ", cw-1))
	}
	l := t.c.Styles.Label.Render
	return present.Lines(strings.Join([]string{
		l(fmt.Sprintf("%-*s", Label, "chars")) + chars.String() + " " + l(charNote(m)),
		l(fmt.Sprintf("%-*s", Label, "tok")) + toks.String() + " " + l(tokNote(m)),
		l(fmt.Sprintf("%-*s", Label, "calls")) + marks.String() + " " + l(t.legend(w*cw)),
	}, "\n"), t.width, Height)
}

// styledRuns writes a row of cells, each in one of its styles, rendering
// each run of cells in the same style at once: a style's Render costs
// about a microsecond, and a row is some 200 cells.
type styledRuns struct {
	styles   []lipgloss.Style
	out, run strings.Builder
	style    int
}

func (r *styledRuns) add(style int, s string) {
	if style != r.style {
		r.flush()
		r.style = style
	}
	r.run.WriteString(s)
}

func (r *styledRuns) flush() {
	if r.run.Len() > 0 {
		r.out.WriteString(r.styles[r.style].Render(r.run.String()))
		r.run.Reset()
	}
}

// String is the row.
func (r *styledRuns) String() string {
	r.flush()
	return r.out.String()
}

// cellsOf is the memo of the replay on screen in w cells, made afresh
// when either changed (a knob's replay makes it ahead: screenParts).
func (t *Timeline) cellsOf(w int) *session.TimelineCells {
	rp := t.c.Session.Replay
	if m := &t.Memo; m.Replay == rp && m.Calls == len(rp.Calls) && m.Cells == w {
		return m
	}
	t.Memo = session.MakeTimelineCells(rp, w)
	return &t.Memo
}

// legend says what the marks mean (as many as fit whole, in order), and
// how many calls a cell holds.
func (t *Timeline) legend(w int) string {
	room := max(0, t.width-Label-w-1)
	if n, cells := t.c.Session.Calls(), t.Cells(); n > cells {
		return present.Fit(fmt.Sprintf("%.1f calls/cell", float64(n)/float64(cells)), room)
	}
	s := ""
	entries := []string{"▲ here", "× evicted", "≠ differs", "│ run"}
	switch m := &t.Memo; {
	case m.Folds && m.Drops:
		entries = []string{"▲ here", "× evicted", "Σ folded", "≠ differs", "│ run"}
	case m.Folds:
		entries = []string{"▲ here", "Σ folded", "≠ differs", "│ run"}
	}
	for _, e := range entries {
		next := strings.TrimPrefix(s+" "+e, " ")
		if ansi.StringWidth(next) > room {
			break
		}
		s = next
	}
	return s
}

// block is v on a scale of top as one of eight heights; nothing at all
// is the lowest, anything over top the highest.
func block(v, top int) rune {
	if top <= 0 || v <= 0 {
		return blocks[0]
	}
	i := v * len(blocks) / top
	if v*len(blocks)%top == 0 {
		i--
	}
	return blocks[max(0, min(i, len(blocks)-1))]
}

// charNote says what the chars row's full block is.
func charNote(m *session.TimelineCells) string {
	if m.Windowless {
		return "? not in the log"
	}
	return "max " + present.Thousands(m.MaxChars)
}

// tokNote says what the token row's full block is.
func tokNote(m *session.TimelineCells) string {
	switch {
	case !m.Counted:
		return "? not in the log"
	case m.Budget:
		return "█ = threshold " + present.Thousands(m.ScaleTok)
	}
	return "max " + present.Thousands(m.ScaleTok)
}

// Adopt takes cells made with the replay now on screen (off the UI
// goroutine, at the width asked for): cellsOf makes them afresh if the
// width changed since.
func (t *Timeline) Adopt(cells *session.TimelineCells) { t.Memo = *cells }
