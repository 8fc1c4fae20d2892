package tui

import (
	"sort"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/study"
)

// The picker overlay (w): the file's agents, their conversations and
// runs; enter opens the conversation under the cursor. Opening one is a
// tea.Cmd with a generation, like a replay: the replay of that
// conversation runs off the UI goroutine.
//
// A file can hold tens of thousands of conversations: the picker draws
// the rows on screen only, and the view follows the cursor.

// viewMsg is sent by viewCmd: the conversation asked for, prepared.
type viewMsg struct {
	gen int
	loadedMsg
}

// viewCmd prepares conversation number of the study on screen: its
// agent's policy was settled with the rest of the file's.
func viewCmd(gen int, st *study.Study, number int) tea.Cmd {
	return func() tea.Msg { return viewMsg{gen: gen, loadedMsg: prepareView(st, number, nil)} }
}

// pickerPane is the picker's body: the rows of the file's
// conversations, the cursor on one of them, the rows from top on screen.
type pickerPane struct {
	st            *Styles
	vs            *views
	cursor        int // in vs.convs
	top           int // the first row on screen
	width, height int
	// mine is what the knobs the user moved make of the conversation on
	// screen ("" when none moved)
	mine string
}

func (p *pickerPane) SetSize(w, h int) {
	p.width, p.height = max(0, w), max(0, h)
	p.follow()
}

// moveTo puts the cursor on conversation i (kept inside the list) and
// the view on the cursor.
func (p *pickerPane) moveTo(i int) {
	if p.vs == nil || len(p.vs.convs) == 0 {
		p.cursor = 0
		return
	}
	p.cursor = max(0, min(i, len(p.vs.convs)-1))
	p.follow()
}

// page moves the cursor by about n screens of rows: onto the
// conversation whose row is that far from the cursor's.
func (p *pickerPane) page(n float64) {
	if p.vs == nil || len(p.vs.convs) == 0 {
		return
	}
	rows := p.vs.pickRows()
	at := rows.conv[p.cursor] + int(n*float64(max(1, p.height-1)))
	i := sort.SearchInts(rows.conv, at) // the first conversation at or below that row
	if n < 0 && (i >= len(rows.conv) || rows.conv[i] > at) {
		i-- // going up: the last one at or above it
	}
	if i == p.cursor {
		i += sign(int(n * 2)) // half a page of one row: still a move
	}
	p.moveTo(i)
}

// follow scrolls the view so the cursor's conversation is on screen,
// with its runs when they fit, and its agent's title when it is the
// agent's first.
func (p *pickerPane) follow() {
	if p.vs == nil || len(p.vs.convs) == 0 || p.height <= 0 {
		p.top = 0
		return
	}
	rows := p.vs.pickRows()
	at := rows.conv[p.cursor]
	first := at
	if at > 0 && rows.rows[at-1].kind == agentRow {
		first = at - 1
	}
	last := at + len(p.vs.convs[p.cursor].Runs)
	switch {
	case first < p.top:
		p.top = first
	case last >= p.top+p.height:
		p.top = max(first, last-p.height+1)
		p.top = min(p.top, at)
	}
	p.top = max(0, min(p.top, len(rows.rows)-p.height))
}

// more says whether rows run past the bottom of the pane.
func (p *pickerPane) more() bool {
	return p.vs != nil && p.top+p.height < len(p.vs.pickRows().rows)
}

func (p *pickerPane) View() string {
	if p.vs == nil || len(p.vs.convs) == 0 {
		return lines(p.st.Dim.Render("no conversation in this file: it holds no model call"), p.width, p.height)
	}
	rows := p.vs.pickRows().rows
	out := make([]string, 0, p.height)
	for i := p.top; i < len(rows) && len(out) < p.height; i++ {
		out = append(out, p.vs.pickerLine(p.st, rows[i], p.cursor, p.mine, p.width))
	}
	return lines(joinLines(out), p.width, p.height)
}

// openPicker shows the picker with the cursor on the conversation on
// screen.
func (m Model) openPicker() Model {
	if m.s == nil || m.s.views == nil {
		return m
	}
	m.overlay = pickerOverlay
	m.picker.vs, m.picker.mine = m.s.views, ""
	if m.s.changed() {
		// the counts are under the recorded policies; say what the knobs make of the one on screen
		m.picker.mine = "; under your knobs: " + matchText(study.Score(m.s.replay))
	}
	m.picker.moveTo(m.s.views.shown)
	return m
}

// pickerKey moves the cursor over the conversations, or opens one.
func (m Model) pickerKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k, vs, p := m.keys, m.s.views, m.picker
	switch {
	case key.Matches(msg, k.Up):
		p.moveTo(p.cursor - 1)
	case key.Matches(msg, k.Down):
		p.moveTo(p.cursor + 1)
	case key.Matches(msg, k.Top):
		p.moveTo(0)
	case key.Matches(msg, k.Bottom):
		p.moveTo(len(vs.convs) - 1)
	case key.Matches(msg, k.PageDown):
		p.page(1)
	case key.Matches(msg, k.PageUp):
		p.page(-1)
	case key.Matches(msg, k.HalfDown):
		p.page(0.5)
	case key.Matches(msg, k.HalfUp):
		p.page(-0.5)
	case key.Matches(msg, k.Confirm):
		m.overlay = noOverlay
		if p.cursor == vs.shown || p.cursor >= len(vs.convs) {
			return m, nil // on screen already, or no conversation to open
		}
		m.gen++
		m.cfg.View = vs.convs[p.cursor].Number
		m.s.replaying = true
		return m, tea.Batch(viewCmd(m.gen, m.s.study, m.cfg.View), m.spin.Tick)
	}
	return m, nil
}

// pickerWheel moves the picker's cursor with the mouse wheel.
func (m Model) pickerWheel(msg tea.MouseMsg) Model {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.picker.moveTo(m.picker.cursor - 3)
	case tea.MouseButtonWheelDown:
		m.picker.moveTo(m.picker.cursor + 3)
	}
	return m
}

// viewed puts a newly chosen conversation on screen, from its first call
// and under its agent's recorded policy.
func (m Model) viewed(msg viewMsg) Model {
	if m.s == nil || msg.gen != m.gen || msg.err != nil {
		return m
	}
	if old := m.s.views; old != nil && msg.views != nil && old.all == msg.views.all {
		// the same file's conversations: their rows are the same
		msg.views.rows, msg.views.column = old.rows, old.column
	}
	m.s = nil
	m.loaded(newSession(m.cfg.Name, msg.loadedMsg))
	if m.pendingFileCall > 0 {
		m.landOnFileCall()
	}
	return m
}
