package advise

import (
	"fmt"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
)

// c02's billing agent ran with pins off (README), and every
// keepLastToolResults 0–5 reproduces its windows: the inferred 2 is one
// reading of several. A tool result that left as "superseded" under 2
// left as "pins-off" under 0, and Rules says both; the user text that
// left is "not-pinnable" under every reading, so no second rule. The
// argument values that left at file calls 14 and 18 are the ones
// `inspect evidence --in arguments` lists for c02. With the knob given,
// nothing is a guess and no source has a second rule.
func TestRulesOfAGuessedKnob(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/c02-interleaved-agents/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	rules := func(k model.Knobs) string {
		s, err := study.Open(rec, study.Request{Knobs: k})
		if err != nil {
			t.Fatal(err)
		}
		r := s.Replay()
		at := map[int]int{}
		for i := range r.Calls {
			at[r.Calls[i].Call.Number] = i
		}
		book := provenance.New(rec, r)
		var got []string
		for i := range r.Calls {
			for _, e := range book.Call(i).Values {
				if e.In != provenance.InToolCall {
					continue
				}
				for _, src := range e.Sources {
					c := &r.Calls[at[src.EvictedAt]]
					rs := Rules(s.Agent(c.Run.Agent), &c.Visit, src.Message(), r.PolicyOf(c))
					got = append(got, fmt.Sprintf("%d %s %v", r.Calls[i].Call.Number, src.Rule, rs))
				}
			}
		}
		return strings.Join(got, "; ")
	}
	if got, want := rules(model.Knobs{}), "14 not-pinnable []; 14 superseded [superseded pins-off]; 18 not-pinnable []; 18 superseded [superseded pins-off]"; got != want {
		t.Errorf("inferred policy: %q, want %q", got, want)
	}
	if got := rules(model.Knobs{KeepLastToolResults: study.Int(2)}); strings.Contains(got, "pins-off") || !strings.Contains(got, "superseded []") {
		t.Errorf("keepLastToolResults given, yet a second rule: %q", got)
	}
	if RuleWords("superseded", []string{"superseded", "pins-off"}) != "superseded or pins-off" || RuleWords("superseded", nil) != "superseded" {
		t.Error("RuleWords")
	}
}
