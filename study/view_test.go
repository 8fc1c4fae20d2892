package study

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A conversation's replay is the file's for its calls: under its agent's
// settled policy (the screen's first), and with that agent under
// another (a knob), whole or read for its windows alone (what a sweep
// asks for) — on every recording here, several of which hold several
// conversations or agents.
func TestViewIsTheFileForItsCalls(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) < 10 {
		t.Fatalf("only %d recordings", len(paths))
	}
	views := 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(rec, Request{Recorded: true})
		if err != nil {
			t.Fatal(err)
		}
		file := s.Replay()
		for _, c := range s.Lineage.Conversations {
			v := s.View(c.Number)
			if v.Number != c.Number || v.Agent.Agent != c.Agent {
				t.Fatalf("%s: conversation %d opened as %d of %v", path, c.Number, v.Number, v.Agent.Agent)
			}
			views++
			sameCalls(t, path, v.Start(), file)
			p := v.Agent.Policy
			p.KeepRecentTurns++
			other := s.ReplayWith(c.Agent.Key, p, nil)
			sameCalls(t, path, v.Replay(p, nil), other)
			sameCalls(t, path, v.Windows(p), other)
		}
	}
	if views < len(paths)+3 {
		t.Errorf("%d conversations: the comparison proves little", views)
	}
}

// sameCalls fails unless every call of part has, in whole, the window
// (message by message, role and content) and the recorded comparison it
// has there.
func sameCalls(t *testing.T, path string, part, whole *window.Replay) {
	t.Helper()
	for i := range part.Calls {
		c := &part.Calls[i]
		w := &whole.Calls[callIndex(whole, c.Call)]
		same := slices.EqualFunc(c.Window(), w.Window(), model.SameText) // a notice is each replay's own message
		if !same || c.Recorded() != w.Recorded() || c.WindowChars() != w.WindowChars() {
			t.Fatalf("%s call %d under %v: %d messages (%s) alone, %d (%s) in the file", path, c.Call.Number, part.Policy, len(c.Window()), c.Recorded(), len(w.Window()), w.Recorded())
		}
	}
}

func callIndex(r *window.Replay, call *model.Call) int {
	for i := range r.Calls {
		if r.Calls[i].Call == call {
			return i
		}
	}
	return -1
}

// n06's Parallel triage made two model calls of its own (README: file
// calls 12 and 21, the merges of runs 1 and 2), in no conversation
// (§15.5): Conversations lists them after the four conversations as one
// composition entry, numbered −1, and View(−1) opens them — their
// windows unknown, the composition's policy none.
func TestCompositionCallsAreAView(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/n06-parallel-composition/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(rec, Request{Recorded: true})
	if err != nil {
		t.Fatal(err)
	}
	convs := s.Conversations()
	if len(convs) != 5 || len(s.Lineage.Conversations) != 4 {
		t.Fatalf("%d entries, %d conversations; want the 4 conversations and the composition", len(convs), len(s.Lineage.Conversations))
	}
	c := convs[4]
	if !c.Composition || c.Number != -1 || c.Agent.Key != "triage" || len(c.Runs) != 2 || c.Calls != 2 || c.Compared != 0 {
		t.Fatalf("the composition's entry: %+v", c)
	}
	v := s.View(-1)
	r := v.Recorded()
	if v.Agent.Agent != c.Agent || v.Agent.Policy.Strategy != model.StrategyNone || len(r.Calls) != 2 {
		t.Fatalf("View(-1): agent %s, policy %v, %d calls", v.Agent.Agent.Key, v.Agent.Policy, len(r.Calls))
	}
	for i, want := range []int{12, 21} {
		if c := r.Calls[i]; c.Call.Number != want || c.Recorded() != window.Unknown || c.Window() != nil {
			t.Errorf("call %d: file call %d, recorded %s, window %d msgs", i+1, c.Call.Number, c.Recorded(), len(c.Window()))
		}
	}
	if s.View(0).Number != 1 || s.View(-2).Number != 1 {
		t.Error("0 and a number not there are not the first conversation")
	}
}
