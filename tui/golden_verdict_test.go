package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

// Goldens of what the screen says of flagged values and answers
// (docs/rules/evidence.md §9). Each comment says what the recording's README
// or the spec says the screen must show.

func TestGoldenResponseRowOutcomes(t *testing.T) {
	// e02-rails (README): the revision at call 9 keeps the invented
	// web-3e6f14 and is refused — run() threw UnsupportedValuesError, the
	// caller got nothing. A lands on its response row, which counts the
	// never-read value and says refused; the detail says nothing was
	// delivered. The correction at call 8 is listed as the library's.
	// (160 columns: the row's list is wide enough for all of it.)
	cfg := fileConfig(e02)
	teatest.RequireEqualOutput(t, screen(t, cfg, 160, goldenH, "call 1/9",
		step{keys: []string{"A"}, wait: "UnsupportedValuesError"}))
}

func TestGoldenInsideTokenSentence(t *testing.T) {
	// demo-evidence call 12 (§9.2.6): the argument since:"14:31" is held
	// by restart_service call_0011's "restarted_at":"2025-03-18T14:31:07Z",
	// pinned in that window: in view inside a longer token, not "typed,
	// not read"; counted as an argument's.
	cfg := fileConfig(evidenceDemo)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		pressing(":", "1", "2", "enter"), step{keys: []string{"i"}, wait: "of restart_service call_0011"}))
}

func TestGoldenSummaryUnsupported(t *testing.T) {
	// e05b (§9.3.5): the answer's 10.12.4.25, which the summarizer
	// transposed from list_hosts' 10.12.4.52, is only in the summary, no
	// tool result held it; the header counts it.
	cfg := fileConfig(e05b)
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/7",
		step{keys: []string{"A", "i"}, wait: "nearest: 10.12.4.52"}))
}

func TestGoldenHeader80x24(t *testing.T) {
	// The demo's call 13 at 80×24: the answer's 4 left and 1 never read
	// (§9.1.2) whole on the header's second line, the file's folder and
	// name on the first.
	cfg := fileConfig(evidenceDemo)
	teatest.RequireEqualOutput(t, screen(t, cfg, 80, 24, "call 1/16",
		step{keys: []string{"A"}, wait: "1 never read"}))
}

func TestGoldenPinsRangePolicyBar(t *testing.T) {
	// c02's billing agent ran with pins off (README); every
	// keepLastToolResults 0–5 reproduces its 12 windows: the bar says the
	// log cannot tell, not pins=on. Its call 6 is the file's call 11.
	cfg := fileConfig(c02)
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		step{keys: []string{"w", "j", "enter"}, wait: "billing · conversation 2/2"}, step{keys: []string{":", "6", "enter"}, wait: "call 6/12"}))
}
