package advise

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
)

// opened is testdata/name opened under knobs, with the book of its
// replay.
func opened(t *testing.T, name string, k model.Knobs) (*study.Study, *provenance.Book) {
	t.Helper()
	rec, err := loader.StartLimited(filepath.Join("..", "testdata", name, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{Knobs: k})
	if err != nil {
		t.Fatal(err)
	}
	return s, provenance.New(rec, s.Replay())
}

// The README of demo-evidence-k3-pins3 found K=3, L=3 the smallest policy
// keeping list_hosts in view at call 13 (its sweep: no K=2 or K=3 with
// L ≤ 2, no L=3 or L=4 with K=2, nor K=4 L=2); 3940 is unsupported in
// every cell of that sweep; across the follow-up no window policy keeps
// anything.
func TestKeep(t *testing.T) {
	s, b := opened(t, "demo-evidence", model.Knobs{Strategy: model.SlidingWindow, KeepRecentTurns: study.Int(2), KeepLastToolResults: study.Int(2)})
	search := FileSearcher(s, s.Replay())
	var got []string
	for _, i := range []int{12, 15} {
		for _, e := range b.Call(i).Values {
			if e.In != provenance.InAnswer || e.Verdict != evidence.Left {
				continue
			}
			sug, ok := search.Keep(i, e)
			if !ok {
				sug.Text = NoneText()
			}
			got = append(got, e.Value+": "+sug.Text)
		}
	}
	want := []string{
		"us-east-1b: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"10.12.4.52: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"3940: " + NoneText(), // the sweep: 3940 stays unsupported for every K ≤ 6, L ≤ 4
		"web-9d4b27: keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"us-west-2a: " + NoneText(),
		"eu-west-1c: " + NoneText(),
		"1284: " + NoneText(),
	}
	if !slices.Equal(got, want) {
		t.Errorf("suggestions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The search's neighbourhood: one step per knob unit, per strategy
// change, per 500 tokens of threshold; a token-measured strategy only
// from a threshold; fewest steps first, the strategy kept on ties.
func TestNearby(t *testing.T) {
	base := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}
	ps := nearby(base, nil)
	if len(ps) == 0 || steps(base, ps[0]) != 1 || ps[len(ps)-1].Strategy != model.SlidingWindow || steps(base, ps[len(ps)-1]) != MaxSteps {
		t.Errorf("K/L only: first %v, last %v", ps[0], ps[len(ps)-1])
	}
	s := &Searcher{strategies: []string{model.SlidingWindow, model.TokenBudget, model.SummarizeOldest}}
	if got := s.others(base); len(got) != 0 {
		t.Errorf("no threshold: no token-measured strategy, got %v", got)
	}
	tb := model.Policy{Strategy: model.TokenBudget, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 1000}
	if got := s.others(tb); !slices.Equal(got, []string{model.SlidingWindow, model.SummarizeOldest}) {
		t.Errorf("others of token-budget: %v", got)
	}
	ps = nearby(tb, s.others(tb))
	one := 0
	for _, p := range ps {
		if steps(tb, p) == 1 {
			one++
		}
	}
	// K±1 (K=1 allowed), L±1, threshold ±500, two other strategies
	if one != 8 {
		t.Errorf("%d policies one step away, want 8: %v", one, ps[:one])
	}
	if p := (model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 3, KeepLastToolResults: 2, ThresholdTokens: 1500}); steps(tb, p) != 3 {
		t.Errorf("strategy, K and threshold: %d steps", steps(tb, p))
	}
}

// What K says a policy costs (CostOf): demo-evidence's 16 calls were
// sent 26,036 input tokens (its llm_end usage); demo-evidence-k3-pins3,
// the same script recorded under K=3 L=3, was sent 36,029. The estimate
// for K=3 L=3 from the demo's own recording is within 2% of that. Under
// it 3940 and web-3e6f14 … still leave: the values left out of view are
// the ones `inspect evidence` finds left on the K=3 L=3 recording (4 in
// its answers, 2 in its arguments).
func TestCostOfASuggestion(t *testing.T) {
	s, _ := opened(t, "demo-evidence", model.Knobs{Strategy: model.SlidingWindow, KeepRecentTurns: study.Int(2), KeepLastToolResults: study.Int(2)})
	search := FileSearcher(s, s.Replay())
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 3}
	agent := s.Replay().Calls[0].Run.Agent.Key
	c, ok := search.CostOf(s.Rec, agent, p)
	if !ok || c.Recorded != 26036 || c.Tokens < 36029*98/100 || c.Tokens > 36029*102/100 {
		t.Errorf("K3 L3: ≈%d tokens vs %d recorded (ok %v), want 26,036 recorded and within 2%% of 36,029", c.Tokens, c.Recorded, ok)
	}
	k3, _ := opened(t, "demo-evidence-k3-pins3", model.Knobs{})
	kb := provenance.Walk(k3.Rec, k3.Replay())
	defer kb.Stop()
	var want Lost
	for i := range k3.Replay().Calls {
		for _, e := range kb.Call(i).Values {
			if e.Own() == evidence.Left {
				if e.In == provenance.InToolCall {
					want.Arguments++
				} else {
					want.Answers++
				}
			}
		}
	}
	if c.OutOfView != want || want != (Lost{Answers: 4, Arguments: 2}) {
		t.Errorf("K3 L3: %+v out of view, the K3 L3 recording %+v, want 4 and 2", c.OutOfView, want)
	}
}
