package provenance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// judgeAll is every call's evidence of rec replayed under p, as JSON,
// asked in call order (each chain's gone list extended) or backwards
// (each listed afresh).
func judgeAll(t *testing.T, rec *model.Recording, p model.Policy, backwards bool) []string {
	t.Helper()
	r := window.RunFolds(rec, lineage.Decide(rec), p, nil)
	b := New(rec, r)
	out := make([]string, len(r.Calls))
	for k := range r.Calls {
		i := k
		if backwards {
			i = len(r.Calls) - 1 - k
		}
		j, err := json.Marshal(b.Call(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(j)
	}
	return out
}

// The flags found through the indexes of the messages gone (leftInside,
// nearest) are the plain scan's, on every recording of testdata under
// policies that keep less and more, asked in order and backwards, with
// every message indexed for nearest at once (so that the index, not the
// scan of what is not indexed yet, answers) and as an export indexes
// them; and some of them do name a message gone.
func TestGoneIndexesAnswerAsTheScan(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "run.jsonl"))
	if len(paths) < 20 {
		t.Fatalf("%d recordings in testdata", len(paths))
	}
	policies := []model.Policy{
		{Strategy: model.SlidingWindow, KeepRecentTurns: 1, KeepLastToolResults: 0},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2},
		{Strategy: model.TokenBudget, ThresholdTokens: 2000},
	}
	defer func(after int) { nearIndexAfter, goneIndexed = after, true }(nearIndexAfter)
	var left, near int
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(path, err)
		}
		for _, p := range policies {
			for _, backwards := range []bool{false, true} {
				goneIndexed = false
				want := judgeAll(t, rec, p, backwards)
				goneIndexed = true
				for _, c := range []struct {
					after   int
					collide bool
				}{{0, false}, {64, false}, {0, true}} {
					nearIndexAfter = c.after
					if c.collide { // three hashes for every string: only more forms to measure
						deletionMix = func(h uint64) uint64 { return h % 3 }
					}
					got := judgeAll(t, rec, p, backwards)
					deletionMix = mix
					for i := range want {
						if got[i] != want[i] {
							t.Errorf("%s %+v backwards %v, indexed after %d, hashes collide %v: call %d\n got %s\nwant %s", path, p, backwards, c.after, c.collide, i, got[i], want[i])
						}
					}
				}
				for _, j := range want {
					var ce CallEvidence
					if err := json.Unmarshal([]byte(j), &ce); err != nil {
						t.Fatal(err)
					}
					for _, e := range ce.Values {
						if e.LeftInside != nil {
							left++
						}
						if e.Nearest != nil && !e.Nearest.InView {
							near++
						}
					}
				}
			}
		}
	}
	if left == 0 || near == 0 {
		t.Errorf("the recordings name %d left-inside and %d nearest gone: the test compares nothing", left, near)
	}
	t.Logf("%d left-inside, %d nearest gone", left, near)
}

// generated is a run of n calls written by rungen (small results),
// replayed under keepRecentTurns 7 and 4 pins: each call's argument is
// its number, which no result holds yet (never-read from call 1000,
// when the number is a value).
func generated(t testing.TB, n int) (*model.Recording, *window.Replay) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Spec{Calls: n, Seed: 8, MinResult: 100, MaxResult: 300, KeepRecent: 4, KeepPins: 2}); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 7, KeepLastToolResults: 4}
	return rec, window.RunFolds(rec, lineage.Decide(rec), p, nil)
}

// The messages gone that the flags ask of, per never-read value, do not
// grow with the run: a run twice as long asks about as many per value
// (the scan asked of every message gone, twice as many).
func TestGoneAskedPerValueIsFlat(t *testing.T) {
	perValue := func(n int) float64 {
		rec, r := generated(t, n)
		b := Walk(rec, r)
		defer b.Stop()
		values := 0
		for i := range r.Calls {
			for _, e := range b.Call(i).Values {
				if e.Own() == evidence.NeverRead {
					values++
				}
			}
		}
		if values < 100 {
			t.Fatalf("%d calls: %d never-read values", n, values)
		}
		return float64(b.goneAsked) / float64(values)
	}
	short, long := perValue(1300), perValue(2600)
	if long > 1.25*short+1 {
		t.Errorf("messages gone asked per never-read value: %.1f at 1,300 calls, %.1f at 2,600", short, long)
	}
	t.Logf("per never-read value: %.1f, %.1f", short, long)
}

// BenchmarkFlagsPerCall judges every call of a generated run (small
// results; never-read values from call 1000 on) under keepRecentTurns 7
// and 4 pins, as an export does: the cost per never-read value (whose
// share of the calls grows with n) stays flat as the calls double (the
// flags once scanned every message gone at every call).
func BenchmarkFlagsPerCall(b *testing.B) {
	for _, n := range []int{1500, 3000, 6000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rec, r := generated(b, n)
			b.ResetTimer()
			values := 0
			for range b.N {
				bk := Walk(rec, r)
				for i := range r.Calls {
					for _, e := range bk.Call(i).Values {
						if e.Own() == evidence.NeverRead {
							values++
						}
					}
				}
				bk.Stop()
			}
			ns := float64(b.Elapsed().Nanoseconds())
			b.ReportMetric(ns/float64(b.N*n), "ns/call")
			b.ReportMetric(ns/float64(max(values, 1)), "ns/never-read")
		})
	}
}
