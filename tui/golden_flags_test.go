package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

// The header and the values (i) of what §10 flags, at 80×24 and 120×40.

const v956 = "../testdata/v9.56.0-demo-evidence/run.jsonl"

func TestGoldenFlagsRefuted80x24(t *testing.T) {
	// demo call 16: "the third canary is web-3e6f41 (as the deploy record
	// says), not web-3e6f14". The library lists web-3e6f14; inspect shows
	// it refuted and does not count it: the header says 3 left.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, 80, 24, "call 1/16",
		pressing(":", "1", "6", "enter"), step{keys: []string{"i"}, wait: "no window policy within"}))
}

func TestGoldenFlagsRefuted120x40(t *testing.T) {
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, 120, 40, "call 1/16",
		pressing(":", "1", "6", "enter"), step{keys: []string{"i"}, wait: "no window policy within"},
		step{keys: []string{"G"}, wait: "not flagged (refuted)"}))
}

func TestGoldenFlagsTimeWindows80x24(t *testing.T) {
	// demo call 2: the two get_metrics windows 14:00-14:30Z the model
	// composed are listed, never read and not flagged (time-in-argument);
	// the header counts nothing.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, 80, 24, "call 1/16",
		pressing(":", "2", "enter"), step{keys: []string{"i"}, wait: "time-in-argument"}))
}

func TestGoldenFlagsNarration120x40(t *testing.T) {
	// v9.56.0 call 7: its text is narration (a tool call, no answer); its
	// web-7f3a2c left, but the model's read_logs call_0006 about it and
	// its result are in the window: not flagged (own-call-answered); the
	// argument web-9d4b27 typed from memory is: "args: 1 left".
	cfg := fileConfig(v956)
	cfg.Name = "v9.56.0"
	teatest.RequireEqualOutput(t, screen(t, cfg, 120, 40, "call 1/16",
		pressing(":", "7", "enter"), step{keys: []string{"i"}, wait: "would have kept it:"}))
}
