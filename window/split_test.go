package window

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// longRun is a one-run recording of n calls: six tools with results of
// 100..6000 chars, and every 97th call a new request from the person
// (the anchor moves, the pins are released), deterministically. Every
// message is measured, as the loader's are.
func longRun(n int) *model.Recording { return GeneratedRun(n, 0, 97) }

// longRunDelivering is longRun, with a note delivered after every
// every-th call (0: none), as an injection delivers one (§10.6).
func longRunDelivering(n, every int) *model.Recording { return GeneratedRun(n, every, 97) }

// GeneratedRun is a one-run recording of n calls (see longRun), a note
// delivered after every every-th call and a new request every ask-th
// (0: none). Exported for the benchmarks of package window_test.
func GeneratedRun(n, every, ask int) *model.Recording {
	id := 0
	next := func(m *model.Message) *model.Message { id++; m.ID = id; m.Chars(); return m }
	tools := []string{"search", "read", "query", "list", "grep", "stat"}
	req := next(&model.Message{Role: model.RoleUser, Content: "investigate"})
	run := &model.Run{Index: 1, RunID: "r1", Request: req.Content, RequestMessage: req, Strategy: model.SlidingWindow}
	seed := uint32(7)
	for i := 1; i <= n; i++ {
		seed = seed*1664525 + 1013904223
		name := tools[seed%6]
		size := 100 + int(seed>>8)%5900
		cid := fmt.Sprintf("call_%d", i)
		var out []*model.Message
		if ask > 0 && i%ask == 0 {
			out = append(out, next(&model.Message{Role: model.RoleUser, Content: fmt.Sprintf("now look at part %d", i)}))
		}
		a := next(&model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: cid, Name: name, Args: []byte(`{}`)}}})
		t := next(&model.Message{Role: model.RoleTool, ToolCallID: cid, ToolName: name, Content: strings.Repeat("x", size)})
		out = append(out, a, t)
		c := &model.Call{Number: i, Iteration: i, Appended: out, Usage: model.Usage{Input: 1000 + size, Output: 10}, Measured: true}
		if every > 0 && i%every == 0 {
			c.Recorded, c.Deliveries = []*model.Message{next(&model.Message{Role: model.RoleUser, Content: fmt.Sprintf("note %d", i)})}, 1
		}
		run.Calls = append(run.Calls, c)
	}
	return &model.Recording{Runs: []*model.Run{run}}
}

// splitting sets how long a run must be to be split and how long the
// second half warms up, for one test.
func splitting(t *testing.T, least, warm int) {
	was, wasWarm := splitMin, splitWarm
	splitMin, splitWarm = least, warm
	t.Cleanup(func() { splitMin, splitWarm = was, wasWarm })
}

// sameReplay fails t unless a and b are the same replay: the same calls
// with the same visits, the recorded messages the same objects, the
// messages a replay made saying the same, and the same ledger at every
// call (at forty calls of a long run).
func sameReplay(t *testing.T, a, b *Replay) {
	t.Helper()
	if len(a.Calls) != len(b.Calls) || !reflect.DeepEqual(a.Problems, b.Problems) {
		t.Fatalf("%d calls, problems %q; want %d, %q", len(b.Calls), b.Problems, len(a.Calls), a.Problems)
	}
	for i := range a.Calls {
		va, vb := &a.Calls[i].Visit, &b.Calls[i].Visit
		for _, w := range [][2][]*model.Message{{va.Before, vb.Before}, {va.After, vb.After}, {va.Evicted, vb.Evicted}} {
			if !sameMessages(w[0], w[1]) {
				t.Fatalf("call %d: the windows differ", i+1)
			}
		}
		if (va.Notice == nil) != (vb.Notice == nil) || va.Notice != nil && !sameMade(va.Notice, vb.Notice) ||
			va.Anchor != vb.Anchor || va.Engaged != vb.Engaged || !sameJSON(va.Record, vb.Record) ||
			!sameJSON(va.Pins, vb.Pins) || va.Yielded != vb.Yielded || va.StandDown != vb.StandDown ||
			va.Problem != vb.Problem || va.from != vb.from || va.to != vb.to || va.held != vb.held {
			t.Fatalf("call %d: the visits differ:\n%+v\n%+v", i+1, *va, *vb)
		}
	}
	for call := 0; call < len(a.Calls); call += max(1, len(a.Calls)/40) {
		sameLedger(t, a, b, call)
	}
	sameLedger(t, a, b, len(a.Calls)-1)
}

func sameLedger(t *testing.T, a, b *Replay, call int) {
	t.Helper()
	ra, rb := a.Ledger(call), b.Ledger(call)
	if len(ra) != len(rb) {
		t.Fatalf("call %d: %d ledger rows, want %d", call+1, len(rb), len(ra))
	}
	for i := range ra {
		x, y := ra[i], rb[i]
		if !sameMessages(x.Messages, y.Messages) {
			t.Fatalf("call %d row %d: other messages", call+1, i)
		}
		x.Messages, y.Messages = nil, nil
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("call %d row %d:\n%+v\nwant\n%+v", call+1, i, y, x)
		}
	}
}

// sameJSON: a and b write the same JSON (a nil slice and an empty one
// are the same here, as they are to everything that reads a visit).
func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y) || string(x) == "null" && string(y) == "[]" || string(x) == "[]" && string(y) == "null"
}

func sameMessages(a, b []*model.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !sameMade(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestSplitIsTheReplay: a long run replayed on two goroutines, near a
// replay under another policy, is the replay on one, for knob changes
// either way, and the second half's calls were taken (the split did
// something).
func TestSplitIsTheReplay(t *testing.T) {
	splitting(t, 500, 64)
	for _, rec := range []*model.Recording{longRun(1500), longRunDelivering(1500, 7)} {
		splitRun(t, rec)
	}
}

func splitRun(t *testing.T, rec *model.Recording) {
	recorded := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	near := RunFolds(rec, lineage.Decide(rec), recorded, nil)
	for _, p := range []model.Policy{
		recorded,
		{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 2},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 2},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 0},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 5},
		{Strategy: model.SlidingWindow, KeepRecentTurns: 9, KeepLastToolResults: 1, NoAnchor: true},
		{Strategy: model.TokenBudget, KeepRecentTurns: 4, KeepLastToolResults: 2, ThresholdTokens: 3000},
	} {
		t.Run(fmt.Sprintf("%s-K%d-L%d", p.Strategy, p.KeepRecentTurns, p.KeepLastToolResults), func(t *testing.T) {
			taken := 0
			splitTaken = func(int) { taken++ }
			defer func() { splitTaken = nil }()
			got := RunNear(rec, lineage.Decide(rec), p, nil, near)
			if taken != 1 {
				t.Errorf("the second half was taken %d times, want once", taken)
			}
			want := RunFolds(rec, lineage.Decide(rec), p, nil)
			sameReplay(t, want, got)
			sameTally(t, want, got)
		})
	}
}

// sameTally fails t unless got, a replay that may have split, scored the
// recorded windows as want did and met the same problems: what the end
// of its runs tallied (split.go makes it as the halves make their calls).
func sameTally(t *testing.T, want, got *Replay) {
	t.Helper()
	if want.growth == nil || got.growth == nil {
		t.Fatal("a replay without its growth")
	}
	if got.growth.score() != want.growth.score() || !reflect.DeepEqual(got.growth.problems(), want.growth.problems()) {
		t.Errorf("scored %+v with problems %q, want %+v, %q", got.growth.score(), got.growth.problems(), want.growth.score(), want.growth.problems())
	}
}

// TestSplitRecordings: every recording's runs split wherever they can be
// (the second half from the third call), near its replay under another
// policy, give the replay on one goroutine — where the halves meet and
// where they never do.
func TestSplitRecordings(t *testing.T) {
	paths := recordingPaths(t, false)
	splitting(t, 4, 1)
	taken, tried := 0, 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := Infer(rec)
		near := RunFolds(rec, lineage.Decide(rec), inf.Policy, inf.Folds)
		for _, k := range []int{1, 2, inf.Policy.KeepRecentTurns, inf.Policy.KeepRecentTurns + 1} {
			p := inf.Policy
			p.KeepRecentTurns = k
			name := filepath.Base(filepath.Dir(path)) + fmt.Sprintf("-K%d", k)
			t.Run(name, func(t *testing.T) {
				n := 0
				splitTaken = func(int) { n++ }
				defer func() { splitTaken = nil }()
				sameReplay(t, RunFolds(rec, lineage.Decide(rec), p, inf.Folds), RunNear(rec, lineage.Decide(rec), p, inf.Folds, near))
				if p.Strategy != model.SummarizeOldest { // (without the folds: a replay that keeps its growth)
					sameTally(t, RunFolds(rec, lineage.Decide(rec), p, nil), RunNear(rec, lineage.Decide(rec), p, nil, near))
				}
				if n > 0 {
					taken++
				}
			})
			tried++
		}
	}
	if taken == 0 || taken == tried {
		t.Errorf("the second half was taken in %d of %d replays: want some, not all", taken, tried)
	}
	t.Logf("the second half was taken in %d of %d replays", taken, tried)
}

// TestInferenceReplayIsRunFolds: where the inference's own replay is
// offered, it is the replay RunFolds makes under the inferred policy.
func TestInferenceReplayIsRunFolds(t *testing.T) {
	paths := recordingPaths(t, false)
	offered := 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := Infer(rec)
		got := inf.Replay(rec)
		if got == nil {
			continue
		}
		offered++
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			want := RunFolds(rec, lineage.Decide(rec), inf.Policy, inf.Folds)
			sameReplay(t, want, got)
			if !reflect.DeepEqual(want.Policies, got.Policies) || want.Policy != got.Policy {
				t.Errorf("policies %v %v, want %v %v", got.Policy, got.Policies, want.Policy, want.Policies)
			}
			for i := range want.Calls {
				if w, g := want.Calls[i].Recorded(), got.Calls[i].Recorded(); w != g {
					t.Fatalf("call %d: %s, want %s", i+1, g, w)
				}
			}
		})
	}
	if offered < len(paths)/2 {
		t.Errorf("the inference's replay offered for %d of %d recordings", offered, len(paths))
	}
	t.Logf("offered for %d of %d recordings", offered, len(paths))
}

// TestSplitStops: a split replay with a stop (as inference's first
// candidate has) shows stop the calls in order, each once, stops where a
// replay on one goroutine stops, and without a near replay starts its
// second half from the recorded windows.
func TestSplitStops(t *testing.T) {
	paths := recordingPaths(t, false)
	splitting(t, 4, 1)
	var taken atomic.Int64 // (told by the agents' inferences, two at a time)
	stoppedLate := 0
	splitTaken = func(int) { taken.Add(1) }
	defer func() { splitTaken = nil }()
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := Infer(rec)
		if inf.Policy.Strategy == model.SummarizeOldest {
			continue
		}
		lin := lineage.Decide(rec)
		for _, k := range []int{1, inf.Policy.KeepRecentTurns, inf.Policy.KeepRecentTurns + 2} {
			p := inf.Policy
			p.KeepRecentTurns = k
			name := filepath.Base(filepath.Dir(path)) + fmt.Sprintf("-K%d", k)
			t.Run(name, func(t *testing.T) {
				run := func(split bool) (*Replay, []string) {
					var seen []string
					r := replay(rec, lin, replayOptions{policy: everyAgent(map[string]model.Policy{"": p}), split: split,
						stop: func(c *CallReplay) bool {
							seen = append(seen, fmt.Sprintf("%d:%s", c.Call.Number, c.Recorded()))
							return c.Recorded() == Differs
						}})
					return r, seen
				}
				want, wantSeen := run(false)
				got, gotSeen := run(true)
				if d := wantSeen[len(wantSeen)-1]; strings.HasSuffix(d, ":"+Differs) && len(wantSeen) > 4 {
					stoppedLate++ // stopped, past the first calls
				}
				if !reflect.DeepEqual(gotSeen, wantSeen) {
					t.Fatalf("stop saw %v, want %v", gotSeen, wantSeen)
				}
				sameReplay(t, want, got)
			})
		}
	}
	if taken.Load() == 0 || stoppedLate == 0 {
		t.Errorf("the second half (from the recorded windows) was taken %d times; %d replays stopped early", taken.Load(), stoppedLate)
	}
}

// TestSplitInference: inference whose first candidate is replayed on two
// goroutines infers what it infers on one.
func TestSplitInference(t *testing.T) {
	paths := recordingPaths(t, false)
	splitting(t, 4, 1)
	least := splitMin
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		splitMin = 1 << 30
		want := Infer(rec)
		splitMin = least
		got := Infer(rec)
		if got.Policy != want.Policy || got.Evidence != want.Evidence || got.Matched != want.Matched || got.Compared != want.Compared || got.Inferred != want.Inferred {
			t.Errorf("%s: inferred %+v, want %+v", path, got, want)
		}
	}
}

// TestCallsAreNumberedInFileOrder: a replay's calls come in file order
// of their llm_start, each with its place as Index — whether the runs
// came in that order (callInto numbered them as they were replayed) or
// were sorted after (interleaved agents, twins), split or not.
func TestCallsAreNumberedInFileOrder(t *testing.T) {
	paths := recordingPaths(t, true)
	recs := []*model.Recording{longRun(1500), longRunDelivering(1500, 7)}
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	sorted := 0
	for i, rec := range recs {
		inf := Infer(rec)
		for _, split := range []bool{false, true} {
			r := RunFolds(rec, lineage.Decide(rec), inf.Policy, inf.Folds)
			if split {
				splitting(t, 4, 1)
				r = RunNear(rec, lineage.Decide(rec), inf.Policy, inf.Folds, r)
			}
			runs := map[*model.Run]bool{}
			for ci := range r.Calls {
				c := &r.Calls[ci]
				if ci > 0 && c.Run != r.Calls[ci-1].Run && runs[c.Run] {
					sorted++ // a run's calls came back after another's: sorted after
				}
				runs[c.Run] = true
				if c.Index != ci || ci > 0 && c.Call.Number < r.Calls[ci-1].Call.Number {
					t.Fatalf("recording %d split=%v call %d: Index %d, number %d after %d", i, split, ci, c.Index, c.Call.Number, r.Calls[max(ci-1, 0)].Call.Number)
				}
			}
		}
	}
	if sorted == 0 {
		t.Error("no replay whose runs interleave")
	}
}

// RunNearUntil gives up (nil) once told to; untold, it is RunNear.
func TestRunNearUntil(t *testing.T) {
	rec := GeneratedRun(300, 0, 0)
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
	near := RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}, nil)
	var quit atomic.Bool
	r, want := RunNearUntil(rec, lineage.Decide(rec), p, nil, near, &quit, nil), RunNear(rec, lineage.Decide(rec), p, nil, near)
	if r == nil || len(r.Calls) != len(want.Calls) {
		t.Fatal("untold, RunNearUntil did not replay every call")
	}
	for i := range want.Calls {
		a, b := r.Calls[i].Visit.After, want.Calls[i].Visit.After
		if !slices.EqualFunc(a, b, func(x, y *model.Message) bool { return x.Role == y.Role && x.Content == y.Content }) {
			t.Fatalf("call %d differs from RunNear's", i+1)
		}
	}
	quit.Store(true)
	if r := RunNearUntil(rec, lineage.Decide(rec), p, nil, near, &quit, nil); r != nil {
		t.Error("told to give up, RunNearUntil returned a replay")
	}
}

// RunNearUntil runs along once on the replay it returns, which is the
// one it returns without along, its ledger built; a replay given up
// runs it not at all.
func TestRunNearUntilAlong(t *testing.T) {
	rec := GeneratedRun(300, 0, 0)
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
	near := RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}, nil)
	var quit atomic.Bool
	var saw []*Replay
	r := RunNearUntil(rec, lineage.Decide(rec), p, nil, near, &quit, func(r *Replay) { saw = append(saw, r) })
	if len(saw) != 1 || saw[0] != r {
		t.Fatalf("along ran %d times, on %p; the replay is %p", len(saw), saw, r)
	}
	want := RunNearUntil(rec, lineage.Decide(rec), p, nil, near, &quit, nil)
	for c := range want.Calls {
		same := func(x, y *model.Message) bool { return x.Role == y.Role && x.Content == y.Content }
		if !slices.EqualFunc(r.Calls[c].Visit.After, want.Calls[c].Visit.After, same) || len(r.LedgerAt(c).Rows()) != len(want.LedgerAt(c).Rows()) {
			t.Fatalf("call %d differs from the replay without along", c+1)
		}
	}
	if r.index == nil {
		t.Error("the replay came back without its ledger index")
	}
	quit.Store(true)
	saw = nil
	if r := RunNearUntil(rec, lineage.Decide(rec), p, nil, near, &quit, func(r *Replay) { saw = append(saw, r) }); r != nil || len(saw) != 0 {
		t.Errorf("told to give up: a replay %v, along ran %d times", r != nil, len(saw))
	}
}

// TestSpareRoomIsTaken: a long replay for a screen writes its calls and
// its turn log into the rooms made ahead for them (PrepareRoom), once,
// and is the replay made without them; a run too short to split, or a
// room far too big, is left spare.
func TestSpareRoomIsTaken(t *testing.T) {
	splitting(t, 500, 64)
	t.Cleanup(func() { spareRoom.Store(nil); spareLog.Store(nil) })
	rec := longRun(1500)
	recorded := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 5, KeepLastToolResults: 3}
	near := RunFolds(rec, lineage.Decide(rec), recorded, nil)
	want := RunNear(rec, lineage.Decide(rec), p, nil, near)

	PrepareRoom(len(want.Calls))
	room, logRoom := spareRoom.Load(), spareLog.Load()
	if room == nil || logRoom == nil {
		t.Fatal("no room made for a run long enough to split")
	}
	got := RunNear(rec, lineage.Decide(rec), p, nil, near)
	if spareRoom.Load() != nil || spareLog.Load() != nil {
		t.Error("the replay left a spare room spare")
	}
	if &got.Calls[0] != &(*room)[:1][0] {
		t.Error("the replay's calls are not in the room made for them")
	}
	if log := got.turnLog(); len(log) == 0 || &log[0] != &logRoom.entries[:1][0] {
		t.Error("the replay's turn log is not in the room made for it")
	}
	sameReplay(t, want, got)
	sameLog(t, "in the rooms", slowTurnLog(got), got)

	PrepareRoom(len(want.Calls) * 2)
	RunNear(rec, lineage.Decide(rec), p, nil, near)
	if spareRoom.Load() == nil || spareLog.Load() == nil {
		t.Error("a room twice the run's calls was taken")
	}
	spareRoom.Store(nil)
	spareLog.Store(nil)
	PrepareRoom(499)
	if spareRoom.Load() != nil || spareLog.Load() != nil {
		t.Error("room made for a run too short to split")
	}
}
