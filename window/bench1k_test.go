package window_test

import (
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

var gen1k *model.Recording

// BenchmarkReplay1kSerial replays the generated 1,000-call log (64 MB,
// written on first use) under the knob benchmark's policy, serially: a
// run this short is never split. It is the one to count instructions
// by (scripts/instructions.sh), which the machine's speed does not move.
func BenchmarkReplay1kSerial(b *testing.B) {
	if gen1k == nil {
		path, _, err := rungen.Cached(rungen.Default(1000))
		if err != nil {
			b.Fatal(err)
		}
		if gen1k, err = loader.StartLimited(path, 0).Wait(); err != nil {
			b.Fatal(err)
		}
	}
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
	lin := lineage.Decide(gen1k)
	b.ResetTimer()
	n := 0
	for range b.N {
		n = len(window.RunFolds(gen1k, lin, p, nil).Calls)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
}
