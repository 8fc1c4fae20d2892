package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/tui/theme"
)

func typed(s string) []string { return strings.Split(s, "") }

// web-1c94d2 is in five messages of the demo (wire.json). At call 10,
// enter goes to the first hit still in the conversation there: the
// fourth, an assistant text sent on calls 6–12.
func TestGoldenSearchHitInView(t *testing.T) {
	cfg := fileConfig(demoLog)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		pressing(":", "1", "0", "enter"),
		step{keys: append(append([]string{"/"}, typed("web-1c94d2")...), "enter"), wait: "hit 4 of 5"}))
}

// N three times from there: the first hit, the list_hosts result, which
// the library sent on calls 2–7 and which is gone at call 10.
func TestGoldenSearchHitGone(t *testing.T) {
	cfg := fileConfig(demoLog)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		pressing(":", "1", "0", "enter"),
		step{keys: append(append([]string{"/"}, typed("web-1c94d2")...), "enter"), wait: "hit 4 of 5"},
		// the list_hosts turn is rendered in the background: wait for it
		// (a wait consumes the output it read, so this is the only one)
		step{keys: []string{"N", "N", "N"}, wait: `"id": "»web-1c94d2«"`})) // without colour a hit is set in » «
}

// The light theme, in 256 colours: s01 call 5 as TestGoldenS01Call5,
// every colour from the light side of the style sheet.
func TestGoldenLightTheme(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	if err := theme.ApplyTheme(theme.ThemeLight, ""); err != nil {
		t.Fatal(err)
	}
	defer func() {
		lipgloss.SetColorProfile(termenv.Ascii)
		lipgloss.SetHasDarkBackground(true)
	}()
	// the colours split "call 1/9"; the iteration is one styled piece
	teatest.RequireEqualOutput(t, screen(t, fileConfig(s01), goldenW, goldenH, "(iteration 1)",
		pressing("l", "l", "l", "l")))
}

// longRun writes a 200-call run shaped like s08-long-run (rungen: results
// of 100..6000 chars, keepRecentTurns 4, pins 2); s08 itself is 14 MB.
func longRun(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Default(200)); err != nil {
		t.Fatal(err)
	}
	return path
}

// At call 150 of a long run the conversation has well over a hundred
// turns, almost all gone: they fold into one row (the list then holds
// the request, the fold, a notice, and the turns in the window).
func TestGoldenLongRunFolded(t *testing.T) {
	cfg := fileConfig(longRun(t))
	cfg.Name = "long-run (rungen, 200 calls)"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/200",
		pressing(":", "1", "5", "0", "enter")))
}

// s09 runs token-budget: the token row is scaled to its threshold (a
// full block is at or over it, as the label says), and the calls whose
// previous input went over it are where turns were evicted (×).
func TestGoldenTimelineTokenBudget(t *testing.T) {
	teatest.RequireEqualOutput(t, screen(t, fileConfig("../testdata/s09-token-budget/run.jsonl"), goldenW, goldenH, "call 1/", pressing("G")))
}

// The transcript of s01's call 5: wire.json's seven messages in order,
// the request first, the width of the screen.
func TestGoldenTranscript(t *testing.T) {
	teatest.RequireEqualOutput(t, screen(t, fileConfig(s01), goldenW, goldenH, "call 1/9",
		pressing(":", "5", "enter"), step{keys: []string{"v"}, wait: "┃#3 "})) // rendered in a tea.Cmd: wait for the text
}
