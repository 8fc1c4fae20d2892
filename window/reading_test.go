package window_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// The reading (§7): the usage of the chain's most recent call whose
// llm_end carried a number for input AND for output; current at iteration
// I only if taken at I−1 or later. In c09 (token-budget, threshold 900)
// the visit of run 1's iteration 6 engages on iteration 5's reading (input
// 1017 > 900) and drops 6 messages. With iteration 5's usage gone (or its
// output gone), iteration 5 gave no reading and iteration 4's has expired:
// iteration 6's visit has no reading, does not engage, and is not an
// "unmeasurable" 0/0 reading either (that one throws in the library).
func TestReadingNeedsBothCounts(t *testing.T) {
	const usage = `"usage":{"input":1017,"output":15}`
	for _, c := range []struct {
		name, usage string
	}{
		{"as recorded", usage},
		{"no usage", `"usage":null`},
		{"no output", `"usage":{"input":1017}`},
		{"output null", `"usage":{"input":1017,"output":null}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := c09With(t, usage, c.usage)
			r := window.Run(rec, model.Policy{Strategy: model.TokenBudget, ThresholdTokens: 900, KeepRecentTurns: 2, KeepLastToolResults: 2})
			call := r.Calls[5] // run 1, iteration 6
			if call.Call.Iteration != 6 || call.Run != rec.Runs[0] {
				t.Fatalf("call 6 is iteration %d", call.Call.Iteration)
			}
			engaged := call.Visit.Record != nil
			if want := c.usage == usage; engaged != want {
				t.Errorf("iteration 6 engaged %v, want %v", engaged, want)
			}
			if engaged && (call.Visit.Record.RemovedMessageCount != 6 || call.Visit.Record.MeasuredTokens != 1017) {
				t.Errorf("record %+v, want 6 removed at 1017 tokens", *call.Visit.Record)
			}
			for _, p := range r.Problems {
				if strings.Contains(p, "unmeasurable") {
					t.Errorf("problem %q: a call with no counts is no reading", p)
				}
			}
		})
	}
}

// c09With is c09's log with old replaced by new in run 1's fifth llm_end.
func c09With(t *testing.T, old, new string) *model.Recording {
	t.Helper()
	data, err := os.ReadFile("../testdata/c09-token-budget-followups/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n := 0
	for i, l := range lines {
		if strings.Contains(l, `"type":"agentfootprint.stream.llm_end"`) {
			if n++; n == 5 {
				if !strings.Contains(l, old) {
					t.Fatalf("the fifth llm_end has no %s", old)
				}
				lines[i] = strings.Replace(l, old, new, 1)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A run made by resume() keeps the paused run's meter (§7, §12.2): its
// first visit reads the paused call's usage. c07's run 1 pauses after
// iteration 5 (input 1446); run 2, its resume, opens at iteration 6.
// Under token-budget at 1000 tokens that first visit engages on 1446 —
// unlike a fresh run's or a follow-up's first call, which never does.
func TestResumedRunReadsThePausedCall(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/c07-paused-tool/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	r := window.Run(rec, model.Policy{Strategy: model.TokenBudget, ThresholdTokens: 1000, KeepRecentTurns: 2, KeepLastToolResults: 2})
	want := map[int]int{1: 0, 2: 0, 3: 0, 4: 0, 5: 1040, 6: 1446, 7: 1198, 8: 1481} // iteration -> measured (0: no record)
	for _, c := range r.Calls {
		m, ok := want[c.Call.Iteration]
		if !ok {
			continue
		}
		got := 0
		if c.Visit.Record != nil {
			got = c.Visit.Record.MeasuredTokens
		}
		if got != m {
			t.Errorf("iteration %d (run %s): measured %d, want %d", c.Call.Iteration, c.Run.RunID, got, m)
		}
	}
}

// A Sequence step has no meter (§7, §10.4): token-budget and
// summarize-oldest never engage there, whatever the threshold. c06b's
// two steps, under either at 1 token, file no record and change nothing.
func TestSequenceStepHasNoMeter(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/c06b-composition-sequence/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{model.TokenBudget, model.SummarizeOldest} {
		r := window.Run(rec, model.Policy{Strategy: s, ThresholdTokens: 1, KeepRecentTurns: 1, KeepLastToolResults: 2})
		if len(r.Calls) != 12 {
			t.Fatalf("%s: %d calls, want 12", s, len(r.Calls))
		}
		for _, c := range r.Calls {
			if c.Run.Step == "" || c.Visit.Record != nil || len(c.Visit.Evicted) != 0 {
				t.Errorf("%s: call %d (step %q): record %v, %d evicted; a step has no meter", s, c.Call.Number, c.Run.Step, c.Visit.Record, len(c.Visit.Evicted))
			}
		}
	}
}
