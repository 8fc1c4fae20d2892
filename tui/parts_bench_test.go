package tui

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// BenchmarkScreenParts is what a knob change does after its replay,
// before the frame: screenParts of a fresh replay (the fates against the
// recorded replay, the timeline's cells), on generated runs of 1.6k, 16k
// and 50k calls. The replay (study's View.Replay, keepRecentTurns 5,
// pins 3, beside the recorded keepRecentTurns 4, pins 2: its turn log and
// ledger index built with it) is not timed; ms-replay says what it took;
// cpu-ms-parts and cpu-ms-replay the CPU time of each (the process's,
// user + system: on a shared machine, steadier than the wall time).
func BenchmarkScreenParts(b *testing.B) {
	for _, calls := range []int{1600, 16000, 50000} {
		b.Run(fmt.Sprintf("%dcalls", calls), func(b *testing.B) {
			path, _, err := rungen.Cached(rungen.Default(calls))
			if err != nil {
				b.Skip("no generated log:", err)
			}
			rec, err := loader.StartLimited(path, 0).Wait()
			if err != nil {
				b.Fatal(err)
			}
			v := viewOf(b, rec)
			was := v.Recorded()
			now := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
			var replaying, cpuReplay, cpuParts time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				began, cpu0 := time.Now(), cpuTime()
				r := v.Replay(now, nil)
				replaying += time.Since(began)
				cpu1 := cpuTime()
				b.StartTimer()
				if d, tc := session.ScreenParts(r, was, 98); d == nil || tc == nil {
					b.Fatal("no fate diff")
				}
				cpu2 := cpuTime()
				cpuReplay, cpuParts = cpuReplay+cpu1-cpu0, cpuParts+cpu2-cpu1
			}
			per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
			b.ReportMetric(per(replaying), "ms-replay")
			b.ReportMetric(per(cpuReplay), "cpu-ms-replay")
			b.ReportMetric(per(cpuParts), "cpu-ms-parts")
		})
	}
}

// cpuTime is the CPU time the process has used (user + system).
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
