// Package study is one recording opened for inspection, the single
// source every front end reads: the terminal UI, report, export and
// evidence all ask it, so they give the same answers. It owns
//
//   - the recording's lineage, decided once (lineage.Decide), and the
//     library version whose window rules it is replayed under
//     (window.SettleLibraryMore, kept in Rec.Library);
//   - each agent's policy, settled once: a knob given from outside
//     first, then what the log states, then what the replay infers
//     (docs/rules/runs-and-conversations.md §10.10, docs/rules/export-contract.md §13.2), with what the inference could
//     not tell apart (Agent.Equal);
//   - the replay under the settled policies, file-wide (Study.Replay),
//     and of one conversation of one agent (View), under that agent's
//     policy or another; each the same windows for the same calls;
//   - the conversations and how many recorded windows each replay
//     reproduces (Conversations, Score);
//   - what a sweep over one agent's policies asks for: the file with it
//     under another policy (ReplayWith), a conversation read for its
//     windows (View.Windows); the sweeps are package advise's.
//
// Every replay it hands out is complete and never changes when read:
// any goroutine may read it as it is.
//
// It never reads a flag (a Knobs says what was given), prints or draws;
// the rules themselves are window's, lineage's and evidence's.
package study

import (
	"maps"
	"slices"
	"sync"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Request is what to open a recording for.
type Request struct {
	Knobs model.Knobs
	// Only, when set, is the one agent replayed (export --agent): its
	// calls keep their numbers, its policy is settled as in the whole
	// file, and the knobs apply to it alone.
	Only *model.Agent
	// Recorded asks for each agent's recorded policy even when the knobs
	// name the whole policy (the UI marks its knobs against it); without
	// it, a policy given whole is not inferred.
	Recorded bool
	// After is a study of an earlier part of the same file (a load in
	// progress): an agent's inference is checked on the new calls
	// rather than searched again, where the log allows (window.Recheck).
	After *Study
	// Library is the library version X.Y.Z whose window rules the replay
	// follows (--library-version); "" tells it from the file
	// (docs/rules/versions-and-tiers.md §17.2).
	Library string
}

// Study is one recording opened for inspection.
type Study struct {
	Rec     *model.Recording
	Lineage *lineage.Lineage
	Agents  []Agent  // each replayed agent's settled policy, in the order of Rec.Agents
	Given   []string // the knobs given from outside, in the library's words
	Only    *model.Agent

	q    Request             // what it was opened for
	scan *window.LibraryScan // what settling the library version read (nil: a flag or an envelope told it)
	lead Agent               // the first agent's, or the defaults in a file with none
	sub  *model.Recording    // Rec with the replayed agents only
	// noThreshold says of each agent whose recorded strategy needs a
	// threshold that neither the log nor a flag gave one
	noThreshold []model.Problem
	infs        []window.Inference
	policies    map[string]model.Policy // settled, by agent key

	replayOnce, recordedOnce sync.Once
	replay, recorded         *window.Replay

	mu    sync.Mutex
	folds map[model.Policy]*window.FoldBook // FoldsFor's answers
	views map[int]*View
	prev  map[int]*View  // the views of the study of an earlier part of the file (Grow)
	convs []Conversation // tallied (Conversations)
	kept  map[any]any    // answers made from the study above it (Remember)
}

// Agent is one agent and its policy, settled.
type Agent struct {
	Agent *model.Agent
	// Policy is what the agent is replayed under: each knob given from
	// outside, the rest as Recorded, a threshold the strategy needs and
	// nothing gives completed (Complete).
	Policy model.Policy
	// Recorded is the policy the log states or the replay infers, the
	// one knobs are marked against; Policy itself when nothing was
	// inferred (every knob given, and the recorded policy not asked for).
	Recorded model.Policy
	Inferred bool   // some knob of Recorded was inferred, not stated by the log
	Evidence string // what each knob was read or inferred from
	// Matched of Compared recorded windows Recorded reproduces.
	Matched, Compared int
	// Equal are the (keepRecentTurns, keepLastToolResults) pairs tried
	// that reproduce as many recorded windows as Recorded: the policies
	// the log cannot tell apart (nil when no search was made).
	Equal [][2]int
	// LargestInput is the largest input the agent's calls recorded: the
	// threshold a strategy that needs one takes when neither the log nor
	// a knob gives one (§13.2).
	LargestInput int

	inf   *window.Inference // nil when nothing was inferred
	given model.Knobs       // the knobs given from outside: no guess
}

// Complete is p with what a policy of this agent must hold and p lacks:
// a threshold for a strategy that needs one (the agent's LargestInput,
// §13.2). The UI's strategy key asks it as the command line does.
func (a *Agent) Complete(p model.Policy) model.Policy {
	if p.NeedsThreshold() && p.ThresholdTokens <= 0 {
		p.ThresholdTokens = a.LargestInput
	}
	return p
}

// MeterNote is what is known of the agent's meter when p's strategy
// reads one (window.MeterNote: a Sequence step has none; a Loop,
// Conditional, Parallel or swarm agent's is not recorded, §15.6); ""
// for a plain agent, or a strategy that reads none.
func (a *Agent) MeterNote(p model.Policy) string {
	if !p.NeedsThreshold() {
		return ""
	}
	return window.MeterNote(a.Agent)
}

// Lead is the first replayed agent (the only one, in a one-agent file),
// whose policy a one-policy reader (version 1 of the export) is given;
// in a file with no agent, the library's defaults under the knobs.
func (s *Study) Lead() Agent { return s.lead }

// Replay is the recording replayed, each replayed agent under its settled
// policy; summaries come from the recorded folds, refusals learned under
// the recorded policy, whatever the knobs changed (§11.9). Made once.
func (s *Study) Replay() *window.Replay {
	s.replayOnce.Do(func() {
		if s.asRecorded() {
			s.replay = s.RecordedReplay() // the same windows: made once, not twice
			return
		}
		s.replay = window.Merge(s.sub, s.Lineage, s.infs, s.policies)
	})
	return s.replay
}

// asRecorded reports whether every replayed agent is settled on its
// recorded policy, the one its inference (if any) replayed: no knob
// given changed one.
func (s *Study) asRecorded() bool {
	for _, a := range s.Agents {
		if a.Policy != a.Recorded || (a.inf == nil && len(s.infs) > 0) {
			return false
		}
	}
	return true
}

// RecordedReplay is the recording replayed with every agent under its
// recorded policy: what the conversations' tallies count. Made once.
func (s *Study) RecordedReplay() *window.Replay {
	s.recordedOnce.Do(func() {
		if len(s.infs) == 1 {
			if r := s.infs[0].Replay(s.sub); r != nil {
				s.recorded = r // the inference's own: no copy of a long run's calls
				return
			}
		}
		recorded := make(map[string]model.Policy, len(s.Agents))
		for _, a := range s.Agents {
			recorded[a.Agent.Key] = a.Recorded
		}
		s.recorded = window.Merge(s.sub, s.Lineage, s.infs, recorded)
	})
	return s.recorded
}

// Problems are what the loader, the lineage and the replay could not
// use or decide, each naming its place: the loader's the file and line,
// the replay's the file.
func (s *Study) Problems() []model.Problem {
	var out []model.Problem
	out = append(out, s.Rec.Problems...)
	if s.Rec.Tier == model.TierMinimal && slices.Contains(s.Given, "thresholdTokens") {
		out = append(out, model.Problem{Message: s.Rec.Source + ": --threshold-tokens cannot be applied: tier minimal keeps no token counts to compare it with (§16.4)"})
	}
	for _, m := range window.VersionProblems(s.Rec.Library) {
		out = append(out, model.Problem{Message: s.Rec.Source + ": " + m})
	}
	out = append(out, s.noThreshold...)
	out = append(out, s.Lineage.Problems...)
	for _, p := range s.Replay().Problems {
		out = append(out, model.Problem{Message: s.Rec.Source + ": replay: " + p})
	}
	if p, ok := s.reproduceProblem(); ok {
		out = append(out, p)
	}
	return out
}

// ProblemCount is how many problems there are, listed or not (the
// loader lists the first bad lines of a file full of them).
func (s *Study) ProblemCount() int {
	return len(s.Problems()) + max(0, s.Rec.Unlisted-1)
}

// foldsFor is the book a replay with an agent under p takes its
// summaries from (window.FoldsFor), read once per policy.
func (s *Study) foldsFor(p model.Policy) *window.FoldBook {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.folds[p]; ok {
		return b
	}
	b := window.FoldsFor(s.sub, s.Lineage, s.infs, p)
	if s.folds == nil {
		s.folds = map[model.Policy]*window.FoldBook{}
	}
	s.folds[p] = b
	return b
}

// Strategies are those the log makes replayable for a search: sliding-
// window and token-budget always, summarize-oldest when the log
// recorded folds.
func (s *Study) Strategies() []string {
	out := []string{model.SlidingWindow, model.TokenBudget}
	for _, inf := range s.infs {
		if inf.Folds != nil && inf.Folds.Folds() > 0 {
			return append(out, model.SummarizeOldest)
		}
	}
	return out
}

// FoldsRecorded reports whether the agent's summarize-oldest folds are
// in the log, so that a replay under that strategy has summaries.
func (a *Agent) FoldsRecorded() bool {
	return a.inf != nil && a.inf.Folds != nil && a.inf.Folds.Folds() > 0
}

// ReplayWith is the file's replay with agent (its key) under p and every
// other agent under its settled policy: what a sweep over one agent's
// policies asks for, given up after the first call under p for which
// stop (when not nil) is true (window.MergeUntil).
func (s *Study) ReplayWith(agent string, p model.Policy, stop func(*window.CallReplay) bool) *window.Replay {
	policies := maps.Clone(s.policies)
	policies[agent] = p
	return window.MergeUntil(s.sub, s.Lineage, s.infs, policies, stop)
}

// ReplayFor is ReplayWith holding only the calls of a and of the runs
// in need (the other agents' runs that a's chains continue): what the
// advisor reads of a replay, in time linear in the file, not in every
// agent's calls for every agent. room is where the calls are written
// when it has room for them (window.MergeFor): a replay the caller let
// go's, or nil.
func (s *Study) ReplayFor(a *model.Agent, p model.Policy, need map[*model.Run]bool, stop func(*window.CallReplay) bool, room []window.CallReplay) *window.Replay {
	// the policies of the agents the replay holds: a copy of every
	// agent's for each of a sweep's replays was agents × agents
	policies := map[string]model.Policy{a.Key: p}
	if first := s.sub.Agents; len(first) > 0 && first[0].Key != a.Key { // the Replay's Policy
		if q, ok := s.policies[first[0].Key]; ok {
			policies[first[0].Key] = q
		}
	}
	for r := range need {
		if r.Agent == nil {
			continue
		}
		if q, ok := s.policies[r.Agent.Key]; ok && r.Agent.Key != a.Key {
			policies[r.Agent.Key] = q
		}
	}
	return window.MergeFor(s.sub, s.Lineage, s.infs, policies, a, need, stop, room)
}

// Remember keeps v under key for the study's life: an answer made from
// the study above it (the advisor's), given at once when asked again.
func (s *Study) Remember(key, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept[key] = v
}

// Remembered is what Remember kept under key.
func (s *Study) Remembered(key any) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.kept[key]
	return v, ok
}
