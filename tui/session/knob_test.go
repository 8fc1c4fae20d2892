package session

import (
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// Step is the knobs' arithmetic, worked by hand from the policy bar's
// rules: counts stop at 0, pins off remembers the limit to restore,
// reset is the recorded policy, a token strategy without a threshold
// takes the agent's largest recorded input.
func TestStepByHand(t *testing.T) {
	recorded := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 3}
	a := &study.Agent{Recorded: recorded, LargestInput: 4321}
	p, pins := recorded, 3
	step := func(kn Knob) {
		t.Helper()
		var ok bool
		if p, pins, ok = Step(p, pins, a, kn); !ok {
			t.Fatalf("knob %d: not a knob", kn)
		}
	}
	step(RecentMore)
	step(RecentMore)
	if p.KeepRecentTurns != 4 {
		t.Errorf("2 ]] = %d, want 4", p.KeepRecentTurns)
	}
	for range 6 {
		step(RecentLess)
	}
	if p.KeepRecentTurns != 0 {
		t.Errorf("4 then six [ = %d, want 0", p.KeepRecentTurns)
	}
	step(TogglePins)
	if p.KeepLastToolResults != 0 || pins != 3 {
		t.Errorf("pins off: %d (restore %d), want 0 (restore 3)", p.KeepLastToolResults, pins)
	}
	step(PinsLess)
	step(TogglePins)
	if p.KeepLastToolResults != 3 {
		t.Errorf("pins back on: %d, want 3", p.KeepLastToolResults)
	}
	step(ToggleAnchor)
	if !p.NoAnchor {
		t.Error("a did not turn the anchor off")
	}
	step(ResetPolicy)
	if p != recorded {
		t.Errorf("reset: %+v, want %+v", p, recorded)
	}
	step(CycleStrategy)
	if p.Strategy == recorded.Strategy || (p.NeedsThreshold() && p.ThresholdTokens != 4321) {
		t.Errorf("s from sliding-window: %+v (a threshold strategy takes 4321)", p)
	}
	if _, _, ok := Step(p, pins, a, NoKnob); ok {
		t.Error("NoKnob moved the policy")
	}
}
