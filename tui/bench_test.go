package tui

import (
	"os"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// s08 is 201 calls and 438 messages; it lives with the shared recordings.
const s08 = "../../shared/testdata/s08-long-run/run.jsonl"

func openS08(b *testing.B) Model {
	if _, err := os.Stat(s08); err != nil {
		b.Skip("s08-long-run is not here:", err)
	}
	m := open(b, fileConfig(s08), 120, 40)
	// the middle of the run, pins moved off the recorded 2 so that every
	// keepRecentTurns change below is a real replay
	return press(m, ":", "1", "0", "0", "enter", "}")
}

// BenchmarkKnobChange is one knob key on s08: window.Run over all 201
// calls, the ledger and the fate comparison at the call, and one frame.
func BenchmarkKnobChange(b *testing.B) { inColour(b, benchKnobChange) }

func benchKnobChange(b *testing.B) {
	m := openS08(b)
	knobs := []string{"]", "["}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = press(m, knobs[i%2])
		if m.s.replaying {
			b.Fatal("the replay did not come back")
		}
		_ = m.View()
	}
}

// BenchmarkCallStep is one step to the next (or previous) call on s08
// and the frame that shows it.
func BenchmarkCallStep(b *testing.B) { inColour(b, benchCallStep) }

func benchCallStep(b *testing.B) {
	m := openS08(b)
	steps := []string{"l", "h"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = press(m, steps[i%2])
		_ = m.View()
	}
}

// inColour runs bench without colour (as the goldens) and in true colour
// (as most terminals), where every style writes escape codes.
func inColour(b *testing.B, bench func(*testing.B)) {
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		b.Run(map[termenv.Profile]string{termenv.Ascii: "ascii", termenv.TrueColor: "truecolor"}[p], func(b *testing.B) {
			lipgloss.SetColorProfile(p)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			bench(b)
		})
	}
}
