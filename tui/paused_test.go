package tui

import (
	"strings"
	"testing"
)

// c07 pauses twice for a person and is resumed twice (three runIds). A
// paused run has no turn_end because it stopped for the person, not because
// the log was cut: the header says "paused, resumed later", not
// "unfinished"; the last run ended and says neither.
func TestPausedRunIsNotCalledUnfinished(t *testing.T) {
	m := open(t, fileConfig("../testdata/c07-paused-tool/run.jsonl"), 160, 40)
	if m.s == nil {
		t.Fatalf("c07 did not load: %v", m.err)
	}
	header := func() string { return m.header.View() }
	if !strings.Contains(header(), "paused, resumed later") || strings.Contains(header(), "unfinished") {
		t.Fatalf("call 1 of run 1 (paused at iteration 5): header\n%s", header())
	}
	m = press(m, "G")
	if strings.Contains(header(), "resumed later") || strings.Contains(header(), "unfinished") {
		t.Fatalf("the last call (the run that ended): header\n%s", header())
	}
}
