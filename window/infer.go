package window

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// Inference is the policy one agent's segments were most likely made
// under, and why (docs/rules/runs-and-conversations.md §10.10).
type Inference struct {
	Agent    *model.Agent
	Policy   model.Policy
	Inferred bool   // some knob was not stated by the input and was inferred
	Evidence string // what each knob was read or inferred from
	// Matched of Compared calls' recorded windows the policy reproduces.
	Matched, Compared int
	// Equal are the (keepRecentTurns, keepLastToolResults) pairs tried
	// that reproduce as many recorded windows as Policy, Policy's own
	// among them: the policies the log cannot tell apart (the evidence's
	// "equally good"). Nil when no search was made.
	Equal [][2]int
	// Folds are the recorded folds of a summarize-oldest agent, with the
	// refusals learned under Policy (nil for other strategies): a replay
	// under any policy takes its summaries from them (§11.9).
	Folds *FoldBook

	replay *Replay // the agent's replay under Policy, when complete
	facts  *facts  // what the log stated, for Recheck; nil when not read
	// searched is what the search left, to search a longer part of the
	// file again from (infermore.go); nil when there is nothing to; read
	// is what gather read of each run, to read only what changed then
	searched *searched
	read     map[int]*runFacts
}

// Replay is the replay the inference made under Policy when it is the
// one RunFolds(rec, lin, Policy, Folds) makes — rec has this one agent and
// no other, the replay went to the end, and the strategy is not
// summarize-oldest (a replay that learned its folds as it went is not one
// given them all) — else nil. Like RunFolds's, it comes with its turn
// log built.
func (inf Inference) Replay(rec *model.Recording) *Replay {
	r := inf.replay
	if r == nil || inf.Policy.Strategy == model.SummarizeOldest || r.Policy != inf.Policy ||
		len(rec.Agents) != 1 || rec.Agents[0] != inf.Agent || r.Lineage == nil || len(r.Lineage.Links) != len(rec.Runs) {
		return nil
	}
	n := 0
	for i, run := range rec.Runs {
		if run.Agent != inf.Agent {
			return nil
		}
		if r.Lineage.Links[i].Kind != lineage.None {
			n += len(run.Calls)
		}
	}
	if n != len(r.Calls) {
		return nil // it stopped early
	}
	return r.built()
}

// maxInferK bounds the keepRecentTurns search.
const maxInferK = 64

// maxInferL is the largest keepLastToolResults tried.
const maxInferL = 5

// InferAgents infers every agent's policy from its own segments, in the
// order of rec.Agents; lin is rec's lineage.
func InferAgents(rec *model.Recording, lin *lineage.Lineage) []Inference {
	return inferEach(rec, lin, nil)
}

// inferEach infers every agent of rec, each search going on from where
// was's (by agent, nil for none) left it. One agent's search reads only
// its own runs and the fold book, read here before any starts, and
// writes only its own inference: with thousands of agents the searches
// are most of opening the file, so every core takes agents in turn.
func inferEach(rec *model.Recording, lin *lineage.Lineage, was map[*model.Agent]*Inference) []Inference {
	agents := rec.Agents
	out := make([]Inference, len(agents))
	fs := make([]facts, len(agents))
	reads := make([]map[int]*runFacts, len(agents))
	var book *FoldBook // read once, for the summarize-oldest agents
	byAgent := agentRuns(rec)
	for i, a := range agents {
		var read map[int]*runFacts
		if w := was[a]; w != nil {
			read = w.read
		}
		fs[i], reads[i] = gatherFrom(rec, a, byAgent[a], read)
		if fs[i].strategy == model.SummarizeOldest && book == nil {
			book = readFolds(rec, lin)
		}
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(agents) {
				return
			}
			out[i] = inferAgent(rec, lin, agents[i], fs[i], book, was[agents[i]])
			out[i].read = reads[i]
		}
	}
	var wg sync.WaitGroup
	var failure atomic.Value // a worker's panic, met again on the caller's goroutine as split.go does
	for range min(runtime.GOMAXPROCS(0), len(agents)) - 1 {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					failure.CompareAndSwap(nil, fmt.Sprint(r))
					next.Store(int64(len(agents))) // the others stop after their agent
				}
			}()
			work()
		})
	}
	work()
	wg.Wait()
	if r := failure.Load(); r != nil {
		panic(r)
	}
	return out
}

// inferAgent infers a's policy from facts, its segments' (§10.10);
// prev, when not nil, is a's inference from an earlier part of the file,
// whose search goes on where it can (infermore.go).
func inferAgent(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, facts facts, book *FoldBook, prev *Inference) Inference {
	inf := Inference{Agent: a, Inferred: true, facts: &facts}
	if a.Composition {
		// a composition's own calls have no window strategy (§15.5)
		inf.Policy, inf.Inferred = model.Policy{Strategy: model.StrategyNone}, false
		inf.replay = replayOne(rec, lin, a, facts.runs, inf.Policy, nil, nil)
		inf.Evidence = "a composition's own model calls: no window strategy; their windows are not in the log"
		return inf
	}
	p := RulesOf(rec).Knobs(model.Policy{Strategy: facts.strategy, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults})
	ev := []string{facts.strategyWhy}
	if p.NeedsThreshold() {
		p.ThresholdTokens = facts.threshold
		ev = append(ev, facts.thresholdWhy)
	}
	if p.Strategy == model.StrategyNone {
		inf.Policy = p
		inf.replay = replayOne(rec, lin, a, facts.runs, p, nil, nil)
		inf.Matched, inf.Compared = inf.replay.score()
		inf.Evidence = strings.Join(append(ev, fmt.Sprintf("the windows never change; %d/%d recorded windows reproduced", inf.Matched, inf.Compared)), "; ")
		return inf
	}
	if p.Strategy != model.SummarizeOldest {
		book = nil
	}
	if r := RulesOf(rec); !r.pinsExist() {
		ev = append(ev, rulesNote(r))
	}
	s, ok := prev.searchMore(rec, lin, a, p, facts)
	if !ok {
		s = search(rec, lin, a, p, facts, book)
	}
	inf.searched = s.kept(rec, lin, p, facts)
	inf.Policy, inf.replay, inf.Folds = s.best, s.bestReplay, s.bestBook
	inf.Matched, inf.Compared, inf.Equal = s.bestScore, facts.recorded, s.equal
	inf.Inferred = !(facts.named && s.statedK && s.statedL)
	ev = append(ev, s.evidence(facts.recorded))
	inf.Evidence = strings.Join(ev, "; ")
	return inf
}

// replayOne replays agent a alone under p, reading only its runs (runs,
// as agentRuns gives them); under summarize-oldest it learns refusals into
// book, taking p as the recorded policy.
func replayOne(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, runs []int, p model.Policy, book *FoldBook, stop func(*CallReplay) bool) *Replay {
	return replayOneSplit(rec, lin, a, runs, p, book, stop, false)
}

// agentRuns maps each agent to the indices of its runs in rec.Runs, in
// order, so that an agent's inference reads its own runs and not every
// run of the file; an agent whose runs are all of them maps to nil.
func agentRuns(rec *model.Recording) map[*model.Agent][]int {
	out := map[*model.Agent][]int{}
	for i, r := range rec.Runs {
		out[r.Agent] = append(out[r.Agent], i)
	}
	for a, runs := range out {
		if len(runs) == len(rec.Runs) {
			out[a] = nil
		}
	}
	return out
}

// runCount is how many runs runs names: all of rec's when nil.
func runCount(rec *model.Recording, runs []int) int {
	if runs == nil {
		return len(rec.Runs)
	}
	return len(runs)
}

// runAt is the k-th run runs names, an index in rec.Runs.
func runAt(runs []int, k int) int {
	if runs == nil {
		return k
	}
	return runs[k]
}

// replayOneIn is replayOne in the arena mem.
func replayOneIn(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, runs []int, p model.Policy, book *FoldBook, mem *arena, stop func(*CallReplay) bool) *Replay {
	r := replay(rec, lin, replayOptions{
		runs: runs, mem: mem,
		policy: func(x *model.Agent) (model.Policy, bool) { return p, x == a },
		book:   book, learn: book != nil, stop: stop,
	})
	r.Policy, r.Policies = p, map[string]model.Policy{"": p, a.Key: p}
	return r
}

// replayOneSplit is replayOne, whose long runs are replayed on two
// goroutines when split (split.go: the second half from the recorded
// windows).
func replayOneSplit(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, runs []int, p model.Policy, book *FoldBook, stop func(*CallReplay) bool, split bool) *Replay {
	r := replay(rec, lin, replayOptions{
		runs:   runs,
		policy: func(x *model.Agent) (model.Policy, bool) { return p, x == a },
		book:   book, learn: book != nil, stop: stop, split: split,
	})
	r.Policy, r.Policies = p, map[string]model.Policy{"": p, a.Key: p}
	return r
}

// score counts the calls whose recorded window the replay reproduces, of
// those that have one.
func (r *Replay) score() (matched, compared int) {
	for i := range r.Calls {
		switch r.Calls[i].Recorded() {
		case Match:
			matched++
			compared++
		case Differs:
			compared++
		}
	}
	return matched, compared
}

// unlearnedFolds is the book for a summarize-oldest replay when no
// agent's inference learned one. Refusals are learned under the RECORDED
// policy (§11.9): with the recorded policies known and none of them
// summarize-oldest, the library never planned a fold, so it refused none
// and every fold is a placeholder; with none known (every knob a flag),
// p is taken as the recorded policy.
func unlearnedFolds(rec *model.Recording, lin *lineage.Lineage, infs []Inference, p model.Policy) *FoldBook {
	if len(infs) > 0 {
		return readFolds(rec, lin)
	}
	return RecordedFolds(rec, lin, p)
}

// FoldsFor is the book a replay of rec with an agent under p takes its
// summaries from, as Merge takes them: the folds the inferences learned,
// each agent's under its recorded policy; when they learned none and p
// summarizes, the recorded folds (unlearnedFolds). Nil when there are none
// to take.
func FoldsFor(rec *model.Recording, lin *lineage.Lineage, infs []Inference, p model.Policy) *FoldBook {
	book := joinBooks(learned(infs))
	if book == nil && p.Strategy == model.SummarizeOldest {
		book = unlearnedFolds(rec, lin, infs, p)
	}
	return book
}

// learned are the fold books the inferences learned.
func learned(infs []Inference) []*FoldBook {
	var books []*FoldBook
	for _, inf := range infs {
		if inf.Folds != nil {
			books = append(books, inf.Folds)
		}
	}
	return books
}

// Merge is a replay of every agent under policies, reusing the replay an
// inference made when its policy is the one asked for. Summaries come
// from the folds the inference learned (else from the recorded folds
// learned under the policy asked for).
func Merge(rec *model.Recording, lin *lineage.Lineage, infs []Inference, policies map[string]model.Policy) *Replay {
	return MergeUntil(rec, lin, infs, policies, nil)
}

// MergeUntil is Merge, whose replay of the agents not reused gives up
// after the first of their calls for which stop (when not nil) is true:
// the caller then holds a replay of the calls up to it.
func MergeUntil(rec *model.Recording, lin *lineage.Lineage, infs []Inference, policies map[string]model.Policy, stop func(*CallReplay) bool) *Replay {
	return merge(rec, lin, infs, policies, stop, nil, nil, nil)
}

// MergeFor is MergeUntil for what is read of agent a's calls: they, and
// of the other agents' calls only those of the runs in need (the chains
// a's calls continue), each as MergeUntil has it. A sweep makes a replay
// for every agent and policy: with the whole file each time it was
// quadratic in the agents. room, when it has room for them, is where the
// replay's calls are written: the calls of a replay the caller has let
// go, that nothing reads any more (a sweep's last, once tallied).
func MergeFor(rec *model.Recording, lin *lineage.Lineage, infs []Inference, policies map[string]model.Policy, a *model.Agent, need map[*model.Run]bool, stop func(*CallReplay) bool, room []CallReplay) *Replay {
	return merge(rec, lin, infs, policies, stop, a, need, room)
}

// merge is MergeUntil, or with only set MergeFor.
func merge(rec *model.Recording, lin *lineage.Lineage, infs []Inference, policies map[string]model.Policy, stop func(*CallReplay) bool, only *model.Agent, need map[*model.Run]bool, room []CallReplay) *Replay {
	var parts []*Replay
	var redo []*model.Agent
	redone := map[*model.Agent]bool{} // (a file may have thousands of agents: no agents × runs)
	book := joinBooks(learned(infs))
	agents := rec.Agents
	if only != nil {
		agents = []*model.Agent{only}
		for r := range need {
			if r.Agent != nil && !slices.Contains(agents, r.Agent) {
				agents = append(agents, r.Agent)
			}
		}
		slices.SortStableFunc(agents, func(x, y *model.Agent) int { return agentOrder(rec, x) - agentOrder(rec, y) })
	}
	// the inferences' replays by agent, of the agents replayed only: a
	// map of every agent's, made for each of a sweep's replays of one
	// agent, was agents × agents
	reusable := map[*model.Agent][]*Inference{}
	for i := range infs {
		if infs[i].replay != nil && (only == nil || slices.Contains(agents, infs[i].Agent)) {
			reusable[infs[i].Agent] = append(reusable[infs[i].Agent], &infs[i])
		}
	}
	for _, a := range agents {
		reused := false
		for _, inf := range reusable[a] {
			if policyOf(policies, a) == inf.Policy {
				part := inf.replay
				if only != nil && a != only {
					part = &Replay{Problems: part.Problems, Calls: needed(part.Calls, need)}
				}
				parts, reused = append(parts, part), true
				break
			}
		}
		if !reused {
			redo = append(redo, a)
			redone[a] = true
		}
	}
	if len(redo) > 0 {
		for _, a := range redo {
			if p := policyOf(policies, a); p.Strategy == model.SummarizeOldest && book == nil {
				book = unlearnedFolds(rec, lin, infs, p)
			}
		}
		var runs []int // nil: every run (the agents not redone are not replayed)
		if only != nil {
			runs = []int{}
			for i, r := range rec.Runs {
				if redone[r.Agent] {
					runs = append(runs, i)
				}
			}
		}
		parts = append(parts, replay(rec, lin, replayOptions{runs: runs, book: book, stop: stop, quit: stop != nil, room: room, policy: func(a *model.Agent) (model.Policy, bool) {
			if redone[a] {
				return policyOf(policies, a), true
			}
			return model.Policy{}, false
		}}))
	}
	out := &Replay{Lineage: lin, Policies: policies, Rules: RulesOf(rec)}
	if len(rec.Agents) > 0 {
		out.Policy = policyOf(policies, rec.Agents[0])
	}
	seen := map[string]bool{}
	if len(parts) > 1 || len(redo) == 0 {
		// one slice of the calls' size: grown part by part it took up to
		// twice the room (2,000 agents' parts: 38 MB), and copies on the way
		n := 0
		for _, part := range parts {
			n += len(part.Calls)
		}
		if n > 0 {
			out.Calls = make([]CallReplay, 0, n)
		}
	}
	for _, part := range parts {
		if len(parts) == 1 && len(redo) > 0 {
			out.Calls = part.Calls // made here for out alone: not copied
		} else {
			out.Calls = append(out.Calls, part.Calls...)
		}
		for _, pr := range part.Problems {
			if !seen[pr] {
				seen[pr] = true
				out.Problems = append(out.Problems, pr)
			}
		}
	}
	sortCalls(out.Calls)
	return out
}

// needed are the calls of calls whose run is in need.
func needed(calls []CallReplay, need map[*model.Run]bool) []CallReplay {
	var out []CallReplay
	for i := range calls {
		if need[calls[i].Run] {
			out = append(out, calls[i])
		}
	}
	return out
}

// agentOrder is a's place in rec.Agents (the order Merge replays them in).
func agentOrder(rec *model.Recording, a *model.Agent) int {
	return slices.Index(rec.Agents, a)
}
