package tui

import (
	"github.com/afinspect/inspect/tui/components/timeline"
	tea "github.com/charmbracelet/bubbletea"
)

// mouse routes a mouse event to the area under the pointer: a left
// click selects a turn (or a call on the timeline), the wheel scrolls
// the pane it is over.
func (m Model) mouse(msg tea.MouseMsg) Model {
	switch m.overlay {
	case problemsOverlay:
		m.problems.Update(msg)
		return m
	case helpOverlay:
		m.keyhelp.Update(msg)
		return m
	case transcriptOverlay:
		m.trans.Update(msg)
		return m
	case pickerOverlay:
		m.picker.Wheel(msg)
		return m
	case advisorOverlay:
		m.adv.Wheel(msg)
		return m
	}
	if m.s == nil {
		return m
	}
	top := m.paneTop()
	if m.showRequest() && msg.Y == m.requestTop() {
		if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft {
			m.openRequest()
		}
		return m
	}
	if m.showTimeline() && msg.Y >= m.timelineTop() && msg.Y < m.timelineTop()+timeline.Height {
		if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft {
			if c, ok := m.timeline.CallAt(msg.X); ok {
				m.goTo(c)
			}
		}
		return m
	}
	x := msg.X - m.convColumn() // the conversations' column, when shown, is left of the list
	if x < 0 {
		return m
	}
	inList := x < m.list.Width+2 && msg.Y > top
	wheel := msg.Button == tea.MouseButtonWheelUp || msg.Button == tea.MouseButtonWheelDown
	switch {
	case inList && wheel:
		d := 3
		if msg.Button == tea.MouseButtonWheelUp {
			d = -3
		}
		m.list.ScrollBy(d)
	case inList && msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft:
		if m.list.ClickAt(msg.Y - top - 1) {
			m.list.Focused, m.detail.Focused = true, false
			m.syncDetail()
		}
	case !inList:
		m.detail.Update(msg)
	}
	return m
}

// mouseToggle gives the mouse to the terminal (so text can be selected
// and copied) or takes it back.
func (m Model) mouseToggle() (Model, tea.Cmd) {
	m.mouseOff = !m.mouseOff
	if m.mouseOff {
		return m, tea.DisableMouse
	}
	return m, tea.EnableMouseCellMotion
}
