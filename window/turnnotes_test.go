package window

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// slowTurnLog is r's turn log (and its lines' logs) built the slow way:
// every turn of every window looked at, no notes read, nothing known.
func slowTurnLog(r *Replay) *Replay {
	s := &Replay{Policy: r.Policy, Policies: r.Policies, Lineage: r.Lineage, Calls: r.Calls, Problems: r.Problems}
	slowLog = true
	defer func() { slowLog = false }()
	s.turnLog()
	return s
}

// sameLog fails t unless fast's turn log, and each of its lines', is
// slow's.
func sameLog(t *testing.T, name string, slow, fast *Replay) {
	t.Helper()
	fast.turnLog()
	logs := func(r *Replay) [][]logEntry {
		out := [][]logEntry{r.log}
		for _, v := range r.views {
			out = append(out, v.log)
		}
		return out
	}
	want, got := logs(slow), logs(fast)
	if len(got) != len(want) {
		t.Fatalf("%s: %d logs, want %d", name, len(got), len(want))
	}
	for li := range want {
		if len(got[li]) != len(want[li]) {
			t.Fatalf("%s log %d: %d turns, want %d", name, li, len(got[li]), len(want[li]))
		}
		for j := range want[li] {
			a, b := want[li][j], got[li][j]
			if a.key != b.key || a.first != b.first || a.left != b.left || a.wroteAt != b.wroteAt || a.placeholder != b.placeholder || a.head() != b.head() || !sameMessages(a.msgs, b.msgs) {
				t.Fatalf("%s log %d turn %d: %+v, want %+v", name, li, j, b, a)
			}
		}
	}
}

// noteCount counts the calls of r the replay noted, and those whose
// notes skip what the call before knew.
func noteCount(r *Replay) (noted, skipping int) {
	for i := range r.Calls {
		if ns := r.Calls[i].notes; ns != nil {
			noted++
			if ns[0] > 0 {
				skipping++
			}
		}
	}
	return noted, skipping
}

// TestNotedLogIsTheScannedLog: the turn log built from what the replay
// noted of each call (turnnotes.go), and from what each window added to
// the one before (known), is the log that looks at every turn of every
// window: on every recording (branched conversations, interleaved agents,
// summarize-oldest among them), long runs, and runs split on two
// goroutines (the second half's notes taken from where it was taken),
// under the recorded policy and others.
func TestNotedLogIsTheScannedLog(t *testing.T) {
	paths := recordingPaths(t, true)
	type source struct {
		name string
		rec  *model.Recording
	}
	srcs := []source{{"long", longRun(1500)}, {"delivering", longRunDelivering(1500, 7)}, {"asking", GeneratedRun(1500, 5, 40)}}
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, source{filepath.Base(filepath.Dir(path)), rec})
	}
	noted, skipping, branched, begun, begunUntil := 0, 0, 0, 0, 0
	streamed, streamedAliased := 0, 0 // logs stepped over a second half as it ran (streamLog), with made messages read as the first half's
	splitStreamed = func(aliased int) {
		streamed++
		if aliased > 0 {
			streamedAliased++
		}
	}
	followed := 0 // logs the second half stepped over the first half's calls as they were made (followLog)
	splitFollowed = func() { followed++ }
	defer func() { splitStreamed, splitFollowed = nil, nil }()
	for _, src := range srcs {
		inf := Infer(src.rec)
		near := RunFolds(src.rec, lineage.Decide(src.rec), inf.Policy, inf.Folds)
		for _, k := range []int{1, 2, inf.Policy.KeepRecentTurns, inf.Policy.KeepRecentTurns + 1} {
			p := inf.Policy
			p.KeepRecentTurns = k
			// split: the first half begins the log while the second
			// runs (logpart.go); whole: over every call of its own;
			// until: whole, in a replay a knob key may give up; follow:
			// the second half ends first and steps the log over the
			// first half's calls as they are made
			for _, split := range []string{"no", "yes", "whole", "until", "follow"} {
				name := fmt.Sprintf("%s-K%d-split=%v", src.name, k, split)
				r := RunFolds(src.rec, lineage.Decide(src.rec), p, inf.Folds)
				if split != "no" {
					least, warm := 500, 64
					if src.rec != srcs[0].rec && src.rec != srcs[1].rec && src.rec != srcs[2].rec {
						least, warm = 4, 1
					}
					was, wasWarm := splitMin, splitWarm
					splitMin, splitWarm, splitLogWhole = least, warm, split == "whole" || split == "until"
					splitFirstWaits = split == "follow"
					// runFolds is RunNear (and RunNearUntil) before the
					// log is finished, so that what it began shows
					var stop func(*CallReplay) bool
					if split == "until" {
						quit := new(atomic.Bool)
						stop = func(*CallReplay) bool { return quit.Load() }
					}
					r = runFolds(src.rec, lineage.Decide(src.rec), p, inf.Folds, near, stop)
					splitMin, splitWarm, splitLogWhole, splitFirstWaits = was, wasWarm, false, false
				}
				if r.part != nil && r.part.upTo > 0 {
					begun++
					if split == "until" {
						begunUntil++
					}
				}
				sameLog(t, name, slowTurnLog(r), r)
				n, s := noteCount(r)
				noted, skipping = noted+n, skipping+s
				if r.Branches() {
					branched++
				}
			}
		}
	}
	if noted == 0 || skipping == 0 || branched == 0 || begun == 0 || begunUntil == 0 || streamed == 0 || streamedAliased == 0 || followed == 0 {
		t.Errorf("%d calls noted, %d of them skipping what the call before knew; %d branched replays; %d logs begun by the replay (%d of them by one that may be given up); %d stepped over a second half as it ran (%d reading its made messages as the first half's); %d stepped by the second half over the first's", noted, skipping, branched, begun, begunUntil, streamed, streamedAliased, followed)
	}
	t.Logf("%d logs stepped over a second half as it ran, %d reading its made messages as the first half's; %d stepped by the second half over the first's", streamed, streamedAliased, followed)
}

// TestSplitWindowsHoldTheReplaysNotices: after a run split on two
// goroutines, every notice in a window is one a call of the replay
// wrote — never the second half's own, written before its calls were
// taken (remap puts the first half's in their place, also in windows
// that share memory with the window before).
func TestSplitWindowsHoldTheReplaysNotices(t *testing.T) {
	splitting(t, 500, 64)
	for i, p := range []model.Policy{
		{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 2},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 2},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 0},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 9, KeepLastToolResults: 1, NoAnchor: true},
		{Strategy: model.TokenBudget, KeepRecentTurns: 4, KeepLastToolResults: 2, ThresholdTokens: 3000},
	} {
		rec := []*model.Recording{longRun(1500), longRunDelivering(1500, 7), GeneratedRun(1500, 5, 40)}[i%3]
		near := RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}, nil)
		r := RunNear(rec, lineage.Decide(rec), p, nil, near)
		written := map[*model.Message]bool{}
		for ci := range r.Calls {
			v := &r.Calls[ci].Visit
			if v.Notice != nil {
				written[v.Notice] = true // in After
			}
			for _, w := range [][]*model.Message{v.Before, v.After, v.Evicted} {
				for _, m := range w {
					if m.ID == 0 && !written[m] {
						t.Fatalf("K%d call %d: a notice no call of the replay wrote: %q", p.KeepRecentTurns, ci, m.Content)
					}
				}
			}
		}
	}
}

// TestKeyedReadsBackEveryKey: every turn of a log is found by its key,
// and a key written otherwise than name writes it finds none.
func TestKeyedReadsBackEveryKey(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/demo-incident/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	r := RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, nil)
	notices := 0
	for i, e := range r.turnLog() {
		if j, ok := r.keyed(e.key); !ok || j != i {
			t.Fatalf("key %q: place %d, %v; want %d", e.key, j, ok, i)
		}
		if e.wroteAt >= 0 {
			notices++
		}
	}
	if notices == 0 {
		t.Fatal("no notice in the log")
	}
	first := r.log[0].key
	for _, k := range []string{"m", "m+" + first[1:], "m0" + first[1:], "m-1", "notice@", "notice@-0", "notice@+1", "m99999999999999999999", "x"} {
		if i, ok := r.keyed(k); ok {
			t.Errorf("key %q found turn %d", k, i)
		}
	}
}

// The first half steps the log over the second half's calls while the
// second half still makes them (streamLog): the log is the one that looks
// at every turn of every window, and under -race no call is read before
// it is written. The run is long enough that the second half is often
// still at work when the first has logged its own calls.
func TestStreamedLogWhileTheSecondHalfRuns(t *testing.T) {
	rec := longRunDelivering(12000, 7)
	inf := Infer(rec)
	near := RunFolds(rec, lineage.Decide(rec), inf.Policy, inf.Folds)
	streamed := 0
	splitStreamed = func(int) { streamed++ }
	splitLogWhole = true
	defer func() { splitStreamed, splitLogWhole = nil, false }()
	for _, k := range []int{inf.Policy.KeepRecentTurns + 1, inf.Policy.KeepRecentTurns + 2, 2} {
		p := inf.Policy
		p.KeepRecentTurns = k
		r := RunNearUntil(rec, lineage.Decide(rec), p, inf.Folds, near, new(atomic.Bool), nil)
		if r == nil {
			t.Fatalf("K=%d: the replay was given up", k)
		}
		sameLog(t, fmt.Sprintf("K=%d", k), slowTurnLog(r), r)
	}
	if streamed == 0 {
		t.Error("no log was stepped over a second half")
	}
}

// Given up while the first half steps the log over the second's calls,
// a replay stops where it was told to, as one that never split: the
// calls before are those of a whole replay, and none after.
func TestGivenUpWhileTheLogFollowsTheSecondHalf(t *testing.T) {
	rec := longRunDelivering(12000, 7)
	inf := Infer(rec)
	near := RunFolds(rec, lineage.Decide(rec), inf.Policy, inf.Folds)
	p := inf.Policy
	p.KeepRecentTurns++
	whole := RunFolds(rec, lineage.Decide(rec), p, inf.Folds)
	streamed := 0
	splitStreamed = func(int) { streamed++ }
	splitLogWhole = true
	defer func() { splitStreamed, splitLogWhole = nil, false }()
	const last = 9000 // past the middle: the second half's
	var gaveUp atomic.Bool
	r := runFolds(rec, lineage.Decide(rec), p, inf.Folds, near, func(c *CallReplay) bool {
		if c.Call.Number > last {
			gaveUp.Store(true)
		}
		return gaveUp.Load() // as a quit: once set, set for good
	})
	if streamed != 0 {
		t.Error("the log was stepped over every call of the second half of a replay given up")
	}
	if len(r.Calls) != last+1 {
		t.Fatalf("given up after call %d: %d calls kept, want %d", last+1, len(r.Calls), last+1)
	}
	for i := range r.Calls {
		a, b := r.Calls[i].Visit.After, whole.Calls[i].Visit.After
		if !slices.EqualFunc(a, b, func(x, y *model.Message) bool { return x.Role == y.Role && x.Content == y.Content }) {
			t.Fatalf("call %d differs from a whole replay's", i+1)
		}
	}
}
