package window_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// wireFile is the scripted model's capture of every call the library made:
// the expected windows.
type wireFile struct {
	Policy struct {
		Strategy            string `json:"strategy"`
		KeepRecentTurns     int    `json:"keepRecentTurns"`
		KeepLastToolResults any    `json:"keepLastToolResults"`
		ThresholdTokens     int    `json:"thresholdTokens"`
	} `json:"policy"`
	Calls []struct {
		Run       int           `json:"run"`
		Iteration int           `json:"iteration"`
		Messages  []wireMessage `json:"messages"`
	} `json:"calls"`
}

type wireMessage struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	ToolCalls  []struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"toolCalls"`
}

func readWire(t testing.TB, dir string) wireFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w wireFile
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w wireFile) policy() model.Policy {
	p := model.Policy{Strategy: w.Policy.Strategy, KeepRecentTurns: w.Policy.KeepRecentTurns, KeepLastToolResults: 2, ThresholdTokens: w.Policy.ThresholdTokens}
	if w.Policy.KeepLastToolResults == false {
		p.KeepLastToolResults = 0
	} else if n, ok := w.Policy.KeepLastToolResults.(float64); ok {
		p.KeepLastToolResults = int(n)
	}
	return p
}

func sameAsWire(got *model.Message, want wireMessage) bool {
	if got.Role != want.Role || got.Content != want.Content || got.ToolCallID != want.ToolCallID ||
		got.ToolName != want.ToolName || len(got.ToolCalls) != len(want.ToolCalls) {
		return false
	}
	for i, c := range got.ToolCalls {
		w := want.ToolCalls[i]
		var a, b any
		_ = json.Unmarshal(c.Args, &a)
		_ = json.Unmarshal(w.Args, &b)
		if c.ID != w.ID || c.Name != w.Name || !reflect.DeepEqual(a, b) {
			return false
		}
	}
	return true
}

var scenarios = []string{
	"demo-incident", "demo-incident-pins-off", "s01-basic-loop", "s02-pins-off", "s04-parallel-batch",
	"s05-multi-turn", "s06-tiny-results", "s09-token-budget", "s90-truncated", "t01-toolchars",
	"s10-summarize", "c04-summarize-multi",
}

// checkWindows replays rec under p and compares every call's window with
// the library's wire capture.
func checkWindows(t *testing.T, rec *model.Recording, p model.Policy, wire wireFile, truncated bool) {
	t.Helper()
	r := window.Run(rec, p)
	want := wire.Calls
	if truncated && len(r.Calls) < len(want) {
		want = want[:len(r.Calls)]
	}
	if len(r.Calls) != len(want) {
		t.Fatalf("%d calls replayed, the library made %d", len(r.Calls), len(want))
	}
	for i, c := range r.Calls {
		w := want[i]
		if c.Run.Index != w.Run || c.Call.Iteration != w.Iteration {
			t.Fatalf("call %d: run %d iteration %d, wire has run %d iteration %d", i+1, c.Run.Index, c.Call.Iteration, w.Run, w.Iteration)
		}
		got := c.Window()
		for j := 0; j < len(got) || j < len(w.Messages); j++ {
			if j >= len(got) || j >= len(w.Messages) || !sameAsWire(got[j], w.Messages[j]) {
				t.Fatalf("call %d (run %d it %d): window differs at message %d (%d vs %d messages)", i+1, w.Run, w.Iteration, j, len(got), len(w.Messages))
			}
		}
	}
}

func TestReplayMatchesWire(t *testing.T) {
	for _, name := range scenarios {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", name)
			wire := readWire(t, dir)
			rec, err := loader.StartLimited(filepath.Join(dir, "run.jsonl"), 0).Wait()
			if err != nil {
				t.Fatal(err)
			}
			truncated := name == "s90-truncated"
			t.Run("given", func(t *testing.T) { checkWindows(t, rec, wire.policy(), wire, truncated) })
			t.Run("inferred", func(t *testing.T) {
				inf := window.Infer(rec)
				checkWindows(t, rec, inf.Policy, wire, truncated)
			})
			env := filepath.Join(dir, "recording.json.gz")
			if _, err := os.Stat(env); err == nil && !truncated {
				t.Run("envelope", func(t *testing.T) {
					erec, err := loader.StartLimited(env, 0).Wait()
					if err != nil {
						t.Fatal(err)
					}
					checkWindows(t, erec, wire.policy(), wire, false)
					checkRecords(t, erec, window.Run(erec, wire.policy()))
				})
			}
		})
	}
}

// checkRecords compares the replay's records with the library's own.
func checkRecords(t *testing.T, rec *model.Recording, r *window.Replay) {
	t.Helper()
	type key struct{ run, it int }
	want := map[key]model.Record{}
	for _, run := range rec.Runs {
		for _, x := range run.Records {
			want[key{run.Index, x.Iteration}] = x
		}
	}
	have := map[key]model.Record{}
	for _, c := range r.Calls {
		if c.Visit.Record != nil {
			have[key{c.Run.Index, c.Call.Iteration}] = *c.Visit.Record
		}
	}
	if len(want) != len(have) {
		t.Fatalf("%d records replayed, the library filed %d", len(have), len(want))
	}
	for k, w := range want {
		h := have[k]
		if !sameRecord(w, h) {
			t.Errorf("run %d iteration %d:\n library %+v\n replay  %+v", k.run, k.it, w, h)
		}
	}
}

func sameRecord(a, b model.Record) bool {
	if a.Strategy != b.Strategy || a.Iteration != b.Iteration || a.KeepRecentTurns != b.KeepRecentTurns ||
		a.RemovedMessageCount != b.RemovedMessageCount || a.WindowCharsBefore != b.WindowCharsBefore ||
		a.WindowCharsAfter != b.WindowCharsAfter || a.TurnsBefore != b.TurnsBefore || a.TurnsAfter != b.TurnsAfter ||
		a.MeasuredTokens != b.MeasuredTokens || a.OverBudget != b.OverBudget || a.ThresholdTokens != b.ThresholdTokens ||
		!reflect.DeepEqual(a.Refusals, b.Refusals) || len(a.DroppedObservations) != len(b.DroppedObservations) {
		return false
	}
	for i := range a.DroppedObservations {
		if a.DroppedObservations[i] != b.DroppedObservations[i] {
			return false
		}
	}
	return sameObservations(a.Observations, b.Observations) && sameSummary(a, b)
}

// sameSummary compares what summarize-oldest adds: the frame's length
// where the replay knows it (a refusal the log does not explain leaves it
// unknown), whether the summarizer was skipped, and its tokens on a fold.
func sameSummary(lib, rep model.Record) bool {
	if (lib.SummaryChars == nil) != (lib.Strategy != model.SummarizeOldest) {
		return false // the library writes it on every summarize-oldest record
	}
	if rep.SummaryChars != nil && *rep.SummaryChars != *lib.SummaryChars {
		return false
	}
	if rep.SummaryChars == nil && rep.Strategy == model.SummarizeOldest && lib.Refusals[0].Reason != model.ReasonReplacementNotSmaller {
		return false // unknown only for a span held back
	}
	if lib.SummarizerTokens != nil && rep.SummarizerTokens != nil && *lib.SummarizerTokens != *rep.SummarizerTokens {
		return false
	}
	if lib.RemovedMessageCount > 0 && (lib.SummarizerTokens == nil) != (rep.SummarizerTokens == nil) {
		return false // a recorded fold carries the tokens its record states
	}
	return lib.SummarizerSkipped == rep.SummarizerSkipped
}

// sameObservations compares what the library writes of the pin: each
// pin's tool, turn and chars, the yielded count, the limit, stand-down.
func sameObservations(a, b *model.Observations) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Yielded != b.Yielded || a.Limit != b.Limit || a.StandDown != b.StandDown || len(a.Pinned) != len(b.Pinned) {
		return false
	}
	for i, p := range a.Pinned {
		q := b.Pinned[i]
		if p.ToolName != q.ToolName || p.TurnIndex != q.TurnIndex || p.Chars != q.Chars {
			return false
		}
	}
	return true
}

// Under a policy the library did not run (c04 with keepRecentTurns 3), a
// fold it never made gets a placeholder frame: marked, its record says the
// summary was not recorded, and no call whose window holds it matches the
// recorded window. Under the recorded policy there is none.
func TestPlaceholderFramesAreNeverCalledSent(t *testing.T) {
	dir := filepath.Join("..", "testdata", "c04-summarize-multi")
	rec, err := loader.StartLimited(filepath.Join(dir, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	recorded := readWire(t, dir).policy()
	folds := window.RecordedFolds(rec, lineage.Decide(rec), recorded)
	for _, c := range window.RunFolds(rec, lineage.Decide(rec), recorded, folds).Calls {
		for _, m := range c.Window() {
			if m.Placeholder {
				t.Fatalf("call %d: a placeholder under the recorded policy", c.Index+1)
			}
		}
	}
	other := recorded
	other.KeepRecentTurns = 3
	held := 0
	for _, c := range window.RunFolds(rec, lineage.Decide(rec), other, folds).Calls {
		if f := c.Visit.Frame; f != nil && f.Placeholder {
			if r := c.Visit.Record; r.SummaryRecorded == nil || *r.SummaryRecorded {
				t.Errorf("call %d: placeholder fold recorded as known", c.Index+1)
			}
		}
		for _, m := range c.Window() {
			if m.Placeholder {
				held++
				if c.Recorded() != window.Differs {
					t.Errorf("call %d holds a placeholder but is %s", c.Index+1, c.Recorded())
				}
			}
		}
	}
	if held == 0 {
		t.Fatalf("keepRecentTurns 3 made no placeholder fold")
	}
}
