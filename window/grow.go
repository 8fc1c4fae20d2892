package window

import (
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
// besides those still running; maxTips bounds them all. A run that ended
// with more than tipRuns runs of the file after it is no tip either: a
// file of 2,000 agents of ten runs each would keep every run of every
// candidate of every agent (a run continued that far on is replayed
// again with its agent, from the start).
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
	o.stop, o.mem = nil, nil // a replay grown later has its own memory: the arena may be another's by then
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
	t := tallyCalls(calls, 0)
	g.add(i, &runGrowth{calls: len(calls), composition: true, score: t.score, last: t.last})
}

// ran notes run i, replayed from seeded with calls (the whole run's),
// last its chain after them, end as it ended; tally is tallyCalls(calls, 0).
func (g *growth) ran(i int, seeded, last, end *chain, calls []CallReplay, run *model.Run, stopped bool, tally *callTally) {
	if g == nil {
		return
	}
	rg := &runGrowth{calls: len(calls), owner: g, score: tally.score, last: tally.last}
	if !g.stripped {
		rg.problems = tally.problems
	}
	if stopped {
		g.stoppedAt, g.stopCall = i, len(calls)-1
	} else if len(calls) > 0 && g.tipAt(run) && !(run.Complete && (g.ahead > tipRuns || len(g.rec.Runs)-1-i > tipRuns)) {
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

// callTally is what the end of a run reads of each of its calls, in one
// pass: their problems, and how many recorded windows all but the last
// reproduce (runScore), with the last's outcome.
type callTally struct {
	problems []callProblem
	score    runScore
	last     string
}

// tallyCalls is the tally of calls, a run's last replayed, from its call
// k on (split makes it as the calls are made, where it can: a pass over
// 50,000 calls reads megabytes that a knob key would wait for).
func tallyCalls(calls []CallReplay, k int) callTally {
	var t callTally
	for j := range calls {
		t.add(&calls[j], k+j, k+len(calls))
	}
	return t
}

// add tallies c, call ci of a run of n calls.
func (t *callTally) add(c *CallReplay, ci, n int) {
	if c.Visit.Problem != "" {
		t.problems = append(t.problems, callProblem{ci, c.Visit.Problem})
	}
	if ci == n-1 {
		t.last = c.recorded
	} else {
		t.score.add(c.recorded)
	}
}

// then is the tally of t's calls followed by u's.
func (t callTally) then(u callTally) callTally {
	t.problems = append(t.problems, u.problems...)
	t.score.matched += u.score.matched
	t.score.differs = t.score.differs || u.score.differs
	t.last = u.last
	return t
}

// before is the chain before the last of calls, the whole run's, which
// started from seeded: what the visits filed and read, and the history
// the call before the last left (h, when set, is that history: ch has
// none till it is made).
//
// A chain keeps only the last two records filed and the last reading, so
// they are looked for from the call before the last backwards: a run of
// 50,000 calls is not read again from its first after its replay.
func before(seeded *chain, calls []CallReplay, run *model.Run) (ch chain, h history) {
	ch = *seeded
	n := len(calls)
	var last [2]*model.Record // newest first
	k := 0
	for ci := n - 2; ci >= 0 && k < len(last); ci-- {
		if r := calls[ci].Visit.Record; r != nil {
			last[k], k = r, k+1
		}
	}
	for k--; k >= 0; k-- {
		ch.file(last[k])
	}
	for ci := n - 2; ci >= 0; ci-- {
		if call := run.Calls[ci]; call.Measured {
			ch.reading, ch.readIter, ch.hasReading = call.Usage, call.Iteration, true
			break
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
