package session

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// Knob is one move of the policy on screen: what a knob key asks for,
// apart from the key that asked (a key map can bind any key to it), so
// the policies a knob would give can be worked out without a key
// message (the replays made ahead).
type Knob int

const (
	NoKnob Knob = iota
	RecentLess
	RecentMore
	PinsLess
	PinsMore
	TogglePins
	ToggleAnchor
	CycleStrategy
	ThresholdLess
	ThresholdMore
	ResetPolicy
)

// Step is p after knob kn, with the pin limit to restore when pins come
// back on (lastPins); a is the agent whose policy the knobs move: its
// recorded policy is what reset and the strategy cycle come back to,
// and a strategy that needs a threshold none gives takes the agent's
// rule (study.Agent.Complete), as the command line does. ok is false for
// NoKnob. It reads nothing else: the same arguments give the same
// policy.
func Step(p model.Policy, lastPins int, a *study.Agent, kn Knob) (_ model.Policy, _ int, ok bool) {
	recorded := a.Recorded
	switch kn {
	case RecentLess:
		p.KeepRecentTurns = max(0, p.KeepRecentTurns-1)
	case RecentMore:
		p.KeepRecentTurns++
	case PinsLess:
		p.KeepLastToolResults = max(0, p.KeepLastToolResults-1)
	case PinsMore:
		p.KeepLastToolResults++
	case TogglePins:
		if p.PinsOn() {
			lastPins, p.KeepLastToolResults = p.KeepLastToolResults, 0
		} else {
			p.KeepLastToolResults = lastPins
		}
	case ToggleAnchor:
		p.NoAnchor = !p.NoAnchor
	case CycleStrategy:
		p.Strategy = nextStrategy(p.Strategy, recorded.Strategy)
		if !p.NeedsThreshold() {
			// no threshold here: the one the cycle set goes, so coming
			// back round to the recorded policy is the recorded policy
			p.ThresholdTokens = recorded.ThresholdTokens
		}
		p = a.Complete(p)
	case ThresholdLess:
		p = p.StepThreshold(-1)
	case ThresholdMore:
		p = p.StepThreshold(1)
	case ResetPolicy:
		p = recorded
	default:
		return p, lastPins, false
	}
	if p.KeepLastToolResults > 0 {
		lastPins = p.KeepLastToolResults
	}
	return p, lastPins, true
}

// nextStrategy cycles through the strategies a replay can run
// (summarize-oldest with placeholder summaries where the library did not
// fold), and the recorded one even when it is none of them (so the user
// can get back to it).
func nextStrategy(cur, recorded string) string {
	order := []string{model.SlidingWindow, model.TokenBudget, model.SummarizeOldest}
	if !slices.Contains(order, recorded) && recorded != "" {
		order = append(order, recorded)
	}
	for i, s := range order {
		if s == cur {
			return order[(i+1)%len(order)]
		}
	}
	return order[0]
}

// ApplyKnob changes the session's policy by a knob. It reports whether
// kn is one.
func (s *Session) ApplyKnob(kn Knob) bool {
	p, lastPins, ok := Step(s.Policy, s.LastPins, s.Agent, kn)
	if ok {
		s.Policy, s.LastPins = p, lastPins
	}
	return ok
}
