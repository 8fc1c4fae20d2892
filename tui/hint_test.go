package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/keys"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// Whatever the width, the hint line says "? help" and "q quit" when they
// fit at all; where the whole line reaches them it is left as it was.
func TestHintsKeepHelpAndQuit(t *testing.T) {
	k := keys.DefaultKeyMap()
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

// The timeline takes the width it has: the demo's 16 calls get four
// columns a cell at 120 wide (the whole legend would not fit after
// more), nine at 200: (200 − 6 − 1 − 42) / 16; never more than twelve.
func TestTimelineUsesTheWidth(t *testing.T) {
	for _, c := range []struct{ w, cell int }{{80, 3}, {120, 4}, {200, 9}, {400, 12}} {
		m := open(t, fileConfig("../testdata/demo-evidence/run.jsonl"), c.w, 40)
		if got := m.timeline.CellWidth(); got != c.cell {
			t.Errorf("%d wide: cells %d columns, want %d", c.w, got, c.cell)
		}
		if v := m.timeline.View(); !strings.Contains(v, "▲ here × evicted ≠ differs │ run") && c.w >= 120 {
			t.Errorf("%d wide: the legend is cut:\n%s", c.w, v)
		}
	}
}
