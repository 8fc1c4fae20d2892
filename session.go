package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// options are the policy flags; -1 (or "") means "infer it".
type options struct {
	strategy   string
	keepRecent int
	keepPins   int
	threshold  int
	noAnchor   bool
	format     string
}

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.strategy, "strategy", "", "")
	fs.IntVar(&o.keepRecent, "keep-recent-turns", -1, "")
	fs.IntVar(&o.keepPins, "keep-last-tool-results", -1, "")
	fs.IntVar(&o.threshold, "threshold-tokens", -1, "")
	fs.BoolVar(&o.noAnchor, "no-anchor", false, "")
	fs.StringVar(&o.format, "format", "json", "")
}

func (o *options) validate() error {
	switch o.strategy {
	case "", model.SlidingWindow, model.TokenBudget, model.SummarizeOldest:
	default:
		return fmt.Errorf("unknown --strategy %q (sliding-window, token-budget or summarize-oldest)", o.strategy)
	}
	if o.keepRecent < -1 {
		return fmt.Errorf("--keep-recent-turns must be 0 or more")
	}
	if o.keepPins < -1 {
		return fmt.Errorf("--keep-last-tool-results must be 0 or more (0 switches pins off)")
	}
	if o.threshold < -1 {
		return fmt.Errorf("--threshold-tokens must be 0 or more")
	}
	return nil
}

// complete reports whether the flags name the whole policy.
func (o *options) complete() bool {
	return o.strategy != "" && o.keepRecent >= 0 && o.keepPins >= 0 &&
		(o.strategy != model.TokenBudget || o.threshold >= 0)
}

// apply overrides p with the knobs given as flags.
func (o options) apply(p model.Policy) model.Policy {
	if o.strategy != "" {
		p.Strategy = o.strategy
	}
	if o.keepRecent >= 0 {
		p.KeepRecentTurns = o.keepRecent
	}
	if o.keepPins >= 0 {
		p.KeepLastToolResults = o.keepPins
	}
	if o.threshold >= 0 {
		p.ThresholdTokens = o.threshold
	}
	if o.noAnchor {
		p.NoAnchor = true
	}
	return p
}

// session is one recording with the policy it is replayed under.
type session struct {
	policy   model.Policy
	inferred bool
	evidence string
	problems []model.Problem
	replay   *window.Replay
}

// newSession settles the policy (flags first, the rest inferred) and
// replays the recording under it.
func newSession(rec *model.Recording, o options) session {
	var s session
	var ev []string
	if o.complete() {
		s.policy = model.Policy{Strategy: o.strategy, KeepRecentTurns: o.keepRecent, KeepLastToolResults: o.keepPins}
		if o.threshold >= 0 {
			s.policy.ThresholdTokens = o.threshold
		}
		ev = append(ev, "all knobs given as flags")
	} else {
		inf := window.Infer(rec) // the recorded policy; flags then override it
		s.policy, s.inferred = o.apply(inf.Policy), inf.Inferred
		ev = append(ev, inf.Evidence)
	}
	s.policy.NoAnchor = o.noAnchor
	s.evidence = strings.Join(ev, "; ")
	s.replay = window.Run(rec, s.policy)
	s.problems = append(s.problems, rec.Problems...)
	// a problem's message names its place: the loader's name the file and
	// line; the replay's name the file
	for _, p := range s.replay.Problems {
		s.problems = append(s.problems, model.Problem{Message: rec.Source + ": replay: " + p})
	}
	return s
}
