package window_test

import (
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// At the demo's call 8 the library's record pins get_deploy (turn 3) and
// get_metrics (turn 2): recording.json, run 1, iteration 8. The refusal
// walk stops at turn 2, so turn 3 carries no refusal — it is still pinned.
func TestLedgerPinnedBeyondTheWalk(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/demo-incident/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	r := window.Run(rec, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2})
	pinned := map[string]bool{}
	for _, row := range r.Ledger(7) {
		if row.Fate == window.FatePinned {
			pinned[row.PinTool] = true
		}
	}
	if !pinned["get_deploy"] || !pinned["get_metrics"] || len(pinned) != 2 {
		t.Fatalf("pinned at call 8: %v, want get_deploy and get_metrics", pinned)
	}
}
