package model

import (
	"slices"
	"strconv"
	"strings"
)

// An inferred knob can be a guess: when several values reproduce the
// recorded windows equally well (study.Agent.Equal), the log cannot tell which
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

// GuessOf is the Guess of equally good policies: each knob's values,
// sorted, once each.
func GuessOf(ps []Policy) Guess {
	var g Guess
	for _, q := range ps {
		g.K, g.L = append(g.K, q.KeepRecentTurns), append(g.L, q.KeepLastToolResults)
	}
	slices.Sort(g.K)
	slices.Sort(g.L)
	g.K, g.L = slices.Compact(g.K), slices.Compact(g.L)
	return g
}
