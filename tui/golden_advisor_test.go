package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

// The policy advisor on the embedded demo (demo-evidence). What it must
// show is the README's demo frontier (`inspect advise`): ten policies
// from sliding-window K1 L0 (≈13,566 tokens, 12 answer values out of
// view) to token-budget T2149 K3 L2 (≈50,560, none), the recorded
// sliding-window K2 L2 (≈26,036, 7) fifth, and the picks: keeps
// everything, token-budget T2149 K3 L2 at +94.2%; no worse, the recorded
// policy itself. The goldens are drawn without colour (TestMain): the
// chart's points differ by glyph.

func demoConfig() Config {
	cfg := fileConfig("../testdata/demo-evidence/run.jsonl")
	cfg.Name = "demo"
	return cfg
}

func TestGoldenAdvisorDemo(t *testing.T) {
	// the cursor one row down the frontier from the recorded policy:
	// sliding-window K4 L2, ≈34,097 tokens (+31.0%), 6 answer values out
	teatest.RequireEqualOutput(t, screen(t, demoConfig(), goldenW, goldenH, "call 1/16",
		step{keys: []string{"P"}, wait: "keeps everything: token-budget"},
		step{keys: []string{"down"}, wait: "▸ sliding-window K4 L2"}))
}

func TestGoldenAdvisorDemoSmall(t *testing.T) {
	// 80×24: the timeline gives its lines to the advisor; the table
	// whole, the chart beside it, the picks and the honest sentence
	teatest.RequireEqualOutput(t, screen(t, demoConfig(), 80, 24, "call 1/16",
		step{keys: []string{"P"}, wait: "keeps everything: budget"}))
}

func TestGoldenAdvisorApplied(t *testing.T) {
	// the final answer (call 13), then the pick that keeps everything
	// applied from the advisor: the knobs are token-budget, threshold
	// 2149, keepRecentTurns 3; the answer's 4 values that left are in
	// view, the one never read stays
	teatest.RequireEqualOutput(t, screen(t, demoConfig(), goldenW, goldenH, "call 1/16",
		step{keys: []string{"A"}, wait: "call 13/16"},
		step{keys: []string{"P"}, wait: "keeps everything: token-budget"},
		step{keys: []string{"G"}, wait: "▸ token-budget T2149 K3 L2"},
		// the header's count comes last: it waits for the values judged
		// under the replay
		step{keys: []string{"enter"}, wait: "answers: 1 never read"}))
}
