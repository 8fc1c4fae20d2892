package main

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// options are the flags; a knob left at -1 (or "") is inferred.
type options struct {
	strategy   string
	keepRecent int
	keepPins   int
	threshold  int
	noAnchor   bool
	format     string
	agent      string // --agent KEY
	quiet      bool   // -q: no "policy inferred" line, no progress
	failDiffer bool   // --fail-on-differs: exit 3 when a recorded window is not reproduced
	maxLineMB  int    // --max-line-mb: the longest line read; 0 is the loader's default
	failOn     string // evidence --fail-on left,never-read: exit 4 when such a value exists
	in         string // evidence --in answers|arguments|all: the values judged
	theme      string // --theme auto|dark|light (the UI)
	follow     bool   // -f: the UI reads the file again as it grows
	given      map[string]bool
}

// knobFlags maps each policy flag to the knob it sets, as the library
// names it.
var knobFlags = []struct{ flag, knob string }{
	{"strategy", "strategy"},
	{"keep-recent-turns", "keepRecentTurns"},
	{"keep-last-tool-results", "keepLastToolResults"},
	{"threshold-tokens", "thresholdTokens"},
	{"no-anchor", "anchor"},
}

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.strategy, "strategy", "", "")
	fs.IntVar(&o.keepRecent, "keep-recent-turns", -1, "")
	fs.IntVar(&o.keepPins, "keep-last-tool-results", -1, "")
	fs.IntVar(&o.threshold, "threshold-tokens", -1, "")
	fs.BoolVar(&o.noAnchor, "no-anchor", false, "")
	fs.StringVar(&o.format, "format", "json", "")
	fs.StringVar(&o.agent, "agent", "", "")
	fs.BoolVar(&o.quiet, "q", false, "")
	fs.BoolVar(&o.quiet, "quiet", false, "")
	fs.BoolVar(&o.failDiffer, "fail-on-differs", false, "")
	fs.IntVar(&o.maxLineMB, "max-line-mb", 0, "")
	fs.StringVar(&o.failOn, "fail-on", "", "")
	fs.StringVar(&o.in, "in", inAnswers, "")
	fs.StringVar(&o.theme, "theme", "auto", "")
	fs.BoolVar(&o.follow, "f", false, "")
	fs.BoolVar(&o.follow, "follow", false, "")
}

// noteGiven records which flags were on the command line.
func (o *options) noteGiven(fs *flag.FlagSet) {
	o.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.given[f.Name] = true })
}

// maxLine is the line limit in bytes, 0 for the loader's default.
func (o *options) maxLine() int { return o.maxLineMB << 20 }

func (o *options) validate() error {
	if o.maxLineMB < 0 || o.maxLineMB > 1<<20 {
		return fmt.Errorf("--max-line-mb must be between 1 and 1048576 (MB)")
	}
	switch o.strategy {
	case "", model.SlidingWindow, model.TokenBudget, model.SummarizeOldest, model.StrategyNone:
	default:
		return fmt.Errorf("unknown --strategy %q (sliding-window, token-budget, summarize-oldest or none)", o.strategy)
	}
	if o.given["strategy"] && o.strategy == "" {
		return fmt.Errorf("--strategy needs a value (sliding-window, token-budget, summarize-oldest or none)")
	}
	for _, n := range []struct {
		flag string
		v    int
		note string
	}{
		{"keep-recent-turns", o.keepRecent, ""},
		{"keep-last-tool-results", o.keepPins, " (0 switches pins off)"},
	} {
		if o.given[n.flag] && n.v < 0 {
			return fmt.Errorf("--%s must be 0 or more%s (got %d)", n.flag, n.note, n.v)
		}
	}
	if o.given["threshold-tokens"] && o.threshold <= 0 {
		// §7: a token threshold is required and > 0; 0 would engage on
		// every measured call, which no library configuration can do
		return fmt.Errorf("--threshold-tokens must be more than 0 (got %d)", o.threshold)
	}
	return nil
}

// givenKnobs names the knobs set by flags, in the library's words.
func (o *options) givenKnobs() []string {
	var out []string
	for _, k := range knobFlags {
		if o.given[k.flag] {
			out = append(out, k.knob)
		}
	}
	return out
}

// complete reports whether the flags name the whole policy.
func (o *options) complete() bool {
	return o.strategy != "" && o.keepRecent >= 0 && o.keepPins >= 0 &&
		(!tokenMeasured(o.strategy) || o.threshold >= 0)
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
	inferred bool     // some knob not given was inferred (not stated by the input)
	given    []string // the knobs given as flags, in the library's words
	evidence string
	agents   []agentPolicy
	only     *model.Agent // --agent: the export holds this agent's calls only
	lin      *lineage.Lineage
	problems []model.Problem
	replay   *window.Replay
	rec      *model.Recording
	// what the replay was made of, to replay it with one agent changed
	sub      *model.Recording
	infs     []window.Inference
	policies map[string]model.Policy
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
// only, when not nil, restricts it to that agent. A token-measured
// replay with no threshold from a flag or the log is refused: it would be
// a guess.
func newSession(rec *model.Recording, o options, only *model.Agent) (session, error) {
	s := session{given: o.givenKnobs(), only: only, rec: rec, lin: lineage.Decide(rec)}
	agents := rec.Agents
	if only != nil {
		agents = []*model.Agent{only}
	}
	sub := &model.Recording{Source: rec.Source, Runs: rec.Runs, Agents: agents}
	policies := map[string]model.Policy{}
	var infs []window.Inference
	if o.complete() {
		for _, a := range agents {
			p := o.apply(model.Policy{})
			s.agents = append(s.agents, agentPolicy{agent: a, policy: p, evidence: "all knobs given as flags"})
		}
		if o.strategy == model.SummarizeOldest {
			// the library's refusals are learned under its recorded
			// policy, not the one asked for (§11.9)
			infs = window.InferAgents(sub, s.lin)
		}
	} else {
		infs = window.InferAgents(sub, s.lin) // the recorded policies; flags then override them
		for _, inf := range infs {
			p := o.apply(inf.Policy)
			if !o.given["threshold-tokens"] && tokenMeasured(p.Strategy) && !tokenMeasured(inf.Policy.Strategy) {
				p.ThresholdTokens = window.LargestInput(rec, inf.Agent) // §13.2
			}
			s.agents = append(s.agents, agentPolicy{agent: inf.Agent, policy: p, inferred: inf.Inferred, evidence: inf.Evidence})
		}
	}
	for i := range s.agents {
		a := &s.agents[i]
		if tokenMeasured(a.policy.Strategy) && a.policy.ThresholdTokens <= 0 && !o.given["threshold-tokens"] {
			return s, fmt.Errorf("--strategy %s needs --threshold-tokens N: %s names no threshold", a.policy.Strategy, rec.Source)
		}
		a.policy.NoAnchor = o.noAnchor
		policies[a.agent.Key] = a.policy
	}
	if len(s.agents) > 0 {
		s.policy, s.inferred, s.evidence = s.agents[0].policy, s.agents[0].inferred, s.agents[0].evidence
	} else {
		s.policy = o.apply(model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults})
		s.evidence = "no agent in the log"
	}
	// summaries come from the recorded folds, refusals learned under the
	// recorded policy, whatever the flags changed
	s.replay = window.Merge(sub, s.lin, infs, policies)
	s.sub, s.infs, s.policies = sub, infs, policies
	s.problems = append(s.problems, rec.Problems...)
	s.problems = append(s.problems, s.lin.Problems...)
	// a problem's message names its place: the loader's name the file and
	// line; the replay's name the file
	for _, p := range s.replay.Problems {
		s.problems = append(s.problems, model.Problem{Message: rec.Source + ": replay: " + p})
	}
	return s, nil
}

// sources says which knobs were given as flags and which were read or
// inferred from the recording, for the report's footer and stderr.
func (s session) sources() string {
	all := []string{"strategy", "keepRecentTurns", "keepLastToolResults"}
	if tokenMeasured(s.policy.Strategy) || s.policy.ThresholdTokens > 0 {
		all = append(all, "thresholdTokens")
	}
	var from []string
	for _, k := range all {
		if !slices.Contains(s.given, k) {
			from = append(from, k)
		}
	}
	var parts []string
	if len(s.given) > 0 {
		parts = append(parts, "given as flags: "+strings.Join(s.given, ", "))
	}
	if len(from) > 0 {
		how := "read from the recording"
		if s.inferred {
			how = "inferred from the recording"
		}
		parts = append(parts, how+": "+strings.Join(from, ", "))
	}
	return strings.Join(parts, "; ")
}

// differs counts the calls whose recorded window the replay does not
// reproduce, of those compared.
func (s session) differs() (differ, compared int) {
	for i := range s.replay.Calls {
		switch s.replay.Calls[i].Recorded() {
		case window.Differs:
			differ++
			compared++
		case window.Match:
			compared++
		}
	}
	return differ, compared
}

// tokenMeasured: the strategy engages on the provider's token count and
// needs a threshold (token-budget, summarize-oldest).
func tokenMeasured(strategy string) bool {
	return strategy == model.TokenBudget || strategy == model.SummarizeOldest
}

// replayWith replays the session's recording with agent under p and the
// other agents as they are (summaries from the recorded folds, as the
// session's own replay).
func (s session) replayWith(agent string, p model.Policy) *window.Replay {
	policies := maps.Clone(s.policies)
	policies[agent] = p
	return window.Merge(s.sub, s.lin, s.infs, policies)
}
