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
	mem := &arena{} // every candidate's, one after another
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
			tr.replay = candidateReplay(rec, lin, a, f.runs, q, tr.book, res.bestScore >= 0, tr.tally, mem)
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
		r := replayOneIn(rec, lin, a, f.runs, tr.policy, bk, mem, func(c *CallReplay) bool {
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

// tally is a trial's first pass's stop test: it counts each recorded
// window reproduced and stops at the first that is not.
func (tr *trial) tally(c *CallReplay) bool {
	switch c.Recorded() {
	case Match:
		tr.matched++
	case Differs:
		tr.differs = true
	}
	return tr.differs
}

// candidateReplay is a candidate's first pass: replayOneSplit, stopped
// at the first window that differs, kept to be continued when the file
// grows (no fold book: summarize-oldest is searched afresh); strip: its
// calls are let go (a best was found before it); mem, when set, the
// arena it shares with the agent's other candidates.
func candidateReplay(rec *model.Recording, lin *lineage.Lineage, a *model.Agent, runs []int, q model.Policy, book *FoldBook, strip bool, stop func(*CallReplay) bool, mem *arena) *Replay {
	r := replay(rec, lin, replayOptions{
		runs: runs, mem: mem,
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

// LargestInputs is the largest input count of each agent's calls, in one
// pass over the runs (an agent with no calls is not in it: 0).
func LargestInputs(rec *model.Recording) map[*model.Agent]int {
	out := map[*model.Agent]int{}
	for _, r := range rec.Runs {
		out[r.Agent] = max(out[r.Agent], largestInput(r))
	}
	return out
}

func largestInput(r *model.Run) int {
	n := 0
	for _, c := range r.Calls {
		n = max(n, c.Usage.Input)
	}
	return n
}
