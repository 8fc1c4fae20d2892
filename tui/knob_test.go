package tui

import (
	"testing"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/tui/keys"
)

// Every knob key of the default key map names its knob, and a key that
// is none names NoKnob.
func TestKnobOfDefaultKeys(t *testing.T) {
	k := keys.DefaultKeyMap()
	for key, want := range map[string]session.Knob{"[": session.RecentLess, "]": session.RecentMore, "{": session.PinsLess, "}": session.PinsMore, "p": session.TogglePins, "a": session.ToggleAnchor, "s": session.CycleStrategy, "t": session.ThresholdLess, "T": session.ThresholdMore, "r": session.ResetPolicy, "x": session.NoKnob} {
		if got := knobOf(k, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(key)}); got != want {
			t.Errorf("%q: knob %d, want %d", key, got, want)
		}
	}
}
