package lineage

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/afinspect/inspect/model"
)

// scanExplanation is §10.7 rule 2, §14.4 and §16.3 as they read: every
// earlier run of the agent is tested, in every form it offers. The index
// must give the same links and the same ties.
func scanExplanation(d *decider, i int, r *model.Run, w1 []*model.Message) (int, Form, int) {
	request := &model.Message{Role: model.RoleUser, Content: r.Request}
	best, bestForm, bestScore, bestEnd, bestFresh, count := -1, Answered, -1, 0, false, 0
	try := func(k int, form Form, pre []*model.Message, end int, two bool) {
		score, ok := Explains(w1, pre)
		if two { // the last window unknown: two visits (§16.3), of a w1 that ends with the request
			score, ok = ExplainsTwo(w1, pre)
			ok = ok && model.SameText(w1[len(w1)-1], request)
		}
		if !ok || score < bestScore {
			return
		}
		fresh := !d.continued[k]
		if score > bestScore {
			count = 0
		}
		count++
		if score == bestScore && (bestFresh && !fresh || bestFresh == fresh && end <= bestEnd) {
			return
		}
		best, bestForm, bestScore, bestEnd, bestFresh = k, form, score, end, fresh
	}
	for k := 0; k < i; k++ {
		p := d.rec.Runs[k]
		if p.Agent != r.Agent || len(p.Calls) == 0 || p.Composition {
			continue
		}
		last := p.Calls[len(p.Calls)-1].Recorded
		switch {
		case p.Complete:
			if p.TurnEndAt < r.First && last != nil {
				try(k, Answered, append(append(last[:len(last):len(last)], p.FinalMessage), request), p.TurnEndAt, false)
			}
			if h := historyBeforeLast(p); p.TurnEndAt < r.First && last == nil && h != nil {
				try(k, Answered, append(append(h, p.FinalMessage), request), p.TurnEndAt, true)
			}
		case (len(p.Unanswered) == 0 || p.Failed) && !d.resumed[k] && p.Last < r.First:
			if last != nil {
				try(k, Unfinished, append(last[:len(last):len(last)], request), p.Last, false)
			}
			if h := LastHistory(p); h != nil && d.request[k] == r.Request {
				try(k, Reentered, h, p.Last, false)
			}
		}
	}
	if count > 1 {
		d.problem(r, "run %s: %d earlier runs explain its first window equally well (score %d); by §10.7's tie rule it continues run %s", r.RunID, count, bestScore, d.rec.Runs[best].RunID)
	}
	return best, bestForm, bestScore
}

// Random logs over a few short texts, so that windows collide, repeat,
// hold notices and tie: the index and the scan agree on every link,
// every form, every score and every problem.
func TestIndexAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	texts := []*model.Message{user("a"), user("b"), asst("x"), asst("y"), msg(model.RoleTool, "t"), user("q1"), user("q2")}
	for round := range 3000 {
		rec := randomLog(rng, texts)
		want := decide(rec, scanExplanation)
		got := Decide(rec)
		for i := range rec.Runs {
			if got.Links[i] != want.Links[i] {
				t.Fatalf("round %d, run %d: index %+v, scan %+v\n%s", round, i, got.Links[i], want.Links[i], describe(rec))
			}
		}
		if fmt.Sprint(got.Problems) != fmt.Sprint(want.Problems) {
			t.Fatalf("round %d: problems\nindex %v\nscan  %v\n%s", round, got.Problems, want.Problems, describe(rec))
		}
	}
}

func randomLog(rng *rand.Rand, texts []*model.Message) *model.Recording {
	rec := &model.Recording{Source: "r.jsonl"}
	agents := []*model.Agent{agentA, agentB}
	requests := []string{"q1", "q2"}
	window := func() []*model.Message {
		n := rng.IntN(5)
		w := make([]*model.Message, 0, n+2)
		for range n {
			if rng.IntN(6) == 0 {
				w = append(w, user(fmt.Sprintf("[dropped history — %d earlier message(s) were dropped …]", 1+rng.IntN(4))))
				continue
			}
			w = append(w, texts[rng.IntN(len(texts))])
		}
		return w
	}
	at := 1
	for i := range 2 + rng.IntN(7) {
		r := &model.Run{Index: i + 1, RunID: fmt.Sprintf("run-%d", i+1), Agent: agents[rng.IntN(4)/3], First: at, Line: at}
		at += 1 + rng.IntN(3)
		if rng.IntN(8) > 0 {
			r.HasTurnStart, r.Request = true, requests[rng.IntN(2)]
			r.RequestMessage = user(r.Request)
		}
		w1 := append(window(), user(r.Request))
		if rng.IntN(5) == 0 {
			w1 = []*model.Message{user(r.Request)}
		}
		r.Calls = []*model.Call{{Iteration: 1, Recorded: w1}}
		if rng.IntN(2) == 0 {
			r.Calls[0].History, r.Calls[0].Appended = true, []*model.Message{texts[rng.IntN(len(texts))]}
			r.Calls = append(r.Calls, &model.Call{Iteration: 2, Recorded: append(w1[:len(w1):len(w1)], window()...)})
			if rng.IntN(4) == 0 {
				r.Calls[1].Recorded = nil // its window not in the log (tier minimal, §16.3)
			}
		}
		r.Last = at
		at += 1 + rng.IntN(3)
		switch rng.IntN(4) {
		case 0:
			r.Failed = true
		case 1:
			r.Unanswered = []string{"c1"}
			r.Failed = rng.IntN(2) == 0
		default:
			r.Complete, r.TurnEndAt, r.Last = true, at, at
			r.FinalAnswer = []string{"x", "y", "done"}[rng.IntN(3)]
			r.FinalMessage = asst(r.FinalAnswer)
			at++
		}
		if !r.HasTurnStart && rng.IntN(2) == 0 {
			r.FirstToolEnd = "c1"
		}
		// runs overlap sometimes: a later run may begin before this one ends
		if rng.IntN(4) == 0 {
			at--
		}
		rec.Runs = append(rec.Runs, r)
	}
	return rec
}

func describe(rec *model.Recording) string {
	out := ""
	for _, r := range rec.Runs {
		out += fmt.Sprintf("run %d %s first %d last %d end %d complete %v failed %v unanswered %v req %q:", r.Index, r.Agent.Key, r.First, r.Last, r.TurnEndAt, r.Complete, r.Failed, r.Unanswered, r.Request)
		for _, c := range r.Calls {
			out += " ["
			for _, m := range c.Recorded {
				out += fmt.Sprintf("%s:%.12s ", m.Role, m.Content)
			}
			out += "]"
		}
		out += " final " + r.FinalAnswer + "\n"
	}
	return out
}

// A chain of follow-ups that each keep only a notice and the request
// (keepRecentTurns 1): every earlier run of that length explains each
// first window. The index counts them without checking each, and links
// and counts as the scan does.
func TestIndexAgreesWithScanOnBigTies(t *testing.T) {
	rec := &model.Recording{Source: "r.jsonl"}
	for i := range 80 {
		req := fmt.Sprintf("q%d", i)
		w1 := []*model.Message{user(req)}
		if i > 0 {
			w1 = []*model.Message{user("[dropped history — 4 earlier message(s) were dropped …]"), user(req)}
		}
		last := []*model.Message{user(req), asst(fmt.Sprint("a", i)), msg(model.RoleTool, fmt.Sprint("t", i))}
		r := &model.Run{Index: i + 1, RunID: fmt.Sprint("run-", i+1), Agent: agentA, First: 10 * i, Line: 10*i + 1, Last: 10*i + 5,
			Complete: true, TurnEndAt: 10*i + 5, HasTurnStart: true, Request: req, RequestMessage: user(req),
			FinalAnswer: fmt.Sprint("f", i), FinalMessage: asst(fmt.Sprint("f", i)),
			Calls: []*model.Call{{Iteration: 1, Recorded: w1}, {Iteration: 2, Recorded: last}}}
		rec.Runs = append(rec.Runs, r)
	}
	want := decide(rec, scanExplanation)
	got := Decide(rec)
	for i := range rec.Runs {
		if got.Links[i] != want.Links[i] || i > 0 && got.Links[i].Pred != i-1 {
			t.Fatalf("run %d: index %+v, scan %+v", i, got.Links[i], want.Links[i])
		}
	}
	if fmt.Sprint(got.Problems) != fmt.Sprint(want.Problems) || len(got.Problems) != 78 {
		t.Fatalf("problems\nindex %v\nscan  %v", got.Problems, want.Problems)
	}
}
