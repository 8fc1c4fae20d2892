package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/tui/keys"
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

// knobOf is the knob msg moves under k; NoKnob for any other key.
func knobOf(k keys.KeyMap, msg tea.KeyMsg) Knob {
	for _, b := range []struct {
		b  key.Binding
		kn Knob
	}{
		{k.RecentLess, RecentLess}, {k.RecentMore, RecentMore},
		{k.PinsLess, PinsLess}, {k.PinsMore, PinsMore},
		{k.TogglePins, TogglePins}, {k.ToggleAnchor, ToggleAnchor},
		{k.Strategy, CycleStrategy},
		{k.ThresholdLess, ThresholdLess}, {k.ThresholdMore, ThresholdMore},
		{k.Reset, ResetPolicy},
	} {
		if key.Matches(msg, b.b) {
			return b.kn
		}
	}
	return NoKnob
}

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
