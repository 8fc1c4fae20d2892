package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/keys"
	tea "github.com/charmbracelet/bubbletea"
)

// A key the config gives moves the screen; the key it replaced does not.
func TestReboundKeyDrivesTheScreen(t *testing.T) {
	keys := keys.DefaultKeyMap()
	keys.Bind("next_call", []string{"ctrl+n"})
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	cfg.Keys = &keys
	m := open(t, cfg, 120, 40)
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlN})
	if m.s.Call != 1 {
		t.Fatalf("ctrl+n: at call %d, want 2", m.s.Call+1)
	}
	if m = press(m, "l"); m.s.Call != 1 {
		t.Errorf("l (no longer bound): at call %d", m.s.Call+1)
	}
	if m = press(m, "?"); !strings.Contains(m.View(), "ctrl+n") {
		t.Error("the help does not name ctrl+n")
	}
}
