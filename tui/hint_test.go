package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// Whatever the width, the hint line says "? help" and "q quit" when they
// fit at all; where the whole line reaches them it is left as it was.
func TestHintsKeepHelpAndQuit(t *testing.T) {
	k := DefaultKeyMap()
	for _, w := range []int{24, 40, 60, 80, 100, 120, 200} {
		h := help.New()
		h.Width = w
		line := h.ShortHelpView(hints(h, k.ShortHelp(), k.Help, k.Quit, w))
		if ansi.StringWidth(line) > w {
			t.Errorf("%d: %d wide", w, ansi.StringWidth(line))
		}
		if w >= 24 && (!strings.Contains(line, "? help") || !strings.Contains(line, "q quit")) {
			t.Errorf("%d: %q", w, line)
		}
		if w >= 120 {
			if whole := h.ShortHelpView(k.ShortHelp()); line != whole {
				t.Errorf("%d: %q, want the whole line %q", w, line, whole)
			}
		}
	}
}
