package window_test

import (
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The generated 50k-call log, loaded once for every benchmark that reads
// it (it is 3.3 GB; the load takes tens of seconds).
var (
	gen50kOnce sync.Once
	gen50k     *model.Recording
	gen50kErr  string
)

// generated50k loads the cached 50k-call log, or skips when it is not
// cached (writing it takes minutes; `go run ./scripts/genlog` does).
func generated50k(b *testing.B) *model.Recording {
	gen50kOnce.Do(func() {
		s := rungen.Default(50_000)
		path, _, err := rungen.Cached(s)
		if err != nil {
			gen50kErr = err.Error()
			return
		}
		if gen50k, err = loader.StartLimited(path, 0).Wait(); err != nil {
			gen50k, gen50kErr = nil, err.Error()
		}
	})
	if gen50k == nil {
		b.Skip("no generated 50k log: ", gen50kErr)
	}
	return gen50k
}

// cpuTime is the CPU time the process has used (every thread: the
// replay's and the collector's), which a busy machine disturbs less than
// the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReplay50kFile replays the generated 50k-call log: serially
// (RunFolds) under its recorded policy and under the knob benchmark's,
// and split (RunNear, told a replay under keepRecentTurns 5); knob is
// what a knob key at the screen asks (RunNearUntil near the recorded
// replay, built for a screen), each round after a collection with the
// timer stopped, as the screen's settled heap is (its cpu-ns/call counts
// that collection too). It reports the time per call (wall clock, and
// CPU time of every thread) and the bytes a replay allocates; knob also
// its median, how far apart the two halves ended, and how long the
// replay went on after the later one (the turn log, the run's end, the
// ledger index).
func BenchmarkReplay50kFile(b *testing.B) {
	if _, err := os.Stat(os.TempDir()); err != nil {
		b.Skip(err)
	}
	sliding := func(k, l int) model.Policy {
		return model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l}
	}
	for _, bc := range []struct {
		name string
		p    model.Policy
		near *model.Policy
		knob bool // asked as a knob key asks (RunNearUntil, built for a screen)
	}{
		{"serial/K4L2", sliding(4, 2), nil, false},
		{"serial/K4L3", sliding(4, 3), nil, false},
		{"split/K4L3", sliding(4, 3), &model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}, false},
		{"knob/K5L3", sliding(5, 3), &model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rec := generated50k(b)
			var near *window.Replay
			if bc.near != nil {
				near = window.RunFolds(rec, lineage.Decide(rec), *bc.near, nil)
			}
			calls, knob := 0, bc.knob
			lin := lineage.Decide(rec) // a screen's, decided once
			var took, gap, after []time.Duration
			var first, second time.Duration
			if knob { // how long each half took: their imbalance, and what waits after the later
				window.SplitHalves(func(f, s time.Duration) { first, second = f, s })
				defer window.SplitHalves(nil)
			}
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				var r *window.Replay
				if knob {
					// as a screen's key finds the heap: collected (the
					// screen settles between keys), no collection running,
					// the room for the replay made
					b.StopTimer()
					runtime.GC()
					window.PrepareRoom(len(near.Calls))
					b.StartTimer()
					t0 := time.Now()
					first, second = 0, 0
					r = window.RunNearUntil(rec, lin, bc.p, nil, near, new(atomic.Bool), nil)
					took = append(took, time.Since(t0))
					if first > 0 {
						gap = append(gap, max(first, second)-min(first, second))
						after = append(after, took[len(took)-1]-max(first, second))
					}
				} else if near != nil {
					r = window.RunNear(rec, lineage.Decide(rec), bc.p, nil, near)
				} else {
					r = window.RunFolds(rec, lineage.Decide(rec), bc.p, nil)
				}
				calls = len(r.Calls)
			}
			b.StopTimer()
			if calls > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*calls), "cpu-ns/call")
			}
			for _, m := range []struct {
				d    []time.Duration
				name string
			}{{took, "ms-median"}, {gap, "ms-halves-apart"}, {after, "ms-after-halves"}} {
				if len(m.d) > 0 {
					slices.Sort(m.d)
					b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1e3, m.name)
				}
			}
		})
	}
}
