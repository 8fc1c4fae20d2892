// Package picker is the picker overlay (w): the file's agents, their
// conversations and runs; enter opens the conversation under the cursor. Opening one is a
// tea.Cmd with a generation, like a replay: the replay of that
// conversation runs off the UI goroutine.
//
// A file can hold tens of thousands of conversations: the picker draws
// the rows on screen only, and the view follows the cursor.
package picker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// Picker is the picker's body: the rows of the file's
// conversations and their runs (all of them, or those the filter
// matches), the cursor on a conversation's row or a run's, the rows from
// top on screen.
type Picker struct {
	st            *theme.Styles
	vs            *session.Views
	cursor        int // the row the cursor is on, in rows()
	top           int // the first row on screen
	width, height int
	// mine is what the knobs the user moved make of the conversation on
	// screen ("" when none moved)
	mine string
	// filter is typed after / (typing while it is being typed); shown,
	// the rows it matches (nil: no filter)
	filter string
	typing bool
	shown  *session.RowIndex
	// words is what the filter matches in words, of the file wordsOf
	// (made on the first filter; a conversation of the same file picked
	// keeps them)
	words   *filterWords
	wordsOf *model.Recording
	// inRuns: → took the cursor into the runs of conversation runsOf,
	// where ↑/↓ step them and enter opens the conversation at the run;
	// ← takes it back out
	inRuns bool
	runsOf int
}

// New is the picker drawn with c's styles.
func New(c *common.Common) *Picker { return &Picker{st: c.Styles} }

// Typing reports whether the filter is being typed: every key is a letter of it.
func (p *Picker) Typing() bool { return p.typing }

// Escapable reports whether esc has something to undo inside the
// picker (a filter to clear, the runs to step out of) before it closes it.
func (p *Picker) Escapable() bool { return p.filter != "" || p.inRuns }

// Open points the picker at the session's conversations, the cursor on
// the one on screen; a filter typed on the same file stays.
func (p *Picker) Open(s *session.Session) {
	keep := p.vs != nil && p.vs.All == s.Views.All
	p.vs, p.mine, p.typing, p.inRuns = s.Views, "", false, false
	if keep {
		p.setFilter(p.filter) // on this views' rows
	} else {
		p.setFilter("")
	}
	if s.Changed() {
		// the counts are under the recorded policies; say what the knobs make of the one on screen
		p.mine = "; under your knobs: " + present.MatchText(s.Replay.Score())
	}
	p.moveToConv(s.Views.Shown)
}

// Key moves the cursor over the conversations and their runs or filters
// them (/). closed says the picker is done: picked, with the row chosen,
// or closed with nothing to open.
func (p *Picker) Key(k keys.KeyMap, msg tea.KeyMsg) (row session.PickRow, picked, closed bool) {
	if p.typing {
		p.filterKey(k, msg)
		return row, false, false
	}
	rows := p.rows().Rows
	switch {
	case key.Matches(msg, k.Search):
		p.typing = true
		p.follow()
	case p.inRuns && key.Matches(msg, k.Close, k.PrevCall):
		p.intoRuns(false)
	case p.filter != "" && key.Matches(msg, k.Close):
		p.setFilter("")
	case key.Matches(msg, k.NextCall):
		p.intoRuns(true)
	case key.Matches(msg, k.PrevCall):
	case key.Matches(msg, k.Up):
		p.moveTo(p.cursor-1, -1)
	case key.Matches(msg, k.Down):
		p.moveTo(p.cursor+1, 1)
	case key.Matches(msg, k.Top):
		p.moveTo(0, 1)
	case key.Matches(msg, k.Bottom):
		p.moveTo(len(rows)-1, -1)
	case key.Matches(msg, k.PageDown):
		p.page(1)
	case key.Matches(msg, k.PageUp):
		p.page(-1)
	case key.Matches(msg, k.HalfDown):
		p.page(0.5)
	case key.Matches(msg, k.HalfUp):
		p.page(-0.5)
	case key.Matches(msg, k.Confirm):
		r, ok := p.at()
		if !ok && p.filter != "" {
			return row, false, false // the filter lists nothing: it stays, to be changed
		}
		return r, ok, true
	}
	return row, false, false
}

// Wheel moves the cursor with the mouse wheel.
func (p *Picker) Wheel(msg tea.MouseMsg) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		p.moveTo(p.cursor-3, -1)
	case tea.MouseButtonWheelDown:
		p.moveTo(p.cursor+3, 1)
	}
}

// ForgetPatterns drops the filter's kept matches, so that the next letter
// searches every conversation's words again (what a first filter costs).
func (p *Picker) ForgetPatterns() {
	if p.words != nil {
		clear(p.words.kept)
	}
}

func (p *Picker) SetSize(w, h int) {
	p.width, p.height = max(0, w), max(0, h)
	p.follow()
}

// rows are the rows listed: the filter's, or every one.
func (p *Picker) rows() *session.RowIndex {
	if p.shown != nil {
		return p.shown
	}
	return p.vs.PickRows()
}

// bodyHeight is the rows' share of the pane: the filter takes a line.
func (p *Picker) bodyHeight() int {
	if p.typing || p.filter != "" {
		return max(0, p.height-1)
	}
	return p.height
}

// selectable says whether the cursor may stand on row r: a
// conversation's, or inside a conversation's runs one of those.
func (p *Picker) selectable(r session.PickRow) bool {
	if p.inRuns {
		return r.Kind == session.RunRow && r.Conv == p.runsOf
	}
	return r.Kind == session.ConvRow
}

// intoRuns takes the cursor into the runs of the conversation it is on
// (→), or out of them onto the conversation (←).
func (p *Picker) intoRuns(in bool) {
	r, ok := p.at()
	if !ok || in == p.inRuns {
		return
	}
	if in && len(p.vs.Convs[r.Conv].Runs) == 0 {
		return
	}
	p.inRuns, p.runsOf = in, r.Conv
	p.moveTo(p.cursor, 1)
	if !in {
		p.moveTo(p.cursor, -1) // the conversation's row is above its runs
	}
}

// moveTo puts the cursor on row i or, when i is no conversation's or
// run's, the nearest such row in direction dir (or the other way at an
// end), and the view on the cursor.
func (p *Picker) moveTo(i, dir int) {
	if p.vs == nil {
		p.cursor = 0
		return
	}
	rows := p.rows().Rows
	if len(rows) == 0 {
		p.cursor, p.top = 0, 0
		return
	}
	i = max(0, min(i, len(rows)-1))
	if dir == 0 {
		dir = 1
	}
	for j := i; j >= 0 && j < len(rows); j += dir {
		if p.selectable(rows[j]) {
			p.cursor = j
			p.follow()
			return
		}
	}
	for j := i; j >= 0 && j < len(rows); j -= dir {
		if p.selectable(rows[j]) {
			p.cursor = j
			p.follow()
			return
		}
	}
}

// moveToConv puts the cursor on conversation i's row, when it is listed.
func (p *Picker) moveToConv(i int) {
	x := p.rows()
	k := i // every conversation is listed, in order
	if p.shown != nil {
		k = slices.Index(x.Order, i)
	}
	if k < 0 || k >= len(x.Conv) {
		p.moveTo(0, 1)
		return
	}
	p.moveTo(x.Conv[k], 1)
}

// page moves the cursor by about n screens of rows.
func (p *Picker) page(n float64) {
	step := int(n * float64(max(1, p.bodyHeight()-1)))
	if step == 0 {
		step = present.Sign(int(n * 2)) // half a page of one row: still a move
	}
	p.moveTo(p.cursor+step, present.Sign(step))
}

// follow scrolls the view so the cursor's row is on screen, with the
// agent's title above a conversation that is the agent's first.
func (p *Picker) follow() {
	h := p.bodyHeight()
	if p.vs == nil || h <= 0 {
		p.top = 0
		return
	}
	rows := p.rows().Rows
	if len(rows) == 0 {
		p.top = 0
		return
	}
	p.cursor = max(0, min(p.cursor, len(rows)-1))
	first := p.cursor
	if first > 0 && rows[first-1].Kind == session.AgentRow {
		first--
	}
	switch {
	case first < p.top:
		p.top = first
	case p.cursor >= p.top+h:
		p.top = p.cursor - h + 1
	}
	p.top = max(0, min(p.top, len(rows)-h))
}

// at is the row under the cursor; ok is false when none is listed.
func (p *Picker) at() (session.PickRow, bool) {
	if p.vs == nil {
		return session.PickRow{}, false
	}
	rows := p.rows().Rows
	if p.cursor < 0 || p.cursor >= len(rows) || !p.selectable(rows[p.cursor]) {
		return session.PickRow{}, false
	}
	return rows[p.cursor], true
}

// More says whether rows run past the bottom of the pane.
func (p *Picker) More() bool {
	return p.vs != nil && p.top+p.bodyHeight() < len(p.rows().Rows)
}

func (p *Picker) View() string {
	if p.vs == nil || len(p.vs.Convs) == 0 {
		return present.Lines(p.st.Dim.Render("no conversation in this file: it holds no model call"), p.width, p.height)
	}
	out := make([]string, 0, p.height)
	if p.typing || p.filter != "" {
		out = append(out, p.filterLine())
	}
	rows := p.rows().Rows
	_, ok := p.at()
	for i := p.top; i < len(rows) && len(out) < p.height; i++ {
		out = append(out, pickerLine(p.vs, p.st, rows[i], ok && i == p.cursor, p.mine, p.width))
	}
	return present.Lines(joinLines(out), p.width, p.height)
}

// filterLine is the filter as typed and how much of the file it lists.
func (p *Picker) filterLine() string {
	caret := ""
	if p.typing {
		caret = "▏"
	}
	n := len(p.rows().Order)
	count := fmt.Sprintf("  %s of %s match", present.Thousands(n), present.Plural(p.vs.ConversationsAndOwn(), "conversation"))
	if p.typing {
		count += " · enter keeps it, esc clears it"
	} else {
		count += " · / edits it, esc clears it"
	}
	return present.Fit(p.st.Title.Render("filter: ")+termtext.Line(p.filter)+caret+p.st.Dim.Render(count), p.width)
}

// filterKey edits the filter as it is typed: each key lists what it
// matches at once.
func (p *Picker) filterKey(k keys.KeyMap, msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, k.Close):
		p.typing = false
		p.setFilter("")
	case key.Matches(msg, k.Confirm):
		p.typing = false
		p.follow()
	case key.Matches(msg, k.Erase):
		if r := []rune(p.filter); len(r) > 0 {
			p.setFilter(string(r[:len(r)-1]))
		}
	case key.Matches(msg, k.Up):
		p.moveTo(p.cursor-1, -1)
	case key.Matches(msg, k.Down):
		p.moveTo(p.cursor+1, 1)
	case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
		if len(p.filter) < 200 {
			p.setFilter(p.filter + string(msg.Runes))
		}
	}
}

// setFilter lists the rows f matches, the cursor on the first.
func (p *Picker) setFilter(f string) {
	p.filter, p.shown, p.inRuns = f, nil, false
	if strings.TrimSpace(f) != "" {
		p.shown = p.filterRows(strings.TrimSpace(f))
	}
	p.top = 0
	p.moveTo(0, 1)
}

// pickerLine draws one row of the picker, w columns at most: cursor
// says the cursor is on it, mine what the knobs the user moved make of
// the conversation on screen.
func pickerLine(vs *session.Views, st *theme.Styles, r session.PickRow, cursor bool, mine string, w int) string {
	cv := &vs.Convs[r.Conv]
	switch r.Kind {
	case session.AgentRow:
		if cv.Composition {
			return present.Fit(st.Title.Render("composition "+termtext.Line(cv.Agent.Key))+st.Dim.Render(" (its own model calls: no window strategy, in no conversation)"), w)
		}
		return present.Fit(st.Title.Render("agent "+termtext.Line(cv.Agent.Key))+st.Dim.Render(present.AgentNote(cv.Agent)), w)
	case session.ConvRow:
		mark := "  "
		if cursor {
			mark = "▸ "
		}
		line := fmt.Sprintf("%sconversation %d%s · %s · %s · %s", mark, cv.Number, vs.PassOf(*cv), present.Plural(len(cv.Runs), "run"), present.Plural(cv.Calls, "call"), present.MatchText(cv.Matched, cv.Compared))
		if cv.Composition {
			line = fmt.Sprintf("%s%s %s · its own calls: %d · %s", mark, termtext.Line(cv.Agent.Key), present.CompositionWords(cv.Agent), cv.Calls, present.CompositionMatch(cv.Matched, cv.Compared))
		}
		if r.Conv == vs.Shown {
			line += "  (on screen" + mine + ")"
		}
		if cursor {
			return st.Value.Render(present.Fit(line, w))
		}
		return present.Fit(line, w)
	case session.RunRow:
		run := cv.Runs[r.Run]
		step := ""
		if run.Run.Step != "" {
			step = " · " + present.StepWords(run.Run.Agent, run.Run.Step)
		}
		match := present.MatchText(run.Matched, run.Compared)
		if cv.Composition {
			match = present.CompositionMatch(run.Matched, run.Compared)
		}
		line := fmt.Sprintf("    run %s%s%s · %s · %s", termtext.Line(run.Run.RunID), step, vs.Pass(run.Run), present.Plural(len(run.Run.Calls), "call"), match)
		if cursor {
			return st.Value.Render(present.Fit("  ▸ "+line[4:], w))
		}
		return st.Dim.Render(present.Fit("  "+line, w))
	}
	return ""
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") }

// ColumnText lists the conversations compactly, h lines of w
// columns, the one on screen marked and in view: its agent, its number,
// its calls and whether they match. Only the lines shown are drawn.
func ColumnText(vs *session.Views, st *theme.Styles, w, h int) string {
	if h <= 0 {
		return "" // a terminal a line or two high has no room for the column's rows
	}
	rows := vs.ColumnRows()
	at := 0
	for i, r := range rows {
		if r.Kind == session.ConvRow && r.Conv == vs.Shown {
			at = i
			break
		}
	}
	top := max(0, min(at-h/3, len(rows)-h))
	out := make([]string, 0, h)
	for _, r := range rows[top:min(len(rows), top+h)] {
		out = append(out, columnLine(vs, st, r, w))
	}
	return joinLines(out)
}

// columnLine draws one row of the conversations' column.
func columnLine(vs *session.Views, st *theme.Styles, r session.PickRow, w int) string {
	cv := &vs.Convs[r.Conv]
	if r.Kind == session.AgentRow && cv.Composition {
		return st.Title.Render(present.Fit(termtext.Line(cv.Agent.Key)+" "+present.CompositionWords(cv.Agent), w))
	}
	if r.Kind == session.AgentRow {
		return st.Title.Render(present.Fit(termtext.Line(cv.Agent.Key), w))
	}
	mark := "  "
	if r.Conv == vs.Shown {
		mark = "▸ "
	}
	ok := "…"
	switch {
	case cv.Compared == 0:
		ok = "—"
	case cv.Compared > 0 && cv.Matched == cv.Compared:
		ok = "match"
	case cv.Compared > 0:
		ok = "differs"
	}
	line := present.Fit(fmt.Sprintf("%sconv %d · %s · %s", mark, cv.Number, present.Plural(cv.Calls, "call"), ok), w)
	if cv.Composition {
		if cv.Compared == 0 {
			ok = "no window"
		}
		line = present.Fit(fmt.Sprintf("%sits own calls: %d · %s", mark, cv.Calls, ok), w)
	}
	switch {
	case r.Conv == vs.Shown:
		return st.Value.Render(line)
	case ok == "differs":
		return st.Differs.Render(line)
	}
	return line
}
