package window

import (
	"slices"
	"sort"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// A log followed as it is written grows by a few calls at a time, and
// its replay is made again only where they change it. A run's replay is
// a function of its seed and its calls: the calls before the first that
// changed keep what they were, and the run goes on from the state its
// chain had there; a new run starts from the state its predecessor
// ended in. The loader hands out a run's latest call settled on a copy
// until the next one settles it (its view.go), so a run changes from its
// last call on: a replay made to be continued (replayOptions.keep) keeps,
// for the runs at its end and those still running (its tips), the state
// each one's chain had before its last call, after it, and as the run
// ended. The answer is always the one a replay from the start makes:
// where a run changed earlier, a link changed, a run another continues
// changed, or a state was not kept, there is none (grow returns nil),
// and the replay is made from the start.

// tipRuns is how many runs at the end of a replay's list are tips
// besides those still running; maxTips bounds them all.
const (
	tipRuns = 64
	maxTips = 1024
)

// growth is what a replay keeps to be continued.
type growth struct {
	o   replayOptions // as made, stop aside
	rec *model.Recording
	lin *lineage.Lineage
	// order is the runs replayed, in order (indices in rec.Runs), and
	// runs what each left; a stripped growth (a candidate's while
	// inference searches: its calls are let go) keeps only the tips,
	// and what the runs before them scored in frozen
	order    []int
	runs     map[int]*runGrowth
	stripped bool
	frozen   runScore // stripped: the runs before order's
	tips     int      // runs of order that are tips
	// ahead is how many runs the replay has yet to make at most: a run
	// ended with more than tipRuns after it is made no tip at all
	ahead     int
	stoppedAt int // the run a stop ended the replay in, -1 for none
	stopCall  int // and its call there
}

// runGrowth is what one run's replay left.
type runGrowth struct {
	calls       int      // calls replayed
	score       runScore // of its calls but the last
	last        string   // the last call's Recorded()
	problems    []callProblem
	composition bool
	tip         *tipState // nil when it is no tip
	owner       *growth   // the growth that made it, the only one that changes it
}

// tipState is what a tip keeps: its chain's states before and after its
// last call, and as it ended; reentry is its history as of the last
// iteration_end of its calls but the last, and of all (§14.5).
type tipState struct {
	before, after            chain
	end                      *chain
	reentryBefore, reentryAt history
	// beforeHistory, when set, is before's history, made when asked
	// for: most tips are let go unread
	beforeHistory history
}

// history is a chain's history as a window and the call whose messages
// follow it, made when asked for (none when c is nil).
type history struct {
	w []*model.Message
	c *model.Call
}

func (h history) get() []*model.Message {
	if h.c == nil {
		return nil
	}
	return append(h.w[:len(h.w):len(h.w)], h.c.Appended...)
}

// callProblem is a problem a call's visit met.
type callProblem struct {
	ci   int
	text string
}

// runScore is how many recorded windows a replay reproduces, and
// whether one differs: a candidate stops at the first (§10.10).
type runScore struct {
	matched int
	differs bool
}

func (s *runScore) add(outcome string) {
	switch outcome {
	case Match:
		s.matched++
	case Differs:
		s.differs = true
	}
}

// then is s followed by t, as a candidate counts: up to the first
// window that differs.
func (s runScore) then(t runScore) runScore {
	if s.differs {
		return s
	}
	return runScore{matched: s.matched + t.matched, differs: t.differs}
}

func newGrowth(rec *model.Recording, lin *lineage.Lineage, o replayOptions) *growth {
	o.stop = nil
	return &growth{o: o, rec: rec, lin: lin, runs: map[int]*runGrowth{}, stoppedAt: -1, stripped: o.strip}
}

// add files rg, run i's, after the runs filed so far.
func (g *growth) add(i int, rg *runGrowth) {
	g.ahead--
	if g.stripped && rg.tip == nil && len(g.order) == 0 {
		g.frozen = g.frozen.then(rg.total()) // let go at once
		return
	}
	g.order = append(g.order, i)
	g.runs[i] = rg
	if rg.tip != nil {
		g.tips++
	}
	g.trim()
}

// trim lets go of the states of the runs that are no longer tips: the
// run that falls tipRuns runs behind when it has ended, the oldest tips
// past maxTips; a stripped growth also lets go of the runs before its
// first tip (past 2*maxTips runs, of that tip too), keeping their score.
func (g *growth) trim() {
	if n := len(g.order) - 1 - tipRuns; n >= 0 {
		if i := g.order[n]; g.runs[i].tip != nil && g.rec.Runs[i].Complete {
			g.untip(i)
		}
	}
	for k := 0; g.tips > maxTips && k < len(g.order); k++ {
		g.untip(g.order[k])
	}
	if !g.stripped {
		return
	}
	k := 0
	for k < len(g.order) && (g.runs[g.order[k]].tip == nil || len(g.order)-k > 2*maxTips) {
		i := g.order[k]
		g.frozen = g.frozen.then(g.runs[i].total())
		if g.runs[i].tip != nil {
			g.tips--
		}
		delete(g.runs, i)
		k++
	}
	g.order = g.order[k:]
}

// untip lets go of run i's states (on a copy: an earlier growth may
// share what run i left).
func (g *growth) untip(i int) {
	rg := g.runs[i]
	if rg.tip == nil {
		return
	}
	if rg.owner != g {
		cp := *rg
		cp.owner = g
		rg = &cp
		g.runs[i] = rg
	}
	rg.tip = nil
	g.tips--
}

// total is the run's score, its last call's too.
func (rg *runGrowth) total() runScore {
	s := rg.score
	s.add(rg.last)
	return s
}

// strip lets go of what only a replay that keeps its calls needs.
func (g *growth) strip() {
	if g == nil {
		return
	}
	g.stripped = true
	for _, rg := range g.runs {
		rg.problems = nil
	}
	g.trim()
}

// score is how many recorded windows the replay reproduces before the
// first it does not, and whether there is one.
func (g *growth) score() runScore {
	s := g.frozen
	for _, i := range g.order {
		s = s.then(g.runs[i].total())
	}
	return s
}

// composition notes a composition's own calls (no chain).
func (g *growth) composition(i int, calls []CallReplay) {
	if g == nil {
		return
	}
	rg := &runGrowth{calls: len(calls), composition: true}
	rg.scoreCalls(calls)
	g.add(i, rg)
}

// ran notes run i, replayed from seeded with calls (the whole run's),
// last its chain after them, end as it ended.
func (g *growth) ran(i int, seeded, last, end *chain, calls []CallReplay, run *model.Run, stopped bool) {
	if g == nil {
		return
	}
	rg := &runGrowth{calls: len(calls), owner: g}
	if !g.stripped {
		rg.problemsOf(calls, 0)
	}
	rg.scoreCalls(calls)
	if stopped {
		g.stoppedAt, g.stopCall = i, len(calls)-1
	} else if len(calls) > 0 && g.tipAt(run) && !(run.Complete && g.ahead > tipRuns) {
		t := &tipState{after: *last, end: end}
		t.before, t.beforeHistory = before(seeded, calls, run)
		t.reentryBefore = reentryFrom(run, calls[:len(calls)-1], 0)
		t.reentryAt = reentryFrom(run, calls, 0)
		rg.tip = t
	}
	g.add(i, rg)
}

// tipAt: a run replayed now is a tip, as it may be continued.
func (g *growth) tipAt(run *model.Run) bool { return !run.Composition }

// problemsOf notes the problems of calls, the run's from call k on.
func (rg *runGrowth) problemsOf(calls []CallReplay, k int) {
	for j := range calls {
		if v := &calls[j].Visit; v.Problem != "" {
			rg.problems = append(rg.problems, callProblem{k + j, v.Problem})
		}
	}
}

// scoreCalls scores calls, the run's last replayed, into the score of
// all but the last and the last's outcome.
func (rg *runGrowth) scoreCalls(calls []CallReplay) {
	for j := range calls {
		if j == len(calls)-1 {
			rg.last = calls[j].Recorded()
		} else {
			rg.score.add(calls[j].Recorded())
		}
	}
}

// before is the chain before the last of calls, the whole run's, which
// started from seeded: what the visits filed and read, and the history
// the call before the last left (h, when set, is that history: ch has
// none till it is made).
func before(seeded *chain, calls []CallReplay, run *model.Run) (ch chain, h history) {
	ch = *seeded
	n := len(calls)
	for ci := range n - 1 {
		if r := calls[ci].Visit.Record; r != nil {
			ch.file(r)
		}
		if call := run.Calls[ci]; call.Measured {
			ch.reading, ch.readIter, ch.hasReading = call.Usage, call.Iteration, true
		}
	}
	if n >= 2 {
		w := calls[n-2].Visit.After
		ch.window, ch.last, ch.history = w, run.Calls[n-2], nil
		h = history{w, run.Calls[n-2]}
	}
	return ch, h
}

// reentryFrom is reentry of calls, the run's from call k on; none when
// none of them completed an iteration_end.
func reentryFrom(run *model.Run, calls []CallReplay, k int) history {
	for j := len(calls) - 1; j >= 0; j-- {
		if c := run.Calls[k+j]; c.History {
			return history{calls[j].Visit.After, c}
		}
	}
	return history{}
}

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
	p, _ := rp.o.policy(run.Agent)
	x := rp.runner(i, p)
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
	var ns *notes
	if rp.o.note {
		ns = newNotes(len(run.Calls) - k)
	}
	out := rp.out
	from := len(out.Calls)
	beforeLast := ch
	for ci := k; ci < len(run.Calls); ci++ {
		beforeLast = ch
		out.Calls = append(out.Calls, CallReplay{})
		c := &out.Calls[len(out.Calls)-1]
		x.callInto(c, &ch, ci, rp.mem)
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
	calls := out.Calls[from:]
	nrg := &runGrowth{calls: k + len(calls), score: rg.score, owner: rp.grow}
	if k == rg.calls {
		nrg.score.add(rg.last)
	}
	for _, pr := range rg.problems {
		if pr.ci < k {
			nrg.problems = append(nrg.problems, pr)
		}
	}
	nrg.problemsOf(calls, k)
	if len(calls) == 0 {
		nrg.score, nrg.last = rg.score, rg.last
	} else {
		nrg.scoreCalls(calls)
	}
	if rp.stopped {
		rp.grow.stoppedAt, rp.grow.stopCall = i, k+len(calls)-1
		rp.grow.add(i, nrg)
		return true
	}
	end := rp.end(run, ch, calls, k, rg)
	rp.states.set(i, end)
	nt := &tipState{after: ch, end: end}
	switch {
	case len(calls) >= 2:
		nt.before = beforeLast
	case len(calls) == 1 && k == rg.calls:
		nt.before = t.after
	default:
		nt.before, nt.beforeHistory = t.before, t.beforeHistory
	}
	base := t.reentryAt // over the calls before k
	if k < rg.calls {
		base = t.reentryBefore
	}
	nt.reentryAt = base
	if r := reentryFrom(run, calls, k); r.c != nil {
		nt.reentryAt = r
	}
	nt.reentryBefore = base
	if len(calls) >= 2 {
		if r := reentryFrom(run, calls[:len(calls)-1], k); r.c != nil {
			nt.reentryBefore = r
		}
	} else if len(calls) == 0 {
		nt.reentryBefore = t.reentryBefore
	}
	nrg.tip = nt
	rp.grow.add(i, nrg)
	return true
}

// end is the state run ends in, its chain ch after its last call: the
// calls its replay made again are calls, from its call k on.
func (rp *replayer) end(run *model.Run, ch chain, calls []CallReplay, k int, rg *runGrowth) *chain {
	end := ch
	switch {
	case run.Complete && run.FinalMessage != nil:
		end.history = append(end.history[:len(end.history):len(end.history)], run.FinalMessage)
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

// problems are the problems of the runs' calls, in order, each once.
func (g *growth) problems() []string {
	var out []string
	seen := map[string]bool{}
	for _, i := range g.order {
		for _, pr := range g.runs[i].problems {
			if !seen[pr.text] {
				seen[pr.text] = true
				out = append(out, pr.text)
			}
		}
	}
	return out
}
