package window_test

import (
	"fmt"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// knobReplay is the replay a knob change makes on the generated log of
// calls calls (rungen.Default: recorded under keepRecentTurns 4, pins
// 2): keepRecentTurns 5, pins 3, split beside the recorded replay, as
// the screen's BenchmarkKnobAtEnd makes it. It skips when the log
// cannot be made.
func knobReplay(b *testing.B, calls int) *window.Replay {
	path, _, err := rungen.Cached(rungen.Default(calls))
	if err != nil {
		b.Skip("no generated log:", err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		b.Fatal(err)
	}
	was := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	now := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
	return window.RunNear(rec, lineage.Decide(rec), now, nil, window.RunFolds(rec, lineage.Decide(rec), was, nil))
}

// BenchmarkTurnLog is what the screen reads of a fresh replay at its
// last call: the turn log (Turns) and the ledger there (LedgerAt), on
// generated runs of 1.6k, 16k and 50k calls.
func BenchmarkTurnLog(b *testing.B) {
	for _, calls := range []int{1600, 16000, 50000} {
		b.Run(fmt.Sprintf("%dcalls", calls), func(b *testing.B) {
			r := knobReplay(b, calls)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				window.ForgetLog(r)
				if r.Turns() == 0 || r.LedgerAt(calls-1).Len() == 0 {
					b.Fatal("no turns")
				}
			}
		})
	}
}

// BenchmarkSortCalls is the replay's last step, on calls already in
// order (one run): 50,000 calls.
func BenchmarkSortCalls(b *testing.B) {
	r := window.Run(window.GeneratedRun(50_000, 0, 0), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2})
	b.ResetTimer()
	for range b.N {
		window.SortCalls(r.Calls)
	}
}
