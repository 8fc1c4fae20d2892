package window_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Logs generated under a known policy: the inferred policy must reproduce
// every recorded window (it may be another policy that does, when the run
// never tells them apart).
func TestInferReproducesGeneratedLogs(t *testing.T) {
	for _, pol := range []struct{ k, l int }{{4, 2}, {3, 0}, {1, 1}, {7, 3}} {
		s := rungen.Default(80)
		s.KeepRecent, s.KeepPins = pol.k, pol.l
		rec := loadGenerated(t, s)
		inf := window.Infer(rec)
		if !inf.Inferred || inf.Compared != 80 || inf.Matched != 80 {
			t.Errorf("K=%d L=%d: inferred %+v reproduces %d/%d", pol.k, pol.l, inf.Policy, inf.Matched, inf.Compared)
		}
		if inf.Policy.KeepRecentTurns != pol.k && inf.Policy.KeepLastToolResults == pol.l {
			t.Errorf("K=%d L=%d: with the pin limit right, keepRecentTurns must be too: got %d", pol.k, pol.l, inf.Policy.KeepRecentTurns)
		}
	}
}

// A recorded window no policy can make (here: s01's sixth call, one
// message's hash changed): inference says so rather than pretending.
func TestInferSaysWhenNothingReproduces(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/s01-basic-loop/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Runs[0].Calls[5]
	c.Recorded = append([]*model.Message(nil), c.Recorded...)
	c.Recorded[0] = &model.Message{Role: model.RoleUser, Content: "a request nobody made"}
	inf := window.Infer(rec)
	if inf.Matched >= inf.Compared || !strings.Contains(inf.Evidence, "no policy tried reproduces every recorded window") {
		t.Fatalf("s01 with a foreign window: %d/%d, evidence %q", inf.Matched, inf.Compared, inf.Evidence)
	}
}

// summarize-oldest is inferred by replaying with the recorded folds
// (§10.10): s10 (README: keepRecentTurns 2, keepLastToolResults default 2,
// thresholdTokens 2800) is reproduced call for call. K 1 reproduces its
// windows as well (only the records tell them apart) and is the smallest.
func TestInferSummarizeOldest(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/s10-summarize/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	inf := window.Infer(rec)
	want := model.Policy{Strategy: model.SummarizeOldest, KeepRecentTurns: 1, KeepLastToolResults: 2, ThresholdTokens: 2800}
	if inf.Policy != want || inf.Matched != 9 || inf.Compared != 9 || inf.Folds == nil || inf.Folds.Folds() != 3 {
		t.Fatalf("s10: %+v reproducing %d/%d, evidence %q", inf.Policy, inf.Matched, inf.Compared, inf.Evidence)
	}
}

// The envelope's own records state keepRecentTurns and the pin limit.
func TestInferReadsRecords(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/s09-token-budget/recording.json.gz", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	inf := window.Infer(rec)
	want := model.Policy{Strategy: model.TokenBudget, KeepRecentTurns: 2, KeepLastToolResults: 2, ThresholdTokens: 3000}
	if inf.Policy != want || inf.Inferred {
		t.Fatalf("s09 envelope: %+v inferred=%v, want %+v from its records (wire.json policy)", inf.Policy, inf.Inferred, want)
	}
}

// s09's first four calls report inputs 400, 900, 1600 and 2600 (its
// README): under its threshold of 3000 the strategy never engaged, and so
// no budget_pressure event named the threshold. Inference must not take
// the missing threshold for 0 (which engages on every call).
func TestInferTokenBudgetThatNeverEngaged(t *testing.T) {
	full, err := loader.StartLimited("../testdata/s09-token-budget/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	run := *full.Runs[0]
	run.Calls = run.Calls[:4]
	run.Caps = nil // as a log cut before the first engaged visit says
	rec := &model.Recording{Runs: []*model.Run{&run}, Agents: full.Agents}
	inf := window.Infer(rec)
	if inf.Policy.Strategy != model.TokenBudget || inf.Policy.ThresholdTokens < 2600 || inf.Matched != 4 || inf.Compared != 4 {
		t.Fatalf("inferred %+v reproducing %d/%d; evidence %q", inf.Policy, inf.Matched, inf.Compared, inf.Evidence)
	}
	for _, c := range window.Run(rec, inf.Policy).Calls {
		if c.Visit.Engaged {
			t.Fatalf("call %d engaged under the inferred threshold", c.Index+1)
		}
	}
}

// loadGenerated writes the log s describes and loads it, as a user's file.
func loadGenerated(t *testing.T, s rungen.Spec) *model.Recording {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if _, err := rungen.WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
