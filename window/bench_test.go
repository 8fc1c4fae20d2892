package window_test

import (
	"os"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// s08 is the 201-call recording; benchmarks read it from the library's
// recordings beside the clone when they are there.
const s08 = "../../shared/testdata/s08-long-run/run.jsonl"

func BenchmarkReplayS08(b *testing.B) {
	if _, err := os.Stat(s08); err != nil {
		b.Skip("s08-long-run not beside the repo")
	}
	rec, err := loader.StartLimited(s08, 0).Wait()
	if err != nil {
		b.Fatal(err)
	}
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r := window.Run(rec, p)
		if len(r.Calls) != 201 {
			b.Fatalf("%d calls", len(r.Calls))
		}
	}
}

func BenchmarkReplay10k(b *testing.B) {
	rec := window.GeneratedRun(10_000, 0, 0) // no new request: one anchor throughout
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		window.Run(rec, p)
	}
}
