package study

import (
	"fmt"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Open decides rec's lineage and the library version whose window rules
// it is replayed under (written into rec.Library), and settles each
// agent's policy: the knobs given, the rest stated by the log or
// inferred from the agent's own segments (§10.10); a strategy that needs
// a threshold that nothing gives takes the agent's largest recorded input
// (§13.2). A policy that still has none (no call measured its input) is
// an error unless the log keeps no token counts at all (tier minimal,
// §16.4), as is a Library that is not a version; the study is returned
// all the same: a replay under it would be a guess the command line
// refuses, the screen shows.
func Open(rec *model.Recording, q Request) (*Study, error) {
	return open(rec, q, nil)
}

// open is Open; prev, when not nil, is the study of an earlier part of
// the same file, asked for as rec is, whose work is gone on with where
// the new lines leave it as it was (grow.go).
func open(rec *model.Recording, q Request, prev *Study) (*Study, error) {
	s := &Study{Rec: rec, Given: q.Knobs.Given(), Only: q.Only, q: q, kept: map[any]any{}}
	if prev != nil {
		s.Lineage = lineage.Grow(prev.Lineage, rec) // the new runs linked by the last part's decider
	} else {
		s.Lineage = lineage.Decide(rec)
	}
	var was *window.LibraryScan
	if prev != nil {
		was = prev.scan
	}
	scan, err := window.SettleLibraryMore(rec, s.Lineage, q.Library, was)
	if err != nil {
		scan, _ = window.SettleLibraryMore(rec, s.Lineage, "", was) // told from the file
		err = fmt.Errorf("--library-version: %w", err)
	}
	s.scan = scan
	agents := rec.Agents
	if q.Only != nil {
		agents = []*model.Agent{q.Only}
	}
	sub := *rec
	sub.Agents = agents
	s.sub = &sub
	k := q.Knobs
	infer := !k.Whole() || q.Recorded || k.Strategy == model.SummarizeOldest // summaries: refusals learned under the recorded policy (§11.9)
	if infer {
		keepRules(rec, prev)
		s.sub.Library = rec.Library
		s.infs = s.infer(q.After, prev)
		s.checkRules(q, prev)
	}
	s.policies = map[string]model.Policy{}
	largest := window.LargestInputs(rec) // one pass: a file of 2,000 agents would read its runs 2,000 times
	for i, a := range agents {
		ag := Agent{Agent: a, LargestInput: largest[a], given: k}
		if infer && (!k.Whole() || q.Recorded) {
			inf := &s.infs[i]
			ag.inf, ag.Recorded, ag.Inferred, ag.Evidence = inf, inf.Policy, inf.Inferred, inf.Evidence
			ag.Matched, ag.Compared, ag.Equal = inf.Matched, inf.Compared, inf.Equal
			ag.Policy = k.Apply(inf.Policy)
		} else {
			// a knob the library of these rules did not have is off (§17.3)
			ag.Policy, ag.Evidence = k.Apply(window.RulesOf(rec).Knobs(model.Policy{})), "all knobs given as flags"
			ag.Recorded = ag.Policy
		}
		if a.Composition { // no window strategy, whatever the knobs say (§15.5)
			ag.Policy, ag.Inferred = model.Policy{Strategy: model.StrategyNone}, false
			ag.Recorded, ag.Evidence = ag.Policy, "a composition's own model calls: no window strategy; their windows are not in the log"
		}
		if n := ag.MeterNote(ag.Policy); k.Strategy != "" && n != "" && !a.Composition {
			ag.Evidence += "; strategy '" + k.Strategy + "' given" + n
		}
		ag.Policy = ag.Complete(ag.Policy)
		if ag.Policy.NeedsThreshold() && ag.Policy.ThresholdTokens <= 0 && rec.Tier != model.TierMinimal {
			switch {
			case k.Strategy == "" && !a.Composition:
				// the strategy is the log's, and so is the lack: the UI
				// opens such a log, and so does every command, saying so
				s.noThreshold = append(s.noThreshold, model.Problem{Message: fmt.Sprintf(
					"%s: agent %s: %s names no threshold and no call recorded its input (the log ends before a call's llm_end): replayed with threshold 0 (no call has a usage to engage it on); --threshold-tokens N gives one",
					rec.Source, a.Key, ag.Policy.Strategy)})
			case err == nil:
				err = fmt.Errorf("--strategy %s needs --threshold-tokens N: %s names no threshold", ag.Policy.Strategy, rec.Source)
			}
		}
		s.policies[a.Key] = ag.Policy
		s.Agents = append(s.Agents, ag)
	}
	if len(s.Agents) > 0 {
		s.lead = s.Agents[0]
	} else {
		p := k.Apply(model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults})
		s.lead = Agent{Policy: p, Recorded: p, Evidence: "no agent in the log"}
	}
	return s, err
}

// infer infers every replayed agent's recorded policy; a one-agent file
// whose earlier part was inferred has that inference checked on the new
// calls instead, when the log allows; prev's inference of an earlier part
// of the file goes on where the new calls leave it as it was, with the
// answer of a search of the whole (window.InferMore).
func (s *Study) infer(after, prev *Study) []window.Inference {
	if prev != nil && prev.infs != nil {
		return window.InferMore(prev.infs, s.sub, s.Lineage)
	}
	if after != nil && len(after.infs) == 1 && len(s.sub.Agents) == 1 {
		if inf, ok := window.Recheck(s.sub, s.Lineage, after.infs[0]); ok {
			return []window.Inference{inf}
		}
	}
	return window.InferAgents(s.sub, s.Lineage)
}

// Agent is the settled policy of agent a, nil when a is not replayed.
func (s *Study) Agent(a *model.Agent) *Agent {
	for i := range s.Agents {
		if s.Agents[i].Agent == a {
			return &s.Agents[i]
		}
	}
	return nil
}

// Int is a knob's value given, for Knobs.
func Int(n int) *int { return &n }
