package window

import (
	"fmt"
	"sort"
	"strings"

	"github.com/afinspect/inspect/model"
)

// Inference is the policy a recording was most likely made under, and why.
type Inference struct {
	Policy   model.Policy
	Inferred bool   // some knob was not stated by the input and was inferred
	Evidence string // what each knob was read or inferred from
	// Matched of Compared calls' recorded windows the policy reproduces.
	Matched, Compared int
	// Folds are the recorded folds of a summarize-oldest recording, with
	// the refusals learned under Policy (nil for other strategies): a
	// replay under any policy takes its summaries from them (RunFolds).
	Folds *FoldBook
}

// maxInferK bounds the keepRecentTurns search; past the longest recorded
// window every value behaves the same.
const maxInferK = 64

// Infer reads what the recording states (the strategy, a token threshold,
// and, from an envelope's records, keepRecentTurns and the pin limit) and
// infers the rest as the values whose replay reproduces every recorded
// window. Among values that all reproduce it, the library's defaults win,
// then the smallest. When none does, the closest is chosen and said so.
func Infer(rec *model.Recording) Inference {
	var ev []string
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults}
	strategy, threshold := "", 0
	for _, r := range rec.Runs {
		if strategy == "" {
			strategy = r.Strategy
		}
		if r.ThresholdTokens > threshold {
			threshold = r.ThresholdTokens
		}
	}
	if strategy != "" {
		p.Strategy = strategy
		ev = append(ev, fmt.Sprintf("strategy %s from run_configured", strategy))
	} else {
		ev = append(ev, "no strategy named in the log; assuming sliding-window")
	}
	if threshold > 0 {
		p.ThresholdTokens = threshold
		ev = append(ev, fmt.Sprintf("thresholdTokens=%d from budget_pressure", threshold))
	}
	if (p.Strategy == model.TokenBudget || p.Strategy == model.SummarizeOldest) && threshold == 0 {
		// an engaged visit always reports its cap: with none reported the
		// strategy never engaged, so the threshold is at least every input
		p.ThresholdTokens = largestInput(rec)
		ev = append(ev, fmt.Sprintf("no budget_pressure event: the strategy never engaged, so thresholdTokens is at least %d (the largest input)", p.ThresholdTokens))
	}
	k, l := statedByRecords(rec)
	if k >= 0 {
		p.KeepRecentTurns = k
		ev = append(ev, fmt.Sprintf("keepRecentTurns=%d from the envelope's records", k))
	}
	if l >= 0 {
		p.KeepLastToolResults = l
		ev = append(ev, fmt.Sprintf("keepLastToolResults=%d from the records' pin limit", l))
	}
	inf := Inference{Policy: p}
	var folds *FoldBook
	if p.Strategy == model.SummarizeOldest {
		folds = readFolds(rec) // each policy tried learns its own refusals (§10.10)
	}
	inf = inferKnobs(rec, inf, ev, k, l, folds)
	if folds != nil {
		inf.Folds = folds.learnedUnder(rec, inf.Policy)
	}
	return inf
}

// inferKnobs settles keepRecentTurns and keepLastToolResults where the
// input did not state them (k, l < 0).
func inferKnobs(rec *model.Recording, inf Inference, ev []string, k, l int, folds *FoldBook) Inference {
	p := inf.Policy
	if k >= 0 && l >= 0 { // the records state both: nothing to infer
		inf.Matched, inf.Compared = score(rec, p, folds)
		inf.Evidence = strings.Join(ev, "; ")
		return inf
	}
	inf.Inferred = true
	ks := candidatesK(rec, k)
	ls := []int{model.DefaultKeepLastToolResults, 0, 1, 3, 4}
	if l >= 0 {
		ls = []int{l}
	}
	var tries []model.Policy
	for _, lv := range ls {
		for _, kv := range ks {
			q := p
			q.KeepRecentTurns, q.KeepLastToolResults = kv, lv
			tries = append(tries, q)
		}
	}
	// In preference order, the first policy that reproduces every window.
	for _, q := range tries {
		if ok, compared := reproduces(rec, q, folds); ok {
			inf.Policy = q
			inf.Matched, inf.Compared = compared, compared
			if inf.Compared == 0 {
				ev = append(ev, "no recorded window to compare: library defaults")
			} else {
				ev = append(ev, fmt.Sprintf("keepRecentTurns=%d keepLastToolResults=%d reproduce %d/%d recorded windows (the first that does, trying the library defaults first, then the smallest values)",
					q.KeepRecentTurns, q.KeepLastToolResults, inf.Matched, inf.Compared))
			}
			inf.Evidence = strings.Join(ev, "; ")
			return inf
		}
	}
	// None does: the closest.
	best, bestM, compared := p, -1, 0
	for _, q := range tries {
		if m, c := score(rec, q, folds); m > bestM {
			best, bestM, compared = q, m, c
		}
	}
	inf.Policy, inf.Matched, inf.Compared = best, bestM, compared
	ev = append(ev, fmt.Sprintf("no policy tried reproduces every recorded window; closest keepRecentTurns=%d keepLastToolResults=%d reproduces %d/%d",
		best.KeepRecentTurns, best.KeepLastToolResults, bestM, compared))
	inf.Evidence = strings.Join(ev, "; ")
	return inf
}

// statedByRecords reads keepRecentTurns and the pin limit from the
// library's own records when an envelope carried them (-1 when not).
func statedByRecords(rec *model.Recording) (k, l int) {
	k, l = -1, -1
	for _, r := range rec.Runs {
		for _, x := range r.Records {
			if k < 0 && x.Strategy != model.SummarizeOldest { // its records do not state it
				k = x.KeepRecentTurns
			}
			if l < 0 && x.Observations != nil && x.Observations.Limit > 0 {
				l = x.Observations.Limit
			}
		}
	}
	return k, l
}

// largestInput is the largest provider-reported input of any call.
func largestInput(rec *model.Recording) int {
	n := 0
	for _, r := range rec.Runs {
		for _, c := range r.Calls {
			n = max(n, c.Usage.Input)
		}
	}
	return n
}

// candidatesK lists the keepRecentTurns values worth trying, the default
// first so that it wins a tie.
func candidatesK(rec *model.Recording, stated int) []int {
	if stated >= 0 {
		return []int{stated}
	}
	longest := 1
	for _, r := range rec.Runs {
		for _, c := range r.Calls {
			if c.MessagesCount > longest {
				longest = c.MessagesCount
			}
		}
	}
	if longest > maxInferK {
		longest = maxInferK
	}
	ks := []int{model.DefaultKeepRecentTurns}
	for k := 1; k <= longest; k++ { // the library refuses K < 1 (§12.3)
		if k != model.DefaultKeepRecentTurns {
			ks = append(ks, k)
		}
	}
	sort.SliceStable(ks[1:], func(i, j int) bool { return ks[1+i] < ks[1+j] })
	return ks
}

// score counts the calls whose recorded window p reproduces, of those
// that have one; under summarize-oldest with the recorded folds, learning
// the refusals as if p were the recorded policy.
func score(rec *model.Recording, p model.Policy, folds *FoldBook) (matched, compared int) {
	r := replay(rec, p, replayOptions{book: folds.fresh(), learn: true})
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

// reproduces replays under p only as long as every recorded window is
// reproduced: a wrong policy stops at its first divergent call, which is
// what makes trying many policies on a long run cheap. When p reproduces
// them all, it also says how many windows were compared.
func reproduces(rec *model.Recording, p model.Policy, folds *FoldBook) (ok bool, compared int) {
	ok = true
	replay(rec, p, replayOptions{book: folds.fresh(), learn: true, stop: func(c *CallReplay) bool {
		switch {
		case c.Call.MessagesCount > 0 && len(c.Visit.After) != c.Call.MessagesCount:
			ok = false // the recorded size already disagrees
		case c.Recorded() == Differs:
			ok = false
		case c.Recorded() == Match:
			compared++
		}
		return !ok
	}})
	return ok, compared
}
