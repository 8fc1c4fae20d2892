package window_test

import (
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// prefix is rec as a loading file shows it after its first n calls: the
// runs so far, the last one cut after call n and not yet ended.
func prefix(rec *model.Recording, n int) *model.Recording {
	out := *rec
	out.Runs = nil
	for _, r := range rec.Runs {
		if n <= 0 {
			break
		}
		cp := *r
		if len(cp.Calls) > n {
			cp.Calls, cp.Complete, cp.FinalMessage = cp.Calls[:n:n], false, nil
		}
		n -= len(cp.Calls)
		out.Runs = append(out.Runs, &cp)
	}
	return &out
}

func TestRecheckKeepsWhatTheFirstPartInferred(t *testing.T) {
	rec := loadGenerated(t, rungen.Default(80)) // made under keepRecentTurns 4, keepLastToolResults 2
	whole := window.Infer(rec)
	if whole.Policy.KeepRecentTurns != 4 || whole.Policy.KeepLastToolResults != 2 || whole.Matched != 80 {
		t.Fatalf("the whole log infers %v, %d/%d", whole.Policy, whole.Matched, whole.Compared)
	}

	// inferred on the first 40 calls, checked on all 80: the same answer
	// as a search of the whole, from one replay that is RunFolds's
	first := window.Infer(prefix(rec, 40))
	got, ok := window.Recheck(rec, lineage.Decide(rec), first)
	if !ok || got.Policy != whole.Policy || got.Matched != 80 || got.Compared != 80 {
		t.Fatalf("Recheck after 40 calls: %v %v %d/%d, want %v 80/80", ok, got.Policy, got.Matched, got.Compared, whole.Policy)
	}
	r, want := got.Replay(rec), window.RunFolds(rec, lineage.Decide(rec), whole.Policy, nil)
	if r == nil || len(r.Calls) != len(want.Calls) {
		t.Fatal("Recheck's replay is not the whole run's")
	}
	for i := range want.Calls {
		if a, b := r.Calls[i].Visit.After, want.Calls[i].Visit.After; len(a) != len(b) || r.Calls[i].Recorded() != window.Match {
			t.Fatalf("call %d: window of %d messages, want %d", i+1, len(a), len(b))
		}
	}

	// after 3 calls nothing has left yet: the smallest keepRecentTurns
	// that keeps everything wins, and the rest of the log refutes it
	early := window.Infer(prefix(rec, 3))
	if early.Policy == whole.Policy {
		t.Fatalf("3 calls already tell %v", early.Policy)
	}
	if got, ok := window.Recheck(rec, lineage.Decide(rec), early); ok {
		t.Errorf("Recheck kept %v, which does not reproduce the whole log (Infer: %v)", got.Policy, whole.Policy)
	}
}

func TestRecheckLeavesSummariesAndOtherAgentsToInfer(t *testing.T) {
	c04, err := loader.StartLimited("../testdata/c04-summarize-multi/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := window.Recheck(c04, lineage.Decide(c04), window.Infer(prefix(c04, 12))); ok {
		t.Error("summarize-oldest was rechecked: its folds must be read afresh")
	}
	s01, err := loader.StartLimited("../testdata/s01-basic-loop/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s05, err := loader.StartLimited("../testdata/s05-multi-turn/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := window.Recheck(s05, lineage.Decide(s05), window.Infer(s01)); ok {
		t.Error("an inference of another recording's agent was kept")
	}
}
