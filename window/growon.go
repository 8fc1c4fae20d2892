package window

import (
	"slices"
	"sort"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// How a replay kept to be continued (grow.go) is made again on a longer
// part of its file: each run that changed goes on from its last call's
// states, the new runs start from their predecessors' ends, and the
// calls made again take their places among the calls kept.

// Grow is r, a replay made for a screen (RunFolds) of an earlier part of
// the file rec is a part of, made again on rec, with lin its lineage:
// RunFolds's answer, with its turn log built, made where the new lines
// change it; nil when it must be made from the start.
func Grow(r *Replay, rec *model.Recording, lin *lineage.Lineage) *Replay {
	if g := r.grow(rec, lin); g != nil {
		return g.built()
	}
	return nil
}

// grow is r made again on rec, a longer part of the file r's recording
// was a part of, with lin its lineage (see above); nil when that cannot
// be, and the replay must be made from the start.
func (r *Replay) grow(rec *model.Recording, lin *lineage.Lineage) *Replay {
	g := r.growth
	if g == nil || g.stoppedAt >= 0 || g.o.book != nil || g.o.learn || RulesOf(rec) != r.Rules || len(lin.Links) != len(rec.Runs) ||
		g.stripped != (r.Calls == nil) {
		return nil
	}
	tails, ok := g.tails(rec, lin)
	if !ok {
		return nil
	}
	rp := newReplayer(rec, lin, g.o)
	ng := rp.grow
	ng.stripped, ng.frozen = g.stripped, g.frozen
	for i, rg := range g.runs {
		if _, changed := tails[i]; !changed && rg.tip != nil {
			rp.states.set(i, rg.tip.end)
		}
	}
	replaced := map[int]bool{} // the call numbers made again
	for i := 0; i < len(rec.Runs) && !rp.stopped; i++ {
		k, changed := tails[i]
		rg := g.runs[i]
		switch {
		case rg != nil && !changed:
			ng.add(i, rg)
		case rg != nil:
			if !rp.tail(i, k, rg, r, replaced) {
				return nil
			}
		case i < len(g.rec.Runs) && g.lin.Links[i].Kind != lineage.None:
			// not replayed (another agent's), or let go with its score
		default: // new, or its first call is
			p, ok := rp.o.policy(rec.Runs[i].Agent)
			if !ok || lin.Links[i].Kind == lineage.None {
				continue
			}
			if !growable(rec, p) || lin.Links[i].Kind != lineage.Composition && lin.Links[i].Pred >= 0 && rp.states.get(lin.Links[i].Pred) == nil {
				return nil
			}
			rp.one(i)
		}
	}
	out := rp.out
	out.Policy, out.Policies = r.Policy, r.Policies
	if !g.stripped && !out.merge(r, replaced, rec, g) {
		return nil
	}
	if g.stripped {
		out.Calls = nil
	}
	out.Problems = ng.problems()
	out.oneRun = len(ng.order) <= 1 && !ng.stripped
	out.growth = ng
	return out
}

// growable: a replay of rec under p can be continued (summarize-oldest
// learns as it goes; a token strategy at tier minimal reads the log's
// own windows, §16.4).
func growable(rec *model.Recording, p model.Policy) bool {
	return p.Strategy != model.SummarizeOldest && !(rec.Tier == model.TierMinimal && p.NeedsThreshold())
}

// tails is, for each run of g's recording that rec holds changed and
// that was replayed, the first of its calls that changed (its calls
// count when only the run's own facts did); false when a change is one
// the replay cannot go on from.
func (g *growth) tails(rec *model.Recording, lin *lineage.Lineage) (map[int]int, bool) {
	old := g.rec
	if len(rec.Runs) < len(old.Runs) {
		return nil, false
	}
	continued := map[int]bool{} // runs a run continues
	for i := range old.Runs {
		if p := g.lin.Links[i].Pred; p >= 0 {
			continued[p] = true
		}
	}
	tails := map[int]int{}
	for i, was := range old.Runs {
		now := rec.Runs[i]
		if now.RunID != was.RunID || now.Step != was.Step || now.Pass != was.Pass || now.Agent != was.Agent ||
			lin.Links[i] != g.lin.Links[i] && g.lin.Links[i].Kind != lineage.None {
			return nil, false // (a run with no call before has its first now: it is replayed as new)
		}
		if g.lin.Links[i].Kind == lineage.None {
			continue
		}
		if now == was {
			continue
		}
		p, replayed := g.o.policy(now.Agent)
		if !replayed || lin.Links[i].Kind == lineage.None {
			continue
		}
		rg := g.runs[i]
		k := 0
		for k < len(was.Calls) && k < len(now.Calls) && was.Calls[k] == now.Calls[k] {
			k++
		}
		if rg == nil || rg.tip == nil || rg.composition || len(now.Calls) < len(was.Calls) || k < rg.calls-1 || continued[i] || !growable(rec, p) {
			return nil, false
		}
		tails[i] = k
	}
	return tails, true
}

// tail replays run i from its call k on, from the state its chain had
// there (rg's), after the calls the replayer has made; old is the
// replay rg was kept by (for the call before k, which notes read).
// replaced gets the numbers of the calls made again.
func (rp *replayer) tail(i, k int, rg *runGrowth, old *Replay, replaced map[int]bool) bool {
	run, t := rp.rec.Runs[i], rg.tip
	var ch chain
	switch k {
	case rg.calls:
		ch = t.after
	case rg.calls - 1:
		ch = t.before
		if t.beforeHistory.c != nil {
			ch.history = t.beforeHistory.get()
		}
	default:
		return false
	}
	for _, c := range run.Calls[k:rg.calls] {
		replaced[c.Number] = true
	}
	var prev *CallReplay // the call before k, which the notes of k read
	if k > 0 && rp.o.note {
		if prev = old.callNumbered(run.Calls[k-1].Number); prev == nil {
			return false
		}
	}
	from := len(rp.out.Calls)
	beforeLast := rp.tailCalls(i, k, &ch, prev)
	calls := rp.out.Calls[from:]
	nrg := rg.madeAgain(k, calls, rp.grow)
	if rp.stopped {
		rp.grow.stoppedAt, rp.grow.stopCall = i, k+len(calls)-1
		rp.grow.add(i, nrg)
		return true
	}
	end := rp.end(run, ch, calls, k, rg)
	rp.states.set(i, end)
	nrg.tip = t.madeAgain(run, k, rg.calls, ch, beforeLast, end, calls)
	rp.grow.add(i, nrg)
	return true
}

// tailCalls replays run i's calls from k on from ch, prev the call
// before k (nil: none, or no notes), and returns the chain as it was
// before the last of them.
func (rp *replayer) tailCalls(i, k int, ch *chain, prev *CallReplay) (beforeLast chain) {
	run := rp.rec.Runs[i]
	p, _ := rp.o.policy(run.Agent)
	x := rp.runner(i, p)
	var ns *notes
	if rp.o.note {
		ns = newNotes(len(run.Calls) - k)
	}
	out := rp.out
	beforeLast = *ch
	for ci := k; ci < len(run.Calls); ci++ {
		beforeLast = *ch
		out.Calls = append(out.Calls, CallReplay{})
		c := &out.Calls[len(out.Calls)-1]
		x.callInto(c, ch, ci, rp.mem)
		if ns != nil {
			p := prev
			if ci > k {
				p = &out.Calls[len(out.Calls)-2]
			}
			ns.note(p, c)
		}
		if rp.o.differ && c.Recorded() == Differs {
			rp.stopped = true
			break
		}
		ch.after(run.Calls[ci], c.Visit.After, rp.mem)
	}
	return beforeLast
}

// madeAgain is what rg's run left once made again from its call k on,
// with calls: the problems and the score of the calls before k kept,
// those of calls added (g, the growth it is filed in, owns it).
func (rg *runGrowth) madeAgain(k int, calls []CallReplay, g *growth) *runGrowth {
	nrg := &runGrowth{calls: k + len(calls), score: rg.score, owner: g}
	if k == rg.calls {
		nrg.score.add(rg.last)
	}
	for _, pr := range rg.problems {
		if pr.ci < k {
			nrg.problems = append(nrg.problems, pr)
		}
	}
	if len(calls) == 0 {
		nrg.score, nrg.last = rg.score, rg.last
		return nrg
	}
	t := callTally{problems: nrg.problems, score: nrg.score}.then(tallyCalls(calls, k))
	nrg.problems, nrg.score, nrg.last = t.problems, t.score, t.last
	return nrg
}

// madeAgain is what t, run's tip when it had n calls, keeps once the run
// is made again from call k on (calls), its chain ch after its last call
// (beforeLast: before it), end as it ended.
func (t *tipState) madeAgain(run *model.Run, k, n int, ch, beforeLast chain, end *chain, calls []CallReplay) *tipState {
	nt := &tipState{after: ch, end: end}
	switch {
	case len(calls) >= 2:
		nt.before = beforeLast
	case len(calls) == 1 && k == n:
		nt.before = t.after
	default:
		nt.before, nt.beforeHistory = t.before, t.beforeHistory
	}
	base := t.reentryAt // over the calls before k
	if k < n {
		base = t.reentryBefore
	}
	nt.reentryAt, nt.reentryBefore = base, base
	if r := reentryFrom(run, calls, k); r.c != nil {
		nt.reentryAt = r
	}
	switch {
	case len(calls) >= 2:
		if r := reentryFrom(run, calls[:len(calls)-1], k); r.c != nil {
			nt.reentryBefore = r
		}
	case len(calls) == 0:
		nt.reentryBefore = t.reentryBefore
	}
	return nt
}

// end is the state run ends in, its chain ch after its last call: the
// calls its replay made again are calls, from its call k on.
func (rp *replayer) end(run *model.Run, ch chain, calls []CallReplay, k int, rg *runGrowth) *chain {
	end := ch
	switch {
	case run.Complete && run.FinalMessage != nil:
		end.history = rp.mem.extendOne(end.history, run.FinalMessage)
	case len(calls) > 0:
		end.unfinished = calls[len(calls)-1].Visit.After
		r := reentryFrom(run, calls, k)
		if r.c == nil {
			r = rg.tip.reentryAt
			if k < rg.calls {
				r = rg.tip.reentryBefore
			}
		}
		end.reentry = r.get()
	default:
		end.unfinished, end.reentry = rg.tip.end.unfinished, rg.tip.end.reentry
	}
	return &end
}

// callNumbered is the call of r whose Number is n, nil when none.
func (r *Replay) callNumbered(n int) *CallReplay {
	i := sort.Search(len(r.Calls), func(i int) bool { return r.Calls[i].Call.Number >= n })
	if i < len(r.Calls) && r.Calls[i].Call.Number == n {
		return &r.Calls[i]
	}
	return nil
}

// merge sets out's calls, those its replayer made (the runs' calls made
// again, numbered in replaced, and those of the new runs), into old's:
// each of old's where it was, the calls made again in their place, the
// new ones after, in file order; every call's run, and the run it
// continues, rec's.
func (out *Replay) merge(old *Replay, replaced map[int]bool, rec *model.Recording, g *growth) bool {
	now := map[*model.Run]*model.Run{} // the runs of g.rec that rec holds a new copy of
	for i, was := range g.rec.Runs {
		if rec.Runs[i] != was {
			now[was] = rec.Runs[i]
		}
	}
	made := out.Calls
	calls := make([]CallReplay, len(old.Calls), len(old.Calls)+len(made))
	copy(calls, old.Calls)
	for ci := range calls {
		c := &calls[ci]
		if ci > 0 && c.Call.Number <= calls[ci-1].Call.Number {
			return false // not in file order
		}
		if r, ok := now[c.Run]; ok {
			c.Run = r
		}
		if r, ok := now[c.continues]; ok && c.continues != nil {
			c.continues = r
		}
	}
	last := 0
	if len(calls) > 0 {
		last = calls[len(calls)-1].Call.Number
	}
	var fresh []CallReplay
	for _, c := range made {
		if !replaced[c.Call.Number] {
			fresh = append(fresh, c)
			continue
		}
		at := sort.Search(len(calls), func(i int) bool { return calls[i].Call.Number >= c.Call.Number })
		if at == len(calls) || calls[at].Call.Number != c.Call.Number {
			return false
		}
		c.Index = at
		calls[at] = c
	}
	slices.SortStableFunc(fresh, func(a, b CallReplay) int { return a.Call.Number - b.Call.Number })
	for _, c := range fresh {
		if c.Call.Number <= last {
			return false
		}
		last = c.Call.Number
		c.Index = len(calls)
		calls = append(calls, c)
	}
	out.Calls = calls
	return true
}
