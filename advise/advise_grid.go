package advise

import (
	"math"
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The grid the advisor sweeps, for each agent key:
//   - sliding-window at keepRecentTurns 1–10 × keepLastToolResults 0–5
//     (0 alone where the library version has no pins, §17);
//   - token-budget at thresholdTokens ×0.5, ×0.75, ×1, ×1.5 and ×2 of the
//     recorded threshold (the largest input recorded when the agent has
//     none) × keepRecentTurns 1–10: the strategy's own knobs, with
//     keepLastToolResults, the agent's, as recorded; a threshold that
//     never engages is left out (thresholds);
//   - summarize-oldest likewise, only where the agent's folds are recorded
//     (a summary cannot be recomputed: a fold the library never made is a
//     placeholder, §11.9);
//   - each file's recorded policy.
//
// Every policy is one the library version could have had (window.Rules
// Knobs: no pins before 9.57.0, no anchor before 9.55.0), each once.
var thresholdTimes = []float64{0.5, 0.75, 1, 1.5, 2}

const (
	gridTurns = 10 // keepRecentTurns 1..gridTurns
	gridPins  = 5  // keepLastToolResults 0..gridPins
)

// keyGrid is the grid of one agent key and its recorded policy's row.
type keyGrid struct {
	policies []model.Policy
	recorded int
	from     *subject // the file whose recorded policy it is
	// unengaged are the thresholds left out: at or above the largest
	// input recorded, they never engage (thresholds)
	unengaged []int
}

// adviseGrid is the grid for the subjects of one agent key; it sets each
// subject's own recorded row.
func adviseGrid(subs []*subject) *keyGrid {
	rules := window.RulesOf(subs[0].s.Rec)
	g := &keyGrid{from: mostRecorded(subs)}
	rec := g.from.agent.Recorded
	add := func(p model.Policy) int {
		if at := slices.Index(g.policies, p); at >= 0 {
			return at
		}
		g.policies = append(g.policies, p)
		return len(g.policies) - 1
	}
	pins := []int{0}
	if rules.Knobs(model.Policy{KeepLastToolResults: 1}).KeepLastToolResults > 0 {
		pins = pins[:0]
		for l := 0; l <= gridPins; l++ {
			pins = append(pins, l)
		}
	}
	for k := 1; k <= gridTurns; k++ {
		for _, l := range pins {
			add(rules.Knobs(model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l, NoAnchor: rec.NoAnchor}))
		}
	}
	l := rec.KeepLastToolResults
	if rec.Strategy == model.StrategyNone || rec.Strategy == "" {
		l = model.DefaultKeepLastToolResults
	}
	strategies := []string{model.TokenBudget}
	if slices.ContainsFunc(subs, func(s *subject) bool { return s.agent.FoldsRecorded() }) {
		strategies = append(strategies, model.SummarizeOldest)
	}
	ts, unengaged := thresholds(rec, subs)
	g.unengaged = unengaged
	for _, st := range strategies {
		for _, t := range ts {
			for k := 1; k <= gridTurns; k++ {
				add(rules.Knobs(model.Policy{Strategy: st, KeepRecentTurns: k, KeepLastToolResults: l, ThresholdTokens: t, NoAnchor: rec.NoAnchor}))
			}
		}
	}
	for _, s := range subs {
		s.own = add(s.agent.Recorded)
	}
	g.recorded = g.from.own
	return g
}

// thresholds are the grid's thresholdTokens: the multiples of the
// recorded threshold, else of the largest input the agent's calls
// recorded, that are below that largest input; and those left out. A
// replay reads the provider's recorded counts, so a budget at or above
// the largest never engages: every window would be the whole history,
// a run's worth of windows that no model's context holds (and that a
// long log's replay cannot hold in memory either). None when no call
// measured its input (tier minimal).
func thresholds(rec model.Policy, subs []*subject) (in, out []int) {
	largest := 0
	for _, s := range subs {
		largest = max(largest, s.agent.LargestInput)
	}
	base := largest
	if rec.NeedsThreshold() && rec.ThresholdTokens > 0 {
		base = rec.ThresholdTokens
	}
	for _, x := range thresholdTimes {
		t := int(math.Round(float64(base) * x))
		switch {
		case t <= 0 || slices.Contains(in, t) || slices.Contains(out, t):
		case t < largest:
			in = append(in, t)
		default:
			out = append(out, t)
		}
	}
	return in, out
}

// mostRecorded is the subject whose recorded policy most of the subjects
// share, the first on a tie.
func mostRecorded(subs []*subject) *subject {
	best, most := subs[0], 0
	for _, s := range subs {
		n := 0
		for _, o := range subs {
			if o.agent.Recorded == s.agent.Recorded {
				n++
			}
		}
		if n > most {
			best, most = s, n
		}
	}
	return best
}
