package lineage

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// ExplainsTwo (§16.3): the predecessor's last window is not in the log,
// so two visits lie between pre and w1: at most two spans left, each in
// place of nothing or of one notice (whose count is not checked).
func TestExplainsTwo(t *testing.T) {
	a, b, c, d, e := user("request"), asst("a1"), msg(model.RoleTool, "r1"), asst("a2"), msg(model.RoleTool, "r2")
	final, next := asst("done"), user("next")
	notice := user("[dropped history — 7 earlier message(s) were dropped from this window at iteration 3 by the 'sliding-window' window strategy. Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]")
	frame := user("[compacted history — 2 earlier message(s) were folded out of this window at iteration 4. …]")
	pre := []*model.Message{a, b, c, d, e, final, next}
	for _, tc := range []struct {
		name  string
		w1    []*model.Message
		score int
		ok    bool
	}{
		{"nothing removed", pre, 7, true},
		{"one span, silently", []*model.Message{a, d, e, final, next}, 5, true},
		{"one span under a notice", []*model.Message{notice, d, e, final, next}, 4, true},
		{"two spans, each under a notice", []*model.Message{notice, c, frame, final, next}, 3, true},
		{"two spans, one silent", []*model.Message{a, c, notice, next}, 3, true},
		{"two spans, both silent", []*model.Message{a, c, e, final, next}, 5, true},
		{"all but the request, under a notice", []*model.Message{notice, next}, 1, true},
		{"two notices for one span", []*model.Message{notice, frame, next}, 1, true},
		{"three spans", []*model.Message{b, d, final, next}, 0, false},
		{"a message pre never held", []*model.Message{a, user("other"), final, next}, 0, false},
		{"a notice where nothing left", []*model.Message{a, b, c, d, e, notice, final, next}, 0, false},
		{"two notices for one message", []*model.Message{a, b, c, d, notice, frame, final, next}, 0, false},
		{"messages out of order", []*model.Message{a, d, b, final, next}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			score, ok := ExplainsTwo(tc.w1, pre)
			if ok != tc.ok || ok && score != tc.score {
				t.Errorf("ExplainsTwo = %d, %v; want %d, %v", score, ok, tc.score, tc.ok)
			}
		})
	}
}

// The library's own case: n09 logged at tier minimal has no window for
// run 1's last call; run 2, its followUp, is linked across the two visits
// (§16.3) and not left an orphan.
func TestMinimalFollowUpLinksAcrossTwoVisits(t *testing.T) {
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", "n09-tier-minimal", "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	lin := Decide(rec)
	if len(lin.Links) != 2 || lin.Links[1].Kind != FollowUp || lin.Links[1].Pred != 0 {
		t.Fatalf("links %+v, want run 2 a follow-up of run 1", lin.Links)
	}
	if len(lin.Conversations) != 1 || len(lin.Problems) != 0 {
		t.Errorf("%d conversations, problems %v; want one, none", len(lin.Conversations), lin.Problems)
	}
}

// A follow-up whose predecessor's last window is not in the log, and
// whose first window lost two spans: the predecessor's last visit took
// one under its kept request, the follow-up's first visit another past a
// turn that stayed (a system message a delivery put there). One removed
// span cannot explain it; two can (§16.3).
func TestFollowUpAcrossTwoSpans(t *testing.T) {
	q, x1, r1 := user("q1"), asst("x1"), msg(model.RoleTool, "r1")
	sys := msg(model.RoleSystem, "policy")
	x2, r2, x3, r3 := asst("x2"), msg(model.RoleTool, "r2"), asst("x3"), msg(model.RoleTool, "r3")
	notice := user("[dropped history — 2 earlier message(s) were dropped from this window at iteration 3 by the 'sliding-window' window strategy. Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]")
	first := &model.Run{Index: 1, RunID: "run-1", Agent: agentA, First: 1, Last: 9, TurnEndAt: 9, Complete: true,
		HasTurnStart: true, Request: "q1", FinalAnswer: "done", Calls: []*model.Call{
			{Iteration: 1, Recorded: []*model.Message{q}, Appended: []*model.Message{x1, r1}},
			{Iteration: 2, Recorded: []*model.Message{q, x1, r1, sys}, Appended: []*model.Message{x2, r2, x3, r3}},
			{Iteration: 3}, // the last: its window is not in the log
		}}
	w1 := []*model.Message{notice, sys, x3, r3, asst("done"), user("q2")}
	next := &model.Run{Index: 2, RunID: "run-2", Agent: agentA, First: 10, Last: 12, HasTurnStart: true, Request: "q2",
		Calls: []*model.Call{{Iteration: 1, Recorded: w1}}}
	pre := []*model.Message{q, x1, r1, sys, x2, r2, x3, r3, asst("done"), user("q2")}
	if _, ok := Explains(w1, pre); ok {
		t.Fatal("one span explains it: the case does not need two")
	}
	lin := Decide(&model.Recording{Source: "t", Runs: []*model.Run{first, next}})
	if l := lin.Links[1]; l.Kind != FollowUp || l.Pred != 0 || l.Score != 5 {
		t.Errorf("run 2: %+v; want a follow-up of run 1 keeping 5 messages of pre", l)
	}
}

// The candidates across two visits are those that carry every message of
// the first window before its request that is no notice, frame or
// request, looked up by the one fewest carry; with none such, every one
// of the agent's.
func TestTwoCandidatesByTheRarestMessageKept(t *testing.T) {
	a := &model.Agent{Key: "agent"}
	q, x1, done1, x2, done2 := user("q"), asst("x1"), asst("done 1"), asst("x2"), asst("done 2")
	request := user("next")
	notice := user("[dropped history — 2 earlier message(s) were dropped from this window at iteration 3 by the 'sliding-window' window strategy. Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]")
	x := newIndex()
	x.fileTwo(0, a, []*model.Message{q, x1, done1}, 10)
	x.fileTwo(1, a, []*model.Message{q, x2, done2, user("next")}, 20) // the request said again: never the key
	runs := func(es []*entry) (out []int) {
		for _, e := range es {
			out = append(out, e.run)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		w1   []*model.Message
		want []int
	}{
		{"the last answer kept", []*model.Message{q, done2, request}, []int{1}},
		{"a notice after it", []*model.Message{done1, notice, request}, []int{0}},
		{"a message both carry", []*model.Message{q, notice, request}, []int{0, 1}},
		{"only a notice", []*model.Message{notice, request}, []int{0, 1}},
		{"the request said twice", []*model.Message{user("next"), request}, []int{0, 1}},
		{"a message neither carries", []*model.Message{asst("elsewhere"), request}, nil},
		{"the rarer of two messages", []*model.Message{done1, q, request}, []int{0}},
		{"one both carry, one neither", []*model.Message{q, asst("elsewhere"), notice, request}, nil},
	} {
		if got := runs(x.twoCandidates(a, tc.w1, request)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: candidates %v, want %v", tc.name, got, tc.want)
		}
	}
}
