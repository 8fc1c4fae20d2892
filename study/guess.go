package study

import (
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// An inferred knob can be a guess: when several values reproduce the
// recorded windows equally well (Agent.Equal), the log cannot tell which
// the library ran, and the one chosen (the library default first) is one
// reading among them. Whatever depends on the choice — which pin held a
// turn, why a source was not pinned — is then said with the others: a
// rule "superseded" under keepLastToolResults 2 is "pins-off" under 0,
// and the same windows were sent either way.

// Guess is what the log leaves open of an agent's policy: the
// keepRecentTurns and keepLastToolResults values of the equally good
// policies, each sorted. A knob with one value is no guess.
type Guess struct {
	K, L []int
}

// Any reports whether some knob is a guess.
func (g Guess) Any() bool { return len(g.K) > 1 || len(g.L) > 1 }

// Knobs names each knob that is a guess with its equally good values:
// "keepRecentTurns 1–3", "keepLastToolResults 0–5"; none when no knob is.
func (g Guess) Knobs() []string {
	var out []string
	if len(g.K) > 1 {
		out = append(out, "keepRecentTurns "+Range(g.K))
	}
	if len(g.L) > 1 {
		out = append(out, "keepLastToolResults "+Range(g.L))
	}
	return out
}

// Range writes a knob's values as runs, "0–5" or "1–3, 5".
func Range(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		part := strconv.Itoa(ns[i])
		if j > i {
			part += "–" + strconv.Itoa(ns[j])
		}
		parts = append(parts, part)
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

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
func (a *Agent) GuessFor(p model.Policy) Guess {
	var g Guess
	for _, q := range a.EquallyGood(p) {
		g.K, g.L = append(g.K, q.KeepRecentTurns), append(g.L, q.KeepLastToolResults)
	}
	slices.Sort(g.K)
	slices.Sort(g.L)
	g.K, g.L = slices.Compact(g.K), slices.Compact(g.L)
	return g
}
