package cli

import (
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

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
		b.ReportMetric((cpuTime() - cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run(name+"/report", func(b *testing.B) {
		b.SetBytes(size)
		cpu := cpuTime()
		for b.Loop() {
			if code := run([]string{"report", path}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("exit status %d", code)
			}
		}
		b.ReportMetric((cpuTime() - cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
}

// cpuTime is the CPU time the process has used (user + system): the
// machine is shared, and the time it takes, not the wall clock, says
// how the work grows.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
