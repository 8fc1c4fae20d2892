package lineage

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// n02 (testdata): run 2 is a followUp() of run 1 and was aborted during
// its third call (no llm_end, no turn_end); run 3 is a followUp() after
// it, continuing from run 2's last window with no answer (README.txt).
// wire.json puts all nine calls in conversation 1.
func TestFollowUpOfAnAbortedRun(t *testing.T) {
	for _, file := range []string{"run.jsonl", "recording.json.gz"} {
		rec, err := loader.StartLimited(filepath.Join("..", "testdata", "n02-abort-then-followup", file), 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		lin := Decide(rec)
		var got []string
		for _, l := range lin.Links {
			got = append(got, fmt.Sprintf("%s/%s %d c%d", l.Kind, l.Form, l.Pred, l.Conversation))
		}
		if fmt.Sprint(got) != "[new/answered -1 c1 follow-up/answered 0 c1 follow-up/unfinished 1 c1]" {
			t.Errorf("%s: links %v", file, got)
		}
		if len(lin.Conversations) != 1 || len(lin.Problems) != 0 {
			t.Errorf("%s: %d conversations, problems %v", file, len(lin.Conversations), lin.Problems)
		}
		if r := rec.Runs[1]; !r.Failed || r.Complete || r.Calls[2].Ended || r.Calls[2].History {
			t.Errorf("%s: run 2 failed %v, complete %v; its last call ended %v", file, r.Failed, r.Complete, r.Calls[2].Ended)
		}
	}
}

// §14.4: which runs with no turn_end a fresh run may continue, and in
// which form. P failed in its third call, sent [q, a1, t1, a2, t2]; its
// last iteration_end history is call 2's window and what call 2 added,
// the same five messages.
func TestContinuingARunWithNoTurnEnd(t *testing.T) {
	q, a1, t1 := user("q"), asst("a1"), msg(model.RoleTool, "t1")
	a2, t2 := asst("a2"), msg(model.RoleTool, "t2")
	notice := func(n int) *model.Message {
		return user(fmt.Sprintf("[dropped history — %d earlier message(s) were dropped from this window at iteration 1 by the 'sliding-window' window strategy. …]", n))
	}
	window := []*model.Message{q, a1, t1, a2, t2}
	failed := func(r *model.Run) {
		r.Failed, r.Last = true, 10
		r.Calls = []*model.Call{
			{Iteration: 1, Recorded: []*model.Message{q}, History: true, Appended: []*model.Message{a1, t1}},
			{Iteration: 2, Recorded: []*model.Message{q, a1, t1}, History: true, Appended: []*model.Message{a2, t2}},
			{Iteration: 3, Recorded: window},
		}
	}
	// as §14.3's recorded resumeOnError: the history re-entered as it is,
	// the first visit dropping some of it for a notice, the request (q,
	// the failed run's own) kept as the anchor
	reentered := []*model.Message{q, notice(2), a2, t2}
	cases := []struct {
		name    string
		p       func(r *model.Run)
		request string
		w1      []*model.Message
		first   int
		want    string
	}{
		{"followUp after the failure: its last window, then the request", failed, "go on",
			append(window[:5:5], user("go on")), 11, "follow-up/unfinished 0"},
		{"followUp whose first visit dropped 3", failed, "go on",
			[]*model.Message{notice(3), a2, t2, user("go on")}, 11, "follow-up/unfinished 0"},
		{"resumeOnError: the last iteration_end history, nothing appended", failed, "q",
			reentered, 11, "follow-up/reentered 0"},
		{"resumeOnError's form needs the same request text", failed, "other",
			reentered, 11, "orphan -1"},
		{"a run that stopped with no error and no pause is a candidate", func(r *model.Run) {
			failed(r)
			r.Failed = false
		}, "go on", append(window[:5:5], user("go on")), 11, "follow-up/unfinished 0"},
		{"a run waiting on a pause is none", func(r *model.Run) {
			failed(r)
			r.Failed, r.Unanswered = false, []string{"call_9"}
		}, "go on", append(window[:5:5], user("go on")), 11, "orphan -1"},
		{"paused, but failed: a candidate", func(r *model.Run) {
			failed(r)
			r.Unanswered = []string{"call_9"}
		}, "go on", append(window[:5:5], user("go on")), 11, "follow-up/unfinished 0"},
		{"a run whose last event is after the first event is none", failed, "go on",
			append(window[:5:5], user("go on")), 9, "orphan -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := build(
				seg{agent: agentA, first: 1, request: "q", w1: []*model.Message{q}},
				seg{agent: agentA, first: c.first, end: 30, request: c.request, w1: c.w1},
			)
			c.p(rec.Runs[0])
			rec.Runs[0].Calls[0].Number = 1
			lin := Decide(rec)
			l := lin.Links[1]
			got := fmt.Sprintf("%s/%s %d", l.Kind, l.Form, l.Pred)
			if l.Kind != FollowUp {
				got = fmt.Sprintf("%s %d", l.Kind, l.Pred)
			}
			if got != c.want {
				t.Errorf("link %s, want %s", got, c.want)
			}
			if strings.HasPrefix(c.want, "follow-up") && l.Conversation != lin.Links[0].Conversation {
				t.Errorf("conversation %d, want its predecessor's %d", l.Conversation, lin.Links[0].Conversation)
			}
		})
	}
}

// §14.4: a run resumed since it failed is no candidate any more.
func TestAResumedRunIsNoCandidate(t *testing.T) {
	w := []*model.Message{user("q"), asst("a"), msg(model.RoleTool, "t")}
	rec := build(
		seg{agent: agentA, first: 1, request: "q", w1: w, pausedOn: "call_9"},
		seg{agent: agentA, first: 11, resumes: "call_9", w1: []*model.Message{user("q"), asst("b")}},
		seg{agent: agentA, first: 21, end: 30, request: "go on", w1: append(w[:3:3], user("go on"))},
	)
	rec.Runs[0].Failed = true
	lin := Decide(rec)
	if l := lin.Links[1]; l.Kind != Resume || l.Pred != 0 {
		t.Fatalf("run 2: %+v, want a resume of run 1", l)
	}
	if l := lin.Links[2]; l.Kind != Orphan {
		t.Errorf("run 3: %+v, want an orphan: run 1 was resumed", l)
	}
}

// §15.2: each pass of n07's Loop is a fresh run, a conversation of its
// own; the merge calls of n06 belong to no conversation.
func TestPassesAreConversations(t *testing.T) {
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", "n07-loop-conditional", "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	lin := Decide(rec)
	var got []string
	for _, l := range lin.Links {
		got = append(got, fmt.Sprintf("%s c%d", l.Kind, l.Conversation))
	}
	if fmt.Sprint(got) != "[new c1 new c2 new c3 new c4 new c5]" {
		t.Errorf("n07 links %v", got)
	}
	rec, err = loader.StartLimited(filepath.Join("..", "testdata", "n06-parallel-composition", "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	lin = Decide(rec)
	for i, r := range rec.Runs {
		if l := lin.Links[i]; r.Composition != (l.Kind == Composition) || r.Composition && l.Conversation != 0 {
			t.Errorf("n06 run %d (%s): %+v", i, r.Agent.Key, l)
		}
	}
	if len(lin.Conversations) != 4 || len(lin.Problems) != 0 {
		t.Errorf("n06: %d conversations, want 4; problems %v", len(lin.Conversations), lin.Problems)
	}
}
