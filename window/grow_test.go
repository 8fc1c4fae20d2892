package window

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// grownRecordings are the recordings a log that grows is checked on:
// follow-ups, agents interleaved, a paused tool, an abort then a
// follow-up, a loop, the answer check, a long run.
var grownRecordings = []string{"s05-multi-turn", "c02-interleaved-agents", "c07-paused-tool", "n02-abort-then-followup",
	"n07-loop-conditional", "e01-guard", "s01-basic-loop"}

// growingViews are the views the loader hands out of the file of
// recording name as it is written in n parts, each cut inside a line.
func growingViews(t *testing.T, name string, n int) []*model.Recording {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "live.jsonl")
	at := make([]int, 0, n)
	for k := 1; k < n; k++ {
		at = append(at, len(data)*k/n+k%7)
	}
	at = append(at, len(data))
	if err := os.WriteFile(path, data[:at[0]], 0o644); err != nil {
		t.Fatal(err)
	}
	l := loader.StartFollowing(path, 0)
	var views []*model.Recording
	for k := range at {
		if k > 0 {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(data[at[k-1]:at[k]])
			f.Close()
			if l, err = l.Continue(); err != nil {
				t.Fatal(err)
			}
		}
		rec, err := l.Wait()
		if err != nil {
			continue // nothing of an event yet
		}
		views = append(views, rec)
	}
	return views
}

// replayDiff says how two replays of one recording differ: their calls
// (each one's run, call, visit, window, comparison and notes), their
// problems, and the turn log every call's ledger reads.
func replayDiff(a, b *Replay) string {
	if len(a.Calls) != len(b.Calls) {
		return fmt.Sprintf("%d calls, want %d", len(a.Calls), len(b.Calls))
	}
	for i := range a.Calls {
		if d := valueDiff(reflect.ValueOf(a.Calls[i]), reflect.ValueOf(b.Calls[i]), "", map[[2]uintptr]bool{}); d != "" {
			return fmt.Sprintf("call %d (number %d): %s", i, a.Calls[i].Call.Number, d)
		}
	}
	if d := valueDiff(reflect.ValueOf(a.Problems), reflect.ValueOf(b.Problems), "problems", nil); d != "" {
		return d
	}
	for i := range a.Calls {
		if d := valueDiff(reflect.ValueOf(a.Ledger(i)), reflect.ValueOf(b.Ledger(i)), "", map[[2]uintptr]bool{}); d != "" {
			return fmt.Sprintf("the ledger at call %d: %s", i, d)
		}
	}
	return ""
}

// valueDiff is where a and b differ ("" where they do not), an empty
// slice the same as none; pointers are followed (seen: those compared).
func valueDiff(a, b reflect.Value, at string, seen map[[2]uintptr]bool) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at + ": nil against not"
			}
			return ""
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[k] {
			return ""
		}
		if seen != nil {
			seen[k] = true
		}
		return valueDiff(a.Elem(), b.Elem(), at, seen)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d against %d", at, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := valueDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", at, i), seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		for f := range a.NumField() {
			if d := valueDiff(a.Field(f), b.Field(f), at+"."+a.Type().Field(f).Name, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return at + ": map sizes differ"
		}
		return ""
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at + ": nil against not"
			}
			return ""
		}
		return valueDiff(a.Elem(), b.Elem(), at, seen)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v against %v", at, a, b)
	}
	return ""
}

// TestGrowIsAFreshReplay: a replay made again on each longer part of a
// file as it is written is, at every part, the replay made from the
// start: every call, the problems and every call's ledger; and what it
// left of the earlier part does not change.
func TestGrowIsAFreshReplay(t *testing.T) {
	for _, name := range grownRecordings {
		t.Run(name, func(t *testing.T) {
			views := growingViews(t, name, 24)
			whole := views[len(views)-1]
			lin := lineage.Decide(whole)
			policies := map[string]model.Policy{}
			for _, inf := range InferAgents(whole, lin) {
				policies[inf.Agent.Key] = inf.Policy
			}
			opts := replayOptions{policy: everyAgent(policies), note: true, keep: true}
			var prev, prevFresh *Replay
			grown := 0
			for k, rec := range views {
				lin := lineage.Decide(rec)
				fresh := replay(rec, lin, opts)
				r := fresh
				if prev != nil {
					if g := prev.grow(rec, lin); g != nil {
						grown++
						if d := replayDiff(g, fresh); d != "" {
							t.Fatalf("part %d of %d: %s", k, len(views), d)
						}
						if d := replayDiff(prev, prevFresh); d != "" {
							t.Fatalf("part %d: the replay grown from changed: %s", k, d)
						}
						r = g
					}
				}
				prev, prevFresh = r, fresh
			}
			t.Logf("%d of %d parts grown", grown, len(views)-1)
		})
	}
}

// TestInferMoreIsInferAgents: each agent's policy inferred again on each
// longer part of a file as it is written, its search going on from the
// last part's, is at every part what a search of the whole part finds:
// the policy, its evidence and the equally good ones, the windows it
// reproduces, and its replay.
func TestInferMoreIsInferAgents(t *testing.T) {
	for _, name := range grownRecordings {
		t.Run(name, func(t *testing.T) {
			var prev []Inference
			more := 0
			for k, rec := range growingViews(t, name, 24) {
				lin := lineage.Decide(rec)
				fresh := InferAgents(rec, lin)
				if prev != nil {
					got := InferMore(prev, rec, lin)
					for i := range fresh {
						g, w := got[i], fresh[i]
						if g.Agent != w.Agent || g.Policy != w.Policy || g.Inferred != w.Inferred || g.Evidence != w.Evidence ||
							g.Matched != w.Matched || g.Compared != w.Compared || !reflect.DeepEqual(g.Equal, w.Equal) {
							t.Fatalf("part %d, agent %s: %+v %q, want %+v %q", k, w.Agent.Key, g.Policy, g.Evidence, w.Policy, w.Evidence)
						}
						if g.searched != nil && w.replay != nil {
							more++
							if d := replayDiff(g.replay, w.replay); d != "" {
								t.Fatalf("part %d, agent %s: the replay %s", k, w.Agent.Key, d)
							}
						}
					}
					fresh = got
				}
				prev = fresh
			}
			t.Logf("%d searches went on", more)
		})
	}
}

// TestTally: the tally of a run's calls, made in one pass or in two parts
// joined, counts every call but the last, in order: 30,000 calls, every
// third reproducing its recorded window, one differing (call 20,001),
// problems at calls 4 and 29,001, the last call's outcome apart.
func TestTally(t *testing.T) {
	calls := make([]CallReplay, 30000)
	for i := range calls {
		if i%3 == 0 {
			calls[i].recorded = Match
		}
	}
	calls[20000].recorded = Differs
	calls[3].Visit.Problem, calls[29000].Visit.Problem = "a", "b"
	calls[29999].recorded = Differs
	var a, b callTally
	for i := range calls {
		if i < 12345 {
			a.add(&calls[i], i, len(calls))
		} else {
			b.add(&calls[i], i, len(calls))
		}
	}
	// calls 0, 3, …, 29,997 match (10,000); 20,000 and the last, 29,999,
	// are not multiples of three
	want := callTally{problems: []callProblem{{3, "a"}, {29000, "b"}}, score: runScore{matched: 10000, differs: true}, last: Differs}
	for _, got := range []callTally{tallyCalls(calls, 0), a.then(b)} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tally %+v, want %+v", got, want)
		}
	}
	if short := tallyCalls(calls[:4], 0); short.score.matched != 1 || short.last != Match || len(short.problems) != 1 {
		t.Errorf("the tally of four calls: %+v", short)
	}
}
