package tui

import (
	"github.com/afinspect/inspect/study"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The picker overlay (w): the file's agents, their conversations and
// runs; enter opens the conversation under the cursor. Opening one is a
// tea.Cmd with a generation, like a replay: the replay of that
// conversation runs off the UI goroutine.

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

// openPicker shows the picker with the cursor on the conversation on
// screen.
func (m Model) openPicker() Model {
	if m.s == nil || m.s.views == nil {
		return m
	}
	m.overlay, m.pickCursor = pickerOverlay, m.s.views.shown
	m.refreshPicker()
	return m
}

func (m *Model) refreshPicker() {
	vs, st, cursor, mine := m.s.views, m.st, m.pickCursor, ""
	if m.s.changed() {
		// the counts are under the recorded policies; say what the knobs make of the one on screen
		mine = "; under your knobs: " + matchText(study.Score(m.s.replay))
	}
	m.picker.text = func(int) string { return pickerText(vs, st, cursor, mine) }
	m.picker.refresh()
}

// pickerKey moves the cursor over the conversations, opens one, or
// closes the picker.
func (m Model) pickerKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k, vs := m.keys, m.s.views
	switch {
	case key.Matches(msg, k.Close, k.Picker):
		m.overlay = noOverlay
	case key.Matches(msg, k.Up):
		m.pickCursor = max(0, m.pickCursor-1)
	case key.Matches(msg, k.Down):
		m.pickCursor = min(len(vs.convs)-1, m.pickCursor+1)
	case key.Matches(msg, k.Confirm):
		m.overlay = noOverlay
		if m.pickCursor == vs.shown {
			return m, nil
		}
		m.gen++
		m.cfg.View = vs.convs[m.pickCursor].Number
		m.s.replaying = true
		return m, tea.Batch(viewCmd(m.gen, m.s.study, m.cfg.View), m.spin.Tick)
	default:
		m.picker.Update(msg)
		return m, nil
	}
	m.refreshPicker()
	return m, nil
}

// viewed puts a newly chosen conversation on screen, from its first call
// and under its agent's recorded policy.
func (m Model) viewed(msg viewMsg) Model {
	if m.s == nil || msg.gen != m.gen || msg.err != nil {
		return m
	}
	m.s = nil
	m.loaded(newSession(m.cfg.Name, msg.loadedMsg))
	if m.pendingFileCall > 0 {
		m.landOnFileCall()
	}
	return m
}
