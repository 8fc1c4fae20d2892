package cli

import (
	"fmt"
	"io"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
)

// Files of many runs: N follow-ups of one conversation, N independent
// conversations, each loaded alone and then reported (`inspect report`:
// load, link, infer, replay, print). Doubling N should about double the
// time.
func BenchmarkFollowUpsReport(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		benchmarkConversations(b, fmt.Sprintf("%dk", n/1000), rungen.FollowUpChain(n))
	}
}

// The same follow-ups written at tier minimal: each run's last window is
// not in the log, so a follow-up is linked across two visits (§16.3).
func BenchmarkMinimalFollowUpsReport(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		benchmarkConversations(b, fmt.Sprintf("%dk", n/1000), rungen.FollowUpChain(n).AtTierMinimal())
	}
}

func BenchmarkIndependentReport(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		benchmarkConversations(b, fmt.Sprintf("%dk", n/1000), rungen.Independent(n))
	}
}

func benchmarkConversations(b *testing.B, name string, c rungen.Conversations) {
	path, size, err := rungen.CachedConversations(c)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(name+"/load", func(b *testing.B) {
		b.SetBytes(size)
		cpu := cpuTime()
		for b.Loop() {
			if _, err := loader.StartLimited(path, 0).Wait(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run(name+"/report", func(b *testing.B) {
		b.SetBytes(size)
		cpu := cpuTime()
		for b.Loop() {
			if code := run([]string{"report", path}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("exit status %d", code)
			}
		}
		b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
}
