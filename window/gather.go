package window

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
)

// What an agent's runs state of its policy (§10.10), read run by run, so
// that a longer part of the same file reads only the runs that changed.

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
		f.strategy, f.strategyWhy = model.SlidingWindow, "strategy 'sliding-window': its windows changed and nothing names the strategy "+noMeterNote(a)
	default:
		f.strategy, f.strategyWhy = model.SlidingWindow, "strategy named nowhere in the log: assuming 'sliding-window'"
	}
	if (model.Policy{Strategy: f.strategy}).NeedsThreshold() {
		f.strategyWhy += MeterNote(a) // a composition agent's meter is not recorded (§15.6)
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
