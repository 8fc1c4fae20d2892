package study

import (
	"fmt"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// c02's billing agent ran with pins off and keepRecentTurns 4 (README);
// every keepLastToolResults 0–5 reproduces its 12 windows, so its
// inferred keepLastToolResults is a guess, its keepRecentTurns not. Under
// another policy (a knob moved) nothing is a guess, nor with the knob
// given as a flag.
func TestGuessOfAKnobTheLogCannotTell(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/c02-interleaved-agents/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Open(rec, Request{})
	var billing *Agent
	for i := range s.Agents {
		if s.Agents[i].Agent.Key == "billing" {
			billing = &s.Agents[i]
		}
	}
	g := billing.GuessFor(billing.Recorded)
	if got := fmt.Sprint(g.K, g.L, " ", model.Range(g.L)); got != "[4] [0 1 2 3 4 5] 0–5" || !g.Any() {
		t.Errorf("billing's guess %s", got)
	}
	moved := billing.Recorded
	moved.KeepRecentTurns++
	if billing.GuessFor(moved).Any() {
		t.Errorf("a moved knob is a guess")
	}
	l := 2
	s, _ = Open(rec, Request{Knobs: model.Knobs{KeepLastToolResults: &l}})
	for _, a := range s.Agents {
		if a.GuessFor(a.Policy).Any() {
			t.Errorf("%s: keepLastToolResults given, yet a guess %+v", a.Agent.Key, a.GuessFor(a.Policy))
		}
	}
	if got := model.Range([]int{1, 2, 3, 5, 7, 8}); got != "1–3, 5, 7–8" {
		t.Errorf("Range %q", got)
	}
}
