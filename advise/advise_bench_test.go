package advise

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// BenchmarkAdviseDemo is the advisor's whole grid on the embedded demo
// (demo-evidence: 16 calls), every policy replayed and judged (the study
// opened once, its answer not kept between runs). Target: ≤ 0.3 s.
func BenchmarkAdviseDemo(b *testing.B) { benchAdvise(b, "../testdata/demo-evidence/run.jsonl") }

// BenchmarkAdvise16k is the grid on a generated log of 16,000 calls
// (~1 GB, scripts/genlog): load and inference outside the timer. Target,
// with the load: ≤ 10 s on 2 cores (scripts/bench-compare.sh advise).
func BenchmarkAdvise16k(b *testing.B) {
	path, size, err := rungen.Cached(rungen.Default(16000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	benchAdvise(b, path)
}

// BenchmarkAdviseAgents is the grid on n copies of s01, each its own
// agent (scripts/genlog -copies N): each doubling should cost about
// twice as much.
func BenchmarkAdviseAgents(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			data := agentsLog(b, n)
			rec, err := loader.StartReader(bytes.NewReader(data), "agents.jsonl", int64(len(data))).Wait()
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			benchStudy(b, rec)
		})
	}
}

func benchAdvise(b *testing.B, path string) {
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		b.Fatal(err)
	}
	benchStudy(b, rec)
}

func benchStudy(b *testing.B, rec *model.Recording) {
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		b.Fatal(err)
	}
	s.Replay()
	rows := 0
	for b.Loop() {
		out, err := Files(context.Background(), []*study.Study{s}, "", nil)
		if err != nil || len(out) == 0 {
			b.Fatal(err)
		}
		rows = len(out[0].Rows)
	}
	b.ReportMetric(float64(rows), "policies")
}

// BenchmarkAdviseFollowUps is the grid on one conversation of n
// follow-ups (scripts/genlog -followups N): each doubling should cost
// about twice as much, the replays' histories shared from run to run.
func BenchmarkAdviseFollowUps(b *testing.B) {
	for _, n := range []int{4000, 8000, 16000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path, size, err := rungen.CachedConversations(rungen.FollowUpChain(n))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			benchAdvise(b, path)
		})
	}
}
