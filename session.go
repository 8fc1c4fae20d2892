package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/afinspect/inspect/lineage"
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
	agent      string // --agent KEY
}

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.strategy, "strategy", "", "")
	fs.IntVar(&o.keepRecent, "keep-recent-turns", -1, "")
	fs.IntVar(&o.keepPins, "keep-last-tool-results", -1, "")
	fs.IntVar(&o.threshold, "threshold-tokens", -1, "")
	fs.BoolVar(&o.noAnchor, "no-anchor", false, "")
	fs.StringVar(&o.format, "format", "json", "")
	fs.StringVar(&o.agent, "agent", "", "")
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
		(o.strategy != model.TokenBudget && o.strategy != model.SummarizeOldest || o.threshold >= 0)
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

// agentPolicy is one agent's policy in a session, and where it came from.
type agentPolicy struct {
	agent    *model.Agent
	policy   model.Policy
	inferred bool
	evidence string
}

// session is one recording with the policy of each agent it is replayed
// under. policy, inferred and evidence are the first (or the chosen)
// agent's, as version-1 readers expect.
type session struct {
	policy   model.Policy
	inferred bool
	evidence string
	agents   []agentPolicy
	only     *model.Agent // --agent: the export holds this agent's calls only
	rec      *model.Recording
	lin      *lineage.Lineage
	problems []model.Problem
	replay   *window.Replay
}

// findAgent is the agent with key, or an error naming the agents.
func findAgent(rec *model.Recording, key string) (*model.Agent, error) {
	var keys []string
	for _, a := range rec.Agents {
		if a.Key == key {
			return a, nil
		}
		keys = append(keys, a.Key)
	}
	return nil, fmt.Errorf("no agent %q in this file; its agents: %s", key, strings.Join(keys, ", "))
}

// newSession settles each agent's policy (flags first, the rest inferred
// from that agent's own segments, §10.10) and replays the recording.
// only, when not nil, restricts it to that agent.
func newSession(rec *model.Recording, o options, only *model.Agent) session {
	s := session{only: only, rec: rec, lin: lineage.Decide(rec)}
	agents := rec.Agents
	if only != nil {
		agents = []*model.Agent{only}
	}
	policies := map[string]model.Policy{}
	var infs []window.Inference
	if o.complete() {
		for _, a := range agents {
			p := o.apply(model.Policy{})
			s.agents = append(s.agents, agentPolicy{agent: a, policy: p, evidence: "all knobs given as flags"})
			policies[a.Key] = p
		}
	} else {
		sub := &model.Recording{Source: rec.Source, Runs: rec.Runs, Agents: agents}
		infs = window.InferAgents(sub, s.lin)
		for _, inf := range infs {
			p := o.apply(inf.Policy)
			if o.threshold < 0 && p.ThresholdTokens == 0 && (p.Strategy == model.TokenBudget || p.Strategy == model.SummarizeOldest) {
				p.ThresholdTokens = window.LargestInput(rec, inf.Agent)
			}
			s.agents = append(s.agents, agentPolicy{agent: inf.Agent, policy: p, inferred: inf.Inferred && !o.complete(), evidence: inf.Evidence})
			policies[inf.Agent.Key] = p
		}
	}
	if len(s.agents) > 0 {
		s.policy, s.inferred, s.evidence = s.agents[0].policy, s.agents[0].inferred, s.agents[0].evidence
	} else {
		s.policy = o.apply(model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults})
	}
	sub := &model.Recording{Source: rec.Source, Runs: rec.Runs, Agents: agents}
	s.replay = window.Merge(sub, s.lin, infs, policies)
	s.problems = append(s.problems, rec.Problems...)
	s.problems = append(s.problems, s.lin.Problems...)
	// a problem's message names its place: the loader's name the file and
	// line; the replay's name the file
	for _, p := range s.replay.Problems {
		s.problems = append(s.problems, model.Problem{Message: rec.Source + ": replay: " + p})
	}
	return s
}
