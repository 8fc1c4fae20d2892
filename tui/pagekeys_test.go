package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// ctrl+f and ctrl+b page the detail as pgdn and pgup do (less, vim).
func TestCtrlFAndCtrlBPage(t *testing.T) {
	at := func(keys ...tea.KeyMsg) int {
		m := open(t, fileConfig("../testdata/demo-evidence/run.jsonl"), 100, 30)
		m = press(m, "right", "down", "down") // call 2: the inventory, 25 hosts
		for _, k := range keys {
			m = send(m, k)
		}
		return m.detail.VP.YOffset
	}
	pg := at(tea.KeyMsg{Type: tea.KeyPgDown})
	if pg == 0 {
		t.Fatal("pgdn does not move the detail: pick a longer message")
	}
	if got := at(tea.KeyMsg{Type: tea.KeyCtrlF}); got != pg {
		t.Errorf("ctrl+f: offset %d, pgdn %d", got, pg)
	}
	if got := at(tea.KeyMsg{Type: tea.KeyCtrlF}, tea.KeyMsg{Type: tea.KeyCtrlB}); got != 0 {
		t.Errorf("ctrl+f ctrl+b: offset %d, want the top again", got)
	}
}
