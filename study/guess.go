package study

import (
	"github.com/afinspect/inspect/model"
)

// EquallyGood are the policies the log cannot tell apart from Recorded
// for a replay under p: Recorded with each pair of Equal — none of them
// with a knob given from outside other than given — or nil when p is not
// Recorded (a knob moved: the policy is the user's, no guess) or there
// is only one.
func (a *Agent) EquallyGood(p model.Policy) []model.Policy {
	if p != a.Recorded || !a.Inferred || len(a.Equal) < 2 {
		return nil
	}
	var out []model.Policy
	for _, kl := range a.Equal {
		q := a.Recorded
		q.KeepRecentTurns, q.KeepLastToolResults = kl[0], kl[1]
		if a.given.KeepRecentTurns != nil && q.KeepRecentTurns != p.KeepRecentTurns ||
			a.given.KeepLastToolResults != nil && q.KeepLastToolResults != p.KeepLastToolResults {
			continue
		}
		out = append(out, q)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// GuessFor is what is a guess of the policy p a replay of the agent is
// under: nothing unless p is its inferred policy.
func (a *Agent) GuessFor(p model.Policy) model.Guess {
	return model.GuessOf(a.EquallyGood(p))
}
