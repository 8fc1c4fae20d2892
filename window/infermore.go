package window

import (
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// While a log is followed as it is written, each agent's policy is
// inferred again on every longer part of it, with the answer a search of
// the whole part gives (§10.10). The search's first pass replays every
// candidate up to its first window that differs: a candidate that
// differed before the first run the new lines changed still does, at the
// same call; one that reproduced every window goes on from where its
// replay stood (grow.go). So only the new calls are replayed, once per
// candidate that still reproduces them all. Where no candidate does, or
// the facts the candidates are made from changed (the strategy, the
// threshold, the knobs stated), the search is made again from the start.

// InferMore is InferAgents for rec, a longer part of the file prev was
// inferred from (the loader's next view of it), lin its lineage: each
// agent's search goes on from where prev's left it, and the answer is
// InferAgents's.
func InferMore(prev []Inference, rec *model.Recording, lin *lineage.Lineage) []Inference {
	was := map[*model.Agent]*Inference{}
	for i := range prev {
		was[prev[i].Agent] = &prev[i]
	}
	return inferEach(rec, lin, was)
}

// searched is what a search's first pass left: the part of the file it
// read, the policy its candidates were made from, and the candidates.
type searched struct {
	rec    *model.Recording
	lin    *lineage.Lineage
	base   model.Policy
	facts  facts
	trials []trial
}

// kept is what s leaves to search a longer part of rec again from: its
// candidates, the best's replay whole, the others' let go but for what
// goes on with them; nil when the search went past its first pass or
// cannot be continued (a fold book).
func (s searchResult) kept(rec *model.Recording, lin *lineage.Lineage, base model.Policy, f facts) *searched {
	if s.trials == nil || s.bestBook != nil {
		return nil
	}
	for i := range s.trials {
		tr := &s.trials[i]
		if tr.replay == s.bestReplay || tr.replay == nil {
			continue
		}
		if tr.replay.growth != nil && !tr.differs {
			// without its map of policies (thousands of agents' candidates
			// held it: 16 MB at 2,000 agents), made again when it grows
			tr.replay = &Replay{Rules: tr.replay.Rules, Policy: tr.replay.Policy, growth: tr.replay.growth}
			tr.replay.growth.strip()
		} else {
			tr.stopAt, tr.stopCall = tr.replay.stopRun()
			tr.replay = nil
		}
	}
	return &searched{rec: rec, lin: lin, base: base, facts: f, trials: s.trials}
}

// stopRun is where a stop ended r: the run (-1 when none did, or it is
// not known) and its call.
func (r *Replay) stopRun() (run, call int) {
	if r.growth == nil {
		return -1, 0
	}
	return r.growth.stoppedAt, r.growth.stopCall
}

// searchMore is the first pass of search on rec, a longer part of the
// file inf's was made on, from what inf's search left; false when it
// must be made from the start.
func (inf *Inference) searchMore(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, p model.Policy, f facts) (searchResult, bool) {
	if inf == nil || inf.searched == nil {
		return searchResult{}, false
	}
	was := inf.searched
	if p != was.base || !sameStated(f, was.facts) || RulesOf(rec) != RulesOf(was.rec) {
		return searchResult{}, false
	}
	changed, call := firstChange(was.rec, was.lin, rec, lin, f.runs)
	old := map[[2]int]*trial{}
	for i := range was.trials {
		tr := &was.trials[i]
		old[[2]int{tr.policy.KeepRecentTurns, tr.policy.KeepLastToolResults}] = tr
	}
	res := searchResult{bestScore: -1, statedK: f.statedK > 0, statedL: f.statedL > 0}
	ks, ls := candidates(rec, f)
	for _, l := range ls {
		for _, k := range ks {
			q := p
			q.KeepRecentTurns, q.KeepLastToolResults = k, l
			tr := old[[2]int{k, l}].more(rec, lin, a, f, q, changed, call, res.bestScore >= 0)
			if !tr.differs && res.bestScore < 0 {
				if tr.replay.Calls == nil { // let go while another was best
					tr = freshTrial(rec, lin, a, f, q, false)
				}
				res.best, res.bestScore, res.bestReplay = q, tr.matched, tr.replay
			}
			if !tr.differs {
				res.equal = append(res.equal, [2]int{k, l})
			}
			res.trials = append(res.trials, tr)
		}
	}
	if res.bestScore < 0 {
		return searchResult{}, false // no candidate reproduces every window: the whole search
	}
	return res, true
}

// sameStated: two gatherings of an agent's facts make the same
// candidates from the same policy (the most turns, which bounds K, and
// the windows' count may differ).
func sameStated(a, b facts) bool {
	return a.strategy == b.strategy && a.strategyWhy == b.strategyWhy && a.threshold == b.threshold && a.thresholdWhy == b.thresholdWhy &&
		a.statedK == b.statedK && a.statedL == b.statedL && a.named == b.named
}

// more is tr, a candidate of the search of an earlier part of the file,
// on rec: the same when it differed before the first call the new lines
// change (call of run changed, an index in rec.Runs), else its replay
// grown (or made again); a candidate not tried before (nil) is tried.
func (tr *trial) more(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, f facts, q model.Policy, changed, call int, strip bool) trial {
	switch {
	case tr == nil:
	case tr.differs && tr.stopAt >= 0 && (tr.stopAt < changed || tr.stopAt == changed && tr.stopCall < call):
		return *tr
	case !tr.differs && tr.replay != nil:
		if r := tr.replay.grow(rec, lin); r != nil {
			if r.Policies == nil {
				r.Policies = map[string]model.Policy{"": q, a.Key: q} // as candidateReplay has it
			}
			s := r.growth.score()
			out := trial{policy: q, matched: s.matched, differs: s.differs, replay: r}
			out.stopAt, out.stopCall = r.stopRun()
			return out
		}
	}
	return freshTrial(rec, lin, a, f, q, strip)
}

// freshTrial is candidate q's first pass on rec, made from the start; its
// calls let go when strip.
func freshTrial(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, f facts, q model.Policy, strip bool) trial {
	tr := trial{policy: q}
	tr.replay = candidateReplay(rec, lin, a, f.runs, q, nil, strip, tr.tally, nil)
	tr.stopAt, tr.stopCall = tr.replay.stopRun()
	return tr
}

// firstChange is the first of runs (an agent's, as agentRuns gives them)
// that rec holds changed from was, or whose link lin changed, or that is
// new (an index in rec.Runs), and its first call that changed.
func firstChange(was *model.Recording, wasLin *lineage.Lineage, rec *model.Recording, lin *lineage.Lineage, runs []int) (run, call int) {
	for k := range runCount(rec, runs) {
		i := runAt(runs, k)
		if i >= len(was.Runs) || lin.Links[i] != wasLin.Links[i] {
			return i, 0
		}
		if now, old := rec.Runs[i], was.Runs[i]; now != old {
			c := 0
			for c < len(now.Calls) && c < len(old.Calls) && now.Calls[c] == old.Calls[c] {
				c++
			}
			return i, c
		}
	}
	return len(rec.Runs), 0
}
