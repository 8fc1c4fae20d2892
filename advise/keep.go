package advise

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// Suggestion is the smallest window-policy change found under which a
// source of a value that left is in view on the call that used it
// (§5 "what would have kept it").
type Suggestion struct {
	Policy model.Policy `json:"policy"`
	Steps  int          `json:"steps"` // knob steps from the current policy
	Kept   string       `json:"kept"`  // the source it keeps, as "list_hosts call_0001" or "the user's text"
	Text   string       `json:"text"`  // the sentence, e.g. "keepRecentTurns 2→3, keepLastToolResults 2→3 keep list_hosts in view at call 13"
}

// Searcher tries nearby policies by replay, each from its sweep, which
// keeps them: asking about many values costs one replay per policy
// tried. Only the policy of the agent whose call used the value changes.
type Searcher struct {
	r          *window.Replay
	sweep      *Sweep
	strategies []string // the strategies the log makes replayable, besides the one in force
}

// MaxSteps bounds the search: knob steps away from the current policy.
const MaxSteps = 4

// FileSearcher searches around the policies of r, the file's replay (or
// one under another policy), with the file's sweep.
func FileSearcher(s *study.Study, r *window.Replay) *Searcher {
	return &Searcher{r: r, sweep: FileSweep(s), strategies: s.Strategies()}
}

// ViewSearcher searches around the policy of r, a replay of v's
// conversation, with a sweep of it: the same answer the file's searcher
// gives for the conversation's calls.
func ViewSearcher(v *study.View, r *window.Replay) *Searcher {
	return &Searcher{r: r, sweep: ViewSweep(v), strategies: v.Study().Strategies()}
}

// GiveUp stops the search: its replays are let go, and whatever it is
// asked after is not found.
func (s *Searcher) GiveUp() { s.sweep.GiveUp() }

// nearby lists the policies tried, fewest steps first: keepRecentTurns
// from 1 up, keepLastToolResults from 0 up (one step per unit), another
// strategy (one step), thresholdTokens by model.ThresholdStep (one step each,
// for a strategy that measures tokens), within MaxSteps of base; on ties
// the one that keeps the strategy, then changes keepRecentTurns less,
// then the smaller values.
func nearby(base model.Policy, strategies []string) []model.Policy {
	var out []model.Policy
	for _, s := range append([]string{base.Strategy}, strategies...) {
		ts := []int{base.ThresholdTokens}
		if (model.Policy{Strategy: s}).NeedsThreshold() && base.ThresholdTokens > 0 {
			for d := 1; d <= 2; d++ {
				if t := base.StepThreshold(-d).ThresholdTokens; t > 0 {
					ts = append(ts, t)
				}
				ts = append(ts, base.StepThreshold(d).ThresholdTokens)
			}
		}
		for _, t := range ts {
			for k := max(1, base.KeepRecentTurns-MaxSteps); k <= base.KeepRecentTurns+MaxSteps; k++ {
				for l := max(0, base.KeepLastToolResults-MaxSteps); l <= base.KeepLastToolResults+MaxSteps; l++ {
					p := base
					p.Strategy, p.ThresholdTokens, p.KeepRecentTurns, p.KeepLastToolResults = s, t, k, l
					if n := steps(base, p); n > 0 && n <= MaxSteps && !slices.Contains(out, p) {
						out = append(out, p)
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b model.Policy) int {
		return cmp.Or(cmp.Compare(steps(base, a), steps(base, b)),
			cmp.Compare(strategySteps(base, a), strategySteps(base, b)),
			cmp.Compare(abs(a.KeepRecentTurns-base.KeepRecentTurns), abs(b.KeepRecentTurns-base.KeepRecentTurns)),
			cmp.Compare(a.KeepRecentTurns, b.KeepRecentTurns), cmp.Compare(a.KeepLastToolResults, b.KeepLastToolResults),
			cmp.Compare(a.ThresholdTokens, b.ThresholdTokens))
	})
	return out
}

// steps counts the knob steps from a to b.
func steps(a, b model.Policy) int {
	n := abs(a.KeepRecentTurns-b.KeepRecentTurns) + abs(a.KeepLastToolResults-b.KeepLastToolResults)
	n += abs(a.ThresholdTokens-b.ThresholdTokens) / model.ThresholdStep
	return n + strategySteps(a, b)
}

func strategySteps(a, b model.Policy) int {
	if a.Strategy != b.Strategy {
		return 1
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Keep finds the smallest change that keeps one of e's sources in view on
// call i (0-based); false when no policy tried does (for instance across a
// follow-up, which releases every pin).
func (s *Searcher) Keep(i int, e provenance.Entry) (Suggestion, bool) {
	sources := e.Sources
	if e.Read != nil { // a JSON number's token: the number's sources (§9.5)
		sources = e.Read.Sources
	}
	if e.Own() != evidence.Left || len(sources) == 0 || i >= len(s.r.Calls) {
		return Suggestion{}, false
	}
	c := &s.r.Calls[i]
	base, agent := s.r.PolicyOf(c), ""
	if c.Run.Agent != nil {
		agent = c.Run.Agent.Key
	}
	for _, p := range nearby(base, s.others(base)) {
		r := s.sweep.Replay(agent, p)
		if r == nil {
			return Suggestion{}, false // given up
		}
		if i >= len(r.Calls) {
			continue
		}
		w := r.Calls[i].Window()
		for _, src := range sources {
			if slices.Contains(w, src.Message()) {
				return suggest(base, p, c.Call.Number, src), true
			}
		}
	}
	return Suggestion{}, false
}

// others are the searcher's strategies but the one in force; one that
// measures tokens only when base has a threshold to start from.
func (s *Searcher) others(base model.Policy) []string {
	var out []string
	for _, st := range s.strategies {
		if st != base.Strategy && !slices.Contains(out, st) && (!(model.Policy{Strategy: st}).NeedsThreshold() || base.ThresholdTokens > 0) {
			out = append(out, st)
		}
	}
	return out
}

func suggest(base, p model.Policy, call int, src provenance.Source) Suggestion {
	var knobs []string
	if p.Strategy != base.Strategy {
		knobs = append(knobs, fmt.Sprintf("strategy %s→%s", base.Strategy, p.Strategy))
	}
	if p.ThresholdTokens != base.ThresholdTokens {
		knobs = append(knobs, fmt.Sprintf("thresholdTokens %d→%d", base.ThresholdTokens, p.ThresholdTokens))
	}
	if p.KeepRecentTurns != base.KeepRecentTurns {
		knobs = append(knobs, fmt.Sprintf("keepRecentTurns %d→%d", base.KeepRecentTurns, p.KeepRecentTurns))
	}
	if p.KeepLastToolResults != base.KeepLastToolResults {
		knobs = append(knobs, fmt.Sprintf("keepLastToolResults %d→%d", base.KeepLastToolResults, p.KeepLastToolResults))
	}
	kept := "the user's text"
	if src.ToolName != nil {
		kept = *src.ToolName + " " + *src.ToolCallID
	}
	verb := "keeps"
	if len(knobs) > 1 {
		verb = "keep"
	}
	return Suggestion{Policy: p, Steps: steps(base, p), Kept: kept,
		Text: fmt.Sprintf("%s %s %s in view at call %d", strings.Join(knobs, " and "), verb, kept, call)}
}

// NoneText says plainly that no policy tried keeps the value's sources.
func NoneText() string {
	return fmt.Sprintf("no window policy within %d knob steps keeps it in view", MaxSteps)
}
