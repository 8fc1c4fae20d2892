package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

const evidenceDemo = "../testdata/demo-evidence/run.jsonl"

func TestGoldenEvidenceAnswerCall13(t *testing.T) {
	// demo-evidence's README: the answer at call 13 names values in view
	// (web-7f3a2c, 2.42.0, checkout#2291, 9c1e4b7, 4,812, 1,822), one the
	// user typed (INC-20931), values only the evicted inventory held
	// (us-east-1b, 10.12.4.52: list_hosts call_0001, sent on 2–6), an old
	// reading (3940: get_metrics call_0004, sent on 4–7), web-9d4b27 (both
	// its sources left) and the invented web-3e6f14 (never read); the
	// library flagged the same five of 13. The README of
	// demo-evidence-k3-pins3: K=3 L=3 keeps list_hosts in view at call 13.
	// A selects call 13's response row: its line counts the flagged
	// values and the detail shows them, without another key.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		step{keys: []string{"A"}, wait: "would have kept it:"}))
}

func TestGoldenEvidenceAnswerCall13Overlay(t *testing.T) {
	// the same values in the i block, over the whole width
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		step{keys: []string{"A", "i"}, wait: "would have kept it:"}))
}

func TestGoldenEvidenceToolTurnStrip(t *testing.T) {
	// call 7's visit evicts list_hosts call_0001 (sent on 2–6) and the
	// cursor lands on it: its strip shows it in view on 2–6, and used
	// while out of view at 7 (get_metrics web-9d4b27, typed from memory),
	// 13 and 16 (the two answers) — README (i), calls 13 and 16.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		step{keys: []string{":", "7", "enter"}, wait: "used out of view at calls 7"}))
}

func TestGoldenEvidenceNextFlaggedArgs(t *testing.T) {
	// With I, x stops on arguments too, on flagged values only (§10.2):
	// from call 1 it passes calls 2 and 4, whose time windows are the
	// model's query bounds, and goes to call 7, which types web-9d4b27
	// from memory at the very call list_hosts left (README (i)). The
	// block lists it under the arguments, apart from the text, which is
	// narration: call 7 is no answer.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		pressing("I", "x"), step{keys: []string{"i"}, wait: "would have kept it:"}))
}

func TestGoldenEvidenceSuggestionApplied(t *testing.T) {
	// K applies keepRecentTurns 2→3 and keepLastToolResults 2→3 at call
	// 13: demo-evidence-k3-pins3 recorded that policy, and its library
	// verdict at call 13 is 2 unsupported — 3940 and web-3e6f14; the
	// inventory's values are in view.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		step{keys: []string{"A"}, wait: "would have kept it:"},
		// the search for 3940 is asked once the replay is on screen, so its
		// answer comes last
		step{keys: []string{"K"}, wait: "no window policy within"}))
}

func TestGoldenEvidenceToSource(t *testing.T) {
	// From the answer at call 13, tab selects the second value that left
	// (10.12.4.52) and enter goes to call 6, the last call whose window
	// held its source, list_hosts call_0001 (README: sent on 2–6).
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		step{keys: []string{"A", "i"}, wait: "would have kept it:"},
		// wait for the turn's background render (the flash comes first)
		step{keys: []string{"tab", "enter"}, wait: `"service": "checkout"`}))
}
