package window

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// facts is what an agent's segments state about its policy.
type facts struct {
	strategy, strategyWhy string
	threshold             int
	thresholdWhy          string
	maxTurns              int   // the most turns any recorded window had
	recorded              int   // calls with a recorded window
	statedK, statedL      int   // from an envelope's records; -1 when not stated
	named                 bool  // the strategy (and threshold) came from the log, not a guess
	runs                  []int // the agent's runs, indices in rec.Runs; nil: every run is its
}

// isPrefix: a starts b, by role and content.
func isPrefix(a, b []*model.Message) bool {
	return len(a) <= len(b) && sameWindow(a, b[:len(a)])
}

var noticeStrategy = regexp.MustCompile(`by the '([^']+)' window strategy\.`)

// gather reads the strategy and threshold of agent a (§10.10) and the
// size of its recorded windows, from its runs alone (runs, as agentRuns
// gives them).
func gather(rec *model.Recording, a *model.Agent, runs []int) facts {
	f, _ := gatherFrom(rec, a, runs, nil)
	return f
}

// gatherFrom is gather, each run read from what was read of it before
// (was, by index in rec.Runs; nil for nothing): a run the same as then
// is not read again, one whose calls grew is read from its last call on.
// It returns what it read of each run too.
func gatherFrom(rec *model.Recording, a *model.Agent, runs []int, was map[int]*runFacts) (facts, map[int]*runFacts) {
	f := facts{statedK: -1, statedL: -1, runs: runs}
	read := make(map[int]*runFacts, runCount(rec, runs))
	configured, notice, frame, changed := "", "", false, false
	caps := map[int]int{}
	largest := 0
	for k := range runCount(rec, runs) {
		i := runAt(runs, k)
		r := rec.Runs[i]
		if r.Agent != a {
			continue
		}
		rf := readRun(r, was[i])
		read[i] = rf
		if r.Configured && configured == "" {
			configured = r.Strategy
		}
		for _, c := range r.Caps {
			caps[c]++
		}
		if f.statedK < 0 {
			f.statedK = rf.statedK
		}
		if f.statedL < 0 {
			f.statedL = rf.statedL
		}
		c := &rf.at
		largest = max(largest, c.largest)
		changed = changed || c.changed
		f.recorded += c.recorded
		f.maxTurns = max(f.maxTurns, c.maxTurns)
		frame = frame || c.frame
		if notice == "" {
			notice = c.notice
		}
	}
	switch {
	case configured != "":
		f.named = true
		f.strategy, f.strategyWhy = configured, fmt.Sprintf("strategy '%s' from run_configured", configured)
	case frame:
		f.strategy, f.strategyWhy = model.SummarizeOldest, "strategy 'summarize-oldest' from the compaction frames of its recorded windows"
	case notice != "":
		f.strategy, f.strategyWhy = notice, fmt.Sprintf("strategy '%s' named by the drop notices of its recorded windows", notice)
	case len(caps) > 0:
		f.strategy, f.strategyWhy = model.TokenBudget, "strategy 'token-budget' from its budget_pressure events"
	case changed:
		f.strategy, f.strategyWhy = model.SlidingWindow, "strategy 'sliding-window': its windows changed and nothing names the strategy (a Sequence step has no meter)"
	default:
		f.strategy, f.strategyWhy = model.SlidingWindow, "strategy named nowhere in the log: assuming 'sliding-window'"
	}
	best, n := 0, 0
	for c, k := range caps {
		if k > n || k == n && c < best {
			best, n = c, k
		}
	}
	if n > 0 {
		f.threshold, f.thresholdWhy = best, fmt.Sprintf("thresholdTokens %d from budget_pressure cap", best)
	} else if (model.Policy{Strategy: f.strategy}).NeedsThreshold() && rec.Tier == model.TierMinimal {
		f.named = false
		f.threshold, f.thresholdWhy = 0, "thresholdTokens unknown: tier minimal keeps no usage" // §16.4
	} else if (model.Policy{Strategy: f.strategy}).NeedsThreshold() {
		f.named = false
		f.threshold, f.thresholdWhy = largest, fmt.Sprintf("no budget_pressure: the strategy never engaged, so thresholdTokens is taken as the largest input, %d", largest)
	}
	return f, read
}

// runFacts is what gather read of one run: the knobs its records
// state, and what its calls' recorded windows show, as of its calls but
// the last (before) and of all (at).
type runFacts struct {
	run              *model.Run
	statedK, statedL int
	calls            int
	before, at       windowFacts
}

// windowFacts is what recorded windows show: the largest input, how many
// there are, the most turns, whether something left between two of them,
// a compaction frame, the strategy the first drop notice names; prev is
// the last one read (a call with none reads none).
type windowFacts struct {
	largest, recorded, maxTurns int
	changed, frame              bool
	notice                      string
	prev                        []*model.Message
}

// readRun reads r, from was, what was read of it before, where r's calls
// before its last then are the same.
func readRun(r *model.Run, was *runFacts) *runFacts {
	if was != nil && was.run == r {
		return was
	}
	rf := &runFacts{run: r, statedK: -1, statedL: -1}
	for _, x := range r.Records {
		if rf.statedK < 0 && x.KeepRecentTurns > 0 {
			rf.statedK = x.KeepRecentTurns
		}
		if rf.statedL < 0 && x.Observations != nil && x.Observations.Limit > 0 {
			rf.statedL = x.Observations.Limit
		}
	}
	from, w := 0, windowFacts{}
	if was != nil && was.calls > 0 && len(r.Calls) >= was.calls && sameUpTo(r, was.run, was.calls-1) {
		from, w = was.calls-1, was.before // its last call then may have changed
		if r.Calls[was.calls-1] == was.run.Calls[was.calls-1] {
			from, w = was.calls, was.at
			rf.before = was.before
		}
	}
	for ci := from; ci < len(r.Calls); ci++ {
		if ci == len(r.Calls)-1 {
			rf.before = w
		}
		w.read(r.Calls[ci])
	}
	rf.calls, rf.at = len(r.Calls), w
	return rf
}

// sameUpTo: r's first n calls are was's.
func sameUpTo(r, was *model.Run, n int) bool {
	if len(r.Calls) < n || len(was.Calls) < n {
		return false
	}
	for i := range n {
		if r.Calls[i] != was.Calls[i] {
			return false
		}
	}
	return true
}

// read reads one call's recorded window.
func (w *windowFacts) read(c *model.Call) {
	w.largest = max(w.largest, c.Usage.Input)
	if c.Recorded == nil {
		w.prev = nil
		return
	}
	if w.prev != nil && !isPrefix(w.prev, c.Recorded) {
		w.changed = true // something left between two calls
	}
	w.prev = c.Recorded
	w.recorded++
	w.maxTurns = max(w.maxTurns, countTurns(c.Recorded))
	for _, m := range c.Recorded {
		if m.Role != model.RoleUser {
			continue
		}
		if strings.HasPrefix(m.Content, model.CompactedPrefix) {
			w.frame = true
		}
		if w.notice == "" && strings.HasPrefix(m.Content, model.DroppedPrefix) {
			if sm := noticeStrategy.FindStringSubmatch(m.Content); sm != nil {
				w.notice = sm[1]
			}
		}
	}
}

// candidates are the K and L search tries, in its order.
func candidates(rec *model.Recording, f facts) (ks, ls []int) {
	for k := 1; k <= min(f.maxTurns+1, maxInferK); k++ {
		ks = append(ks, k)
	}
	ls = []int{model.DefaultKeepLastToolResults}
	for l := 0; l <= maxInferL; l++ {
		if l != model.DefaultKeepLastToolResults {
			ls = append(ls, l)
		}
	}
	if f.statedK > 0 {
		ks = []int{f.statedK}
	}
	if f.statedL > 0 {
		ls = []int{f.statedL}
	}
	if !RulesOf(rec).pinsExist() {
		ls = []int{0} // the version had no pins (§17.3)
	}
	return ks, ls
}

// searchResult is the best (K, L) found and the equally good ones.
type searchResult struct {
	best       model.Policy
	bestScore  int
	bestReplay *Replay
	bestBook   *FoldBook // the recorded folds with the refusals learned under best
	equal      [][2]int  // (K, L) scoring bestScore
	statedK    bool      // K was read from the envelope's records
	statedL    bool      // so was L
	// trials are the candidates tried, in order, when one reproduces
	// every recorded window: what a longer part of the file is searched
	// again from (infermore.go); nil otherwise
	trials []trial
}

// search tries K from 1 to one more than the most turns, L from 0 to 5,
// L = 2 first (the library default wins a tie), then the smallest L, the
// smallest K. A candidate stops being replayed as soon as it cannot reach
// the best score so far.
func search(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, p model.Policy, f facts, book *FoldBook) searchResult {
	ks, ls := candidates(rec, f)
	res := searchResult{bestScore: -1, statedK: f.statedK > 0, statedL: f.statedL > 0}
	// First every candidate up to its first differing window, in
	// preference order: the first that differs nowhere is the answer,
	// and the others that differ nowhere are as good.
	var tries []trial
	for _, l := range ls {
		for _, k := range ks {
			q := p
			q.KeepRecentTurns, q.KeepLastToolResults = k, l
			tr := trial{policy: q, book: book.fresh()}
			// long runs on two goroutines (split.go), the second half
			// started once the candidate reproduced its first windows
			tr.replay = candidateReplay(rec, lin, a, f.runs, q, tr.book, res.bestScore >= 0, func(c *CallReplay) bool {
				switch c.Recorded() {
				case Match:
					tr.matched++
				case Differs:
					tr.differs = true
				}
				return tr.differs
			})
			if !tr.differs && res.bestScore < 0 {
				res.best, res.bestScore, res.bestReplay, res.bestBook = q, tr.matched, tr.replay, tr.book
			}
			if !tr.differs {
				res.equal = append(res.equal, [2]int{k, l})
			}
			tries = append(tries, tr)
		}
	}
	if res.bestScore >= 0 {
		res.trials = tries
		return res
	}
	// None reproduces every window: score them in full, the longest
	// reproducing prefix first, each only as long as it can still beat
	// the best so far.
	slices.SortStableFunc(tries, func(x, y trial) int { return y.matched - x.matched })
	for _, tr := range tries {
		matched, missed := 0, 0
		bk := book.fresh()
		r := replayOne(rec, lin, a, f.runs, tr.policy, bk, func(c *CallReplay) bool {
			switch c.Recorded() {
			case Match:
				matched++
			case Differs:
				missed++
			}
			return f.recorded-missed < res.bestScore
		})
		if f.recorded-missed < res.bestScore {
			continue
		}
		kl := [2]int{tr.policy.KeepRecentTurns, tr.policy.KeepLastToolResults}
		switch {
		case matched > res.bestScore, matched == res.bestScore && prefer(tr.policy, res.best, ls):
			if matched > res.bestScore {
				res.equal = nil
			}
			res.best, res.bestScore, res.bestReplay, res.bestBook = tr.policy, matched, r, bk
			res.equal = append(res.equal, kl)
		case matched == res.bestScore:
			res.equal = append(res.equal, kl)
		}
	}
	return res
}

// trial is one candidate's first pass: how many windows it reproduced
// before the first that differs.
type trial struct {
	policy  model.Policy
	matched int
	differs bool
	replay  *Replay
	book    *FoldBook
	// stopAt is the run its first pass stopped in (kept): -1 for none, or
	// not known; stopCall its call there
	stopAt, stopCall int
}

// candidateReplay is a candidate's first pass: replayOneSplit, stopped
// at the first window that differs, kept to be continued when the file
// grows (no fold book: summarize-oldest is searched afresh); strip: its
// calls are let go (a best was found before it).
func candidateReplay(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, runs []int, q model.Policy, book *FoldBook, strip bool, stop func(*CallReplay) bool) *Replay {
	r := replay(rec, lin, replayOptions{
		runs:   runs,
		policy: func(x *model.Agent) (model.Policy, bool) { return q, x == a },
		book:   book, learn: book != nil, stop: stop, split: true, keep: book == nil, differ: true, strip: strip && book == nil,
	})
	r.Policy, r.Policies = q, map[string]model.Policy{"": q, a.Key: q}
	return r
}

// prefer reports whether q wins a tie over best: an L earlier in ls (the
// library default first, then the smallest), then the smaller K.
func prefer(q, best model.Policy, ls []int) bool {
	qi, bi := slices.Index(ls, q.KeepLastToolResults), slices.Index(ls, best.KeepLastToolResults)
	if qi != bi {
		return qi < bi
	}
	return q.KeepRecentTurns < best.KeepRecentTurns
}

// evidence says which K and L were chosen, how many windows they
// reproduce, and what else did as well.
func (s searchResult) evidence(recorded int) string {
	if recorded == 0 {
		return fmt.Sprintf("no recorded window to compare: keepRecentTurns %d and keepLastToolResults %d (the smallest tried, the library's pin default)",
			s.best.KeepRecentTurns, s.best.KeepLastToolResults)
	}
	out := ""
	if s.statedK {
		out += fmt.Sprintf("keepRecentTurns %d from the envelope's records; ", s.best.KeepRecentTurns)
	}
	if s.statedL {
		out += fmt.Sprintf("keepLastToolResults %d from the records' pin limit; ", s.best.KeepLastToolResults)
	}
	out += fmt.Sprintf("keepRecentTurns %d and keepLastToolResults %d reproduce %d/%d recorded windows",
		s.best.KeepRecentTurns, s.best.KeepLastToolResults, s.bestScore, recorded)
	if s.bestScore < recorded {
		out += " (no policy tried reproduces every recorded window; this is the closest)"
	}
	if len(s.equal) > 1 {
		var ks, ls []int
		for _, e := range s.equal {
			ks, ls = append(ks, e[0]), append(ls, e[1])
		}
		out += fmt.Sprintf(" (equally good: K %s, L %s)", ranges(ks), ranges(ls))
	}
	return out
}

// ranges writes a set of numbers as runs: "1–3, 5".
func ranges(ns []int) string {
	slices.Sort(ns)
	ns = slices.Compact(ns)
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, strconv.Itoa(ns[i])+"–"+strconv.Itoa(ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// LargestInput is the largest input count of agent a's calls.
func LargestInput(rec *model.Recording, a *model.Agent) int {
	n := 0
	for _, r := range rec.Runs {
		if r.Agent != a {
			continue
		}
		for _, c := range r.Calls {
			n = max(n, c.Usage.Input)
		}
	}
	return n
}
