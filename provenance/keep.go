package provenance

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
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

// Searcher tries nearby policies by replay; replays are kept, so asking
// about many values costs one replay per policy tried. Only the policy of
// the agent whose call used the value changes.
type Searcher struct {
	r       *window.Replay
	replay  Replayer
	replays map[agentPolicy]*window.Replay
}

// Replayer replays the recording with one agent (key) under p and every
// other agent as it was.
type Replayer func(agent string, p model.Policy) *window.Replay

type agentPolicy struct {
	agent  string
	policy model.Policy
}

// MaxSteps bounds the search: knob steps away from the current policy.
const MaxSteps = 4

// NewSearcher searches around the policies of replay r; replay replays
// the recording under a changed policy (the caller knows how: recorded
// folds, agents).
func NewSearcher(r *window.Replay, replay Replayer) *Searcher {
	return &Searcher{r: r, replay: replay, replays: map[agentPolicy]*window.Replay{}}
}

// nearby lists the policies tried, fewest steps first: keepRecentTurns
// from 1 up, keepLastToolResults from 0 up, within MaxSteps of base
// (one step each per unit), and on ties the one that changes
// keepRecentTurns less, then the smaller values.
func nearby(base model.Policy) []model.Policy {
	var out []model.Policy
	for k := max(1, base.KeepRecentTurns-MaxSteps); k <= base.KeepRecentTurns+MaxSteps; k++ {
		for l := max(0, base.KeepLastToolResults-MaxSteps); l <= base.KeepLastToolResults+MaxSteps; l++ {
			p := base
			p.KeepRecentTurns, p.KeepLastToolResults = k, l
			if n := steps(base, p); n > 0 && n <= MaxSteps {
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b model.Policy) int {
		return cmp.Or(cmp.Compare(steps(base, a), steps(base, b)),
			cmp.Compare(abs(a.KeepRecentTurns-base.KeepRecentTurns), abs(b.KeepRecentTurns-base.KeepRecentTurns)),
			cmp.Compare(a.KeepRecentTurns, b.KeepRecentTurns), cmp.Compare(a.KeepLastToolResults, b.KeepLastToolResults))
	})
	return out
}

func steps(a, b model.Policy) int {
	return abs(a.KeepRecentTurns-b.KeepRecentTurns) + abs(a.KeepLastToolResults-b.KeepLastToolResults)
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
func (s *Searcher) Keep(i int, e Entry) (Suggestion, bool) {
	if e.Verdict != evidence.Left || len(e.Sources) == 0 || i >= len(s.r.Calls) {
		return Suggestion{}, false
	}
	c := &s.r.Calls[i]
	base, agent := s.r.PolicyOf(c), ""
	if c.Run.Agent != nil {
		agent = c.Run.Agent.Key
	}
	for _, p := range nearby(base) {
		key := agentPolicy{agent, p}
		r := s.replays[key]
		if r == nil {
			r = s.replay(agent, p)
			s.replays[key] = r
		}
		if i >= len(r.Calls) {
			continue
		}
		w := r.Calls[i].Window()
		for _, src := range e.Sources {
			if slices.Contains(w, src.msg) {
				return suggest(base, p, c.Call.Number, src), true
			}
		}
	}
	return Suggestion{}, false
}

func suggest(base, p model.Policy, call int, src Source) Suggestion {
	var knobs []string
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
