package lineage

import (
	"fmt"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// Hand-built segments: each rule of §10.7 on the smallest log that shows it.

func msg(role, content string) *model.Message { return &model.Message{Role: role, Content: content} }
func user(s string) *model.Message            { return msg(model.RoleUser, s) }
func asst(s string) *model.Message            { return msg(model.RoleAssistant, s) }

var agentA = &model.Agent{Key: "agent"}
var agentB = &model.Agent{Key: "billing"}

// seg is a segment: its first event at first, its turn_end at end (0: none),
// a turn_start with request when request != "", one call whose recorded
// window is w1 (nil: not recorded), then a final answer.
type seg struct {
	agent      *model.Agent
	first, end int
	request    string
	w1         []*model.Message
	last       []*model.Message // the last call's window (default w1)
	final      string
	resumes    string // the toolCallId its first tool_end answers, opened elsewhere
	pausedOn   string // a tool_start with no tool_end
}

func build(segs ...seg) *model.Recording {
	rec := &model.Recording{Source: "t.jsonl"}
	for i, s := range segs {
		r := &model.Run{Index: i + 1, RunID: fmt.Sprintf("run-%d", i+1), Agent: s.agent, First: s.first, Last: s.first + 5,
			Line: s.first, Request: s.request, HasTurnStart: s.request != "", FinalAnswer: s.final}
		if s.end > 0 {
			r.Complete, r.TurnEndAt, r.Last = true, s.end, s.end
		}
		if s.resumes != "" {
			r.FirstToolEnd = s.resumes
		}
		if s.pausedOn != "" {
			r.Unanswered = []string{s.pausedOn}
		}
		r.Calls = []*model.Call{{Iteration: 1, Recorded: s.w1}}
		if s.last != nil {
			r.Calls = append(r.Calls, &model.Call{Iteration: 2, Recorded: s.last})
		}
		rec.Runs = append(rec.Runs, r)
	}
	return rec
}

// first run: request "q1", window [q1], then [q1 a t] on its last call,
// final answer "done".
var q1Last = []*model.Message{user("q1"), asst("calling"), msg(model.RoleTool, "result")}

func TestLinks(t *testing.T) {
	notice := func(n int) *model.Message {
		return user(fmt.Sprintf("[dropped history — %d earlier message(s) were dropped from this window at iteration 1 by the 'sliding-window' window strategy. …]", n))
	}
	frame := func(n int) *model.Message {
		return user(fmt.Sprintf("[compacted history — %d earlier message(s) were folded out of this window at iteration 1. …]\n\nsummary", n))
	}
	first := seg{agent: agentA, first: 1, end: 10, request: "q1", w1: []*model.Message{user("q1")}, last: q1Last, final: "done"}
	// pre of a follow-up of first: q1 calling result done q2
	cases := []struct {
		name   string
		second seg
		want   string // kind and pred of the second segment
	}{
		{"a first window that is only its request: new", seg{agent: agentA, first: 11, end: 20, request: "q2", w1: []*model.Message{user("q2")}}, "new -1"},
		{"the carried history and the request: follow-up", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), asst("calling"), msg(model.RoleTool, "result"), asst("done"), user("q2")}}, "follow-up 0"},
		{"a drop notice naming the count", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), notice(2), asst("done"), user("q2")}}, "follow-up 0"},
		{"a compaction frame naming the count", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{frame(3), asst("done"), user("q2")}}, "follow-up 0"},
		{"a silent removal", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), asst("done"), user("q2")}}, "follow-up 0"},
		{"a notice with another count: an orphan", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), notice(3), asst("done"), user("q2")}}, "orphan -1"},
		{"two messages in the gap: an orphan", seg{agent: agentA, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), notice(2), user("x"), asst("done"), user("q2")}}, "orphan -1"},
		{"another agent's run explains nothing", seg{agent: agentB, first: 11, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), asst("calling"), msg(model.RoleTool, "result"), asst("done"), user("q2")}}, "orphan -1"},
		{"a run that ended after this one began is no candidate", seg{agent: agentA, first: 9, end: 20, request: "q2",
			w1: []*model.Message{user("q1"), asst("calling"), msg(model.RoleTool, "result"), asst("done"), user("q2")}}, "orphan -1"},
		{"a first window not recorded: new, reported", seg{agent: agentA, first: 11, end: 20, request: "q2"}, "new -1"},
		{"no turn_start and no paused run: an orphan", seg{agent: agentA, first: 11, end: 20, resumes: "c9", w1: q1Last}, "orphan -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := build(first, c.second)
			lin := Decide(rec)
			l := lin.Links[1]
			if got := fmt.Sprintf("%s %d", l.Kind, l.Pred); got != c.want {
				t.Errorf("second segment: %s, want %s", got, c.want)
			}
			reported := len(lin.Problems) > 0
			if wantReport := strings.HasPrefix(c.want, "orphan") || strings.Contains(c.name, "reported"); reported != wantReport {
				t.Errorf("problems %v", lin.Problems)
			}
			for _, p := range lin.Problems {
				if p.Line != 11 && p.Line != 9 || !strings.HasPrefix(p.Message, fmt.Sprintf("t.jsonl:%d: ", p.Line)) {
					t.Errorf("a problem without its line: %+v", p)
				}
			}
		})
	}
}

// A resume continues the paused run of its agent on the tool call its
// first tool_end answers; of two paused on that id, the one whose last
// event is latest, and never one already resumed.
func TestResume(t *testing.T) {
	w := []*model.Message{user("q")}
	rec := build(
		seg{agent: agentA, first: 1, request: "q", w1: w, pausedOn: "call_5"},
		seg{agent: agentA, first: 2, request: "q", w1: w, pausedOn: "call_5"},
		seg{agent: agentA, first: 20, resumes: "call_5", w1: w},
		seg{agent: agentA, first: 30, resumes: "call_5", w1: w},
		seg{agent: agentA, first: 40, resumes: "call_5", w1: w},
		seg{agent: agentB, first: 50, resumes: "call_7", w1: w},
	)
	rec.Runs[0].Last, rec.Runs[1].Last = 8, 7 // the first paused last
	lin := Decide(rec)
	var got []string
	for _, l := range lin.Links {
		got = append(got, fmt.Sprintf("%s %d", l.Kind, l.Pred))
	}
	want := "[new -1 new -1 resume 0 resume 1 orphan -1 orphan -1]"
	if fmt.Sprint(got) != want {
		t.Errorf("links %v, want %s", got, want)
	}
	if lin.Links[2].Conversation != 1 || lin.Links[3].Conversation != 2 {
		t.Errorf("a resumed run is in the conversation it continues: %+v", lin.Links)
	}
}

// Two instances of one script, interleaved A1, B1, A2, B2: their first
// windows are byte-identical, so nothing tells the instances apart. The
// tie rule of §10.7 pairs by recency among runs not continued yet, giving
// {A1, B2} and {B1, A2}; every window is the same either way, and the
// ambiguity is stated.
func TestByteIdenticalConversations(t *testing.T) {
	w1 := []*model.Message{user("q1")}
	follow := []*model.Message{user("q1"), asst("calling"), msg(model.RoleTool, "result"), asst("done"), user("q2")}
	rec := build(
		seg{agent: agentA, first: 1, end: 10, request: "q1", w1: w1, last: q1Last, final: "done"},   // A1
		seg{agent: agentA, first: 2, end: 11, request: "q1", w1: w1, last: q1Last, final: "done"},   // B1
		seg{agent: agentA, first: 12, end: 20, request: "q2", w1: follow, last: follow, final: "x"}, // A2
		seg{agent: agentA, first: 13, end: 21, request: "q2", w1: follow, last: follow, final: "x"}, // B2
	)
	lin := Decide(rec)
	if a2, b2 := lin.Links[2], lin.Links[3]; a2.Kind != FollowUp || a2.Pred != 1 || b2.Kind != FollowUp || b2.Pred != 0 {
		t.Fatalf("A2 continues %d, B2 continues %d; want B1 (1) and A1 (0)", a2.Pred, b2.Pred)
	}
	var groups []string
	for _, c := range lin.Conversations {
		groups = append(groups, fmt.Sprint(c.Runs))
	}
	if fmt.Sprint(groups) != "[[0 3] [1 2]]" {
		t.Errorf("conversations %v, want [[0 3] [1 2]]", groups)
	}
	if len(lin.Problems) != 2 || !strings.Contains(lin.Problems[0].Message, "explain its first window equally well") {
		t.Errorf("the ambiguity is not stated: %v", lin.Problems)
	}
}

// A higher score wins over recency. Score is |W1| less the message in
// the gap, so it tells a run that explains W1 as it is from one that
// explains it only with a notice in place of what left.
func TestHighestScoreWins(t *testing.T) {
	n1 := user("[dropped history — 1 earlier message(s) were dropped …]")
	w1 := []*model.Message{user("q1"), n1, asst("done"), user("q2")}
	rec := build(
		seg{agent: agentA, first: 1, end: 10, request: "q1", w1: []*model.Message{user("q1")}, last: []*model.Message{user("q1"), n1}, final: "done"},
		seg{agent: agentA, first: 2, end: 11, request: "q1", w1: []*model.Message{user("q1")}, last: []*model.Message{user("q1"), asst("calling")}, final: "done"},
		seg{agent: agentA, first: 13, end: 20, request: "q2", w1: w1},
	)
	if s, ok := Explains(w1, []*model.Message{user("q1"), asst("calling"), asst("done"), user("q2")}); !ok || s != 3 {
		t.Fatalf("the later run does not explain it with a notice: %d %v", s, ok)
	}
	if l := Decide(rec).Links[2]; l.Kind != FollowUp || l.Pred != 0 || l.Score != 4 {
		t.Errorf("link %+v, want a follow-up of segment 0 scoring 4", l)
	}
}

func TestExplains(t *testing.T) {
	a, b, c, d, n1 := user("a"), asst("b"), user("c"), asst("d"), user("[dropped history — 1 earlier message(s) were dropped …]")
	cases := []struct {
		w1, pre []*model.Message
		score   int
		ok      bool
	}{
		{[]*model.Message{a, b, c}, []*model.Message{a, b, c}, 3, true},
		{[]*model.Message{a, c}, []*model.Message{a, b, c}, 2, true},         // b removed silently
		{[]*model.Message{a, n1, c}, []*model.Message{a, b, c}, 2, true},     // b replaced by a notice of 1
		{[]*model.Message{n1, b, c}, []*model.Message{a, b, c}, 2, true},     // at the front
		{[]*model.Message{a, n1, c}, []*model.Message{a, b, d, c}, 0, false}, // 2 removed, the notice says 1
		{[]*model.Message{a, b}, []*model.Message{a, b, c}, 0, false},        // the request must end it (j ≥ 1)
		{[]*model.Message{a, b, c, d}, []*model.Message{a, b, c}, 0, false},  // nothing removed
		{[]*model.Message{msg(model.RoleAssistant, "a"), c}, []*model.Message{a, c}, 0, false},
	}
	for i, x := range cases {
		if score, ok := Explains(x.w1, x.pre); score != x.score || ok != x.ok {
			t.Errorf("case %d: %d %v, want %d %v", i, score, ok, x.score, x.ok)
		}
	}
}

// A Sequence's two steps share their runId (run 1); another run starting
// between them takes run number 2. Conversations are numbered as the
// fidelity judge numbers them: by their smallest run number, then their
// first call — so the second step's conversation comes before the other
// run's although its first event is later.
func TestConversationNumbersFollowRunNumbers(t *testing.T) {
	step1 := &model.Agent{Key: "p/step-a", Step: "step-a"}
	step2 := &model.Agent{Key: "p/step-b", Step: "step-b"}
	rec := build(
		seg{agent: step1, first: 1, end: 10, request: "a", w1: []*model.Message{user("a")}},
		seg{agent: agentB, first: 11, end: 20, request: "b", w1: []*model.Message{user("b")}},
		seg{agent: step2, first: 12, end: 30, request: "c", w1: []*model.Message{user("c")}},
	)
	rec.Runs[0].RunNo, rec.Runs[1].RunNo, rec.Runs[2].RunNo = 1, 2, 1
	rec.Runs[2].RunID = rec.Runs[0].RunID
	for i, r := range rec.Runs {
		r.Calls[0].Number = i + 1
	}
	l := Decide(rec)
	got := []int{l.Links[0].Conversation, l.Links[1].Conversation, l.Links[2].Conversation}
	if got[0] != 1 || got[2] != 2 || got[1] != 3 {
		t.Fatalf("conversations of step a, run 2, step b = %v, want [1 3 2]", got)
	}
	for n, c := range l.Conversations {
		if c.Number != n+1 {
			t.Fatalf("conversation %d listed at %d", c.Number, n+1)
		}
	}
	if l.Conversations[1].Agent != step2 {
		t.Fatalf("conversation 2 is %s's, want step-b's", l.Conversations[1].Agent.Key)
	}
}
