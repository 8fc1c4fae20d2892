package compare

import (
	"strconv"
	"sync"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
)

// BenchmarkCompareGenerated is the whole of a comparison of two
// generated logs (scripts/genlog; the same file on both sides, B under
// keepRecentTurns 5 so that its windows differ): both loaded, opened,
// replayed, judged and lined up; BenchmarkLoadBothGenerated is the two
// loads and opens alone, for the ratio. -bench 'Generated/16000' is the
// 1 GB pair (scripts/bench-diff.sh times the command).
func BenchmarkCompareGenerated(b *testing.B) {
	benchPair(b, func(path string) {
		var sa, sb *study.Study
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); sa = openGenerated(b, path, model.Knobs{}) }()
		go func() { defer wg.Done(); sb = openGenerated(b, path, model.Knobs{KeepRecentTurns: study.Int(5)}) }()
		wg.Wait()
		if c := Runs(sa, sb, Only{}); len(c.Pairs) == 0 {
			b.Fatal("no pairs")
		}
	})
}

func BenchmarkLoadBothGenerated(b *testing.B) {
	benchPair(b, func(path string) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); openGenerated(b, path, model.Knobs{}) }()
		go func() { defer wg.Done(); openGenerated(b, path, model.Knobs{KeepRecentTurns: study.Int(5)}) }()
		wg.Wait()
	})
}

func benchPair(b *testing.B, run func(path string)) {
	for _, calls := range []int{400, 16000} {
		b.Run(strconv.Itoa(calls), func(b *testing.B) {
			path, size, err := rungen.Cached(rungen.Default(calls))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(2 * size)
			for b.Loop() {
				run(path)
			}
		})
	}
}

func openGenerated(b *testing.B, path string, k model.Knobs) *study.Study {
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		b.Error(err)
		return nil
	}
	s, err := study.Open(rec, study.Request{Knobs: k})
	if err != nil {
		b.Error(err)
	}
	return s
}
