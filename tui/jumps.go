package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/window"
)

// jump is a key that goes to the next or previous call where something
// happens: what it looks for, and what to say when nothing is there.
type jump struct {
	next, prev key.Binding
	what       string
	is         func(rp *window.Replay, i int) bool
}

func (m Model) jumps() []jump {
	k := m.keys
	return []jump{
		{k.NextEvict, k.PrevEvict, "eviction", func(rp *window.Replay, i int) bool {
			return len(rp.Calls[i].Visit.Evicted) > 0
		}},
		{k.NextDiffer, k.PrevDiffer, "call whose replay differs from its recorded window", func(rp *window.Replay, i int) bool {
			return rp.Calls[i].Recorded() == window.Differs
		}},
		{k.NextRun, k.PrevRun, "run", func(rp *window.Replay, i int) bool {
			return i == 0 || rp.Calls[i].Run != rp.Calls[i-1].Run
		}},
		{k.NextNotice, k.PrevNotice, "drop notice or summary written", func(rp *window.Replay, i int) bool {
			v := &rp.Calls[i].Visit
			return v.Notice != nil || v.Frame != nil
		}},
		{k.NextFlagged, k.PrevFlagged, m.flaggedWhat(), func(_ *window.Replay, i int) bool {
			return m.s.Flagged(i, m.xArgs)
		}},
	}
}

// jumpKey goes to the call a jump key asks for; ok is false when msg is
// no jump key.
func (m Model) jumpKey(msg tea.KeyMsg) (Model, bool) {
	rp := m.s.Replay
	for _, j := range m.jumps() {
		d := 0
		switch {
		case key.Matches(msg, j.next):
			d = 1
		case key.Matches(msg, j.prev):
			d = -1
		default:
			continue
		}
		for i := m.s.Call + d; i >= 0 && i < len(rp.Calls); i += d {
			if j.is(rp, i) {
				m.goTo(i)
				return m, true
			}
		}
		where := "later"
		if d < 0 {
			where = "earlier"
		}
		m.flash = "no " + where + " " + j.what
		return m, true
	}
	return m, false
}

// flaggedWhat is what x and X look for: a call whose answer holds a
// flagged value, or (I) whose answer or arguments do.
func (m Model) flaggedWhat() string {
	if m.xArgs {
		return "call with a flagged value in its answer or its tool calls' arguments"
	}
	return "call with a flagged value in its answer (I: the arguments too)"
}
