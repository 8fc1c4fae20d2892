package window

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// Recheck is InferAgents for a longer part of the recording prev was
// inferred from, while a file loads: inferring once on the first part,
// then only checking the new calls, spares a search over every call each
// time the screen shows more of a long run. When rec still has prev's one agent, the
// log states the same facts (strategy, threshold, stated knobs), and
// prev's policy reproduced every recorded window it was compared with and
// still reproduces every one of rec's, the answer is prev's policy, found
// by one replay instead of a search; its evidence says so. ok is false
// when Infer must run instead: summarize-oldest (its folds are read
// afresh), another agent, a fact that changed, a window the policy does
// not reproduce.
//
// A partial screen may show Recheck's answer; the whole file's is
// Infer's, which can differ only in the knobs that reproduce every window
// equally well (the evidence's "equally good").
func Recheck(rec *model.Recording, lin *lineage.Lineage, prev Inference) (Inference, bool) {
	p := prev.Policy
	if prev.facts == nil || prev.Compared == 0 || prev.Matched != prev.Compared || p.Strategy == model.SummarizeOldest ||
		len(rec.Agents) != 1 || rec.Agents[0] != prev.Agent {
		return Inference{}, false
	}
	a := prev.Agent
	f := gather(rec, a, agentRuns(rec)[a])
	if !sameFacts(f, *prev.facts) {
		return Inference{}, false
	}
	r := replayOneSplit(rec, lin, a, f.runs, p, nil, func(c *CallReplay) bool { return c.Recorded() == Differs }, true)
	matched, compared := r.score()
	if matched != compared || compared != f.recorded {
		return Inference{}, false // a window differs (the replay stopped there)
	}
	ev := []string{f.strategyWhy}
	if p.Strategy == model.TokenBudget {
		ev = append(ev, f.thresholdWhy)
	}
	ev = append(ev, fmt.Sprintf("keepRecentTurns %d and keepLastToolResults %d reproduce %d/%d recorded windows (inferred from the first %d, checked on the rest as the file loads)",
		p.KeepRecentTurns, p.KeepLastToolResults, matched, compared, prev.Compared))
	return Inference{Agent: a, Policy: p, Inferred: prev.Inferred, Evidence: strings.Join(ev, "; "),
		Matched: matched, Compared: compared, replay: r, facts: &f}, true
}

// sameFacts: two gatherings of one agent's facts state the same strategy,
// threshold and knobs, for the same reasons (the windows' sizes and count
// may differ).
func sameFacts(a, b facts) bool {
	a.maxTurns, a.recorded, a.runs = b.maxTurns, b.recorded, b.runs
	return reflect.DeepEqual(a, b)
}
