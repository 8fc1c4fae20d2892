package rungen

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

func TestGeneratedLogReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s := Default(60)
	if _, err := WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 0 || len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 60 {
		t.Fatalf("loaded %d runs, problems %v", len(rec.Runs), rec.Problems)
	}
	r := replayed(t, rec, 4)
	drops := 0
	for _, c := range r.Calls {
		if c.Recorded() != window.Match {
			t.Fatalf("call %d: recorded window %s", c.Index+1, c.Recorded())
		}
		drops += len(c.Visit.Evicted)
	}
	if drops == 0 {
		t.Fatal("a 60-call run under keepRecentTurns 4 must drop something")
	}
	// a different policy must not reproduce it: the comparison is real
	r2 := replayed(t, rec, 6)
	if r2.Calls[len(r2.Calls)-1].Recorded() != window.Differs {
		t.Fatal("keepRecentTurns 6 should not reproduce a log recorded under 4")
	}
}

func TestDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, Default(20)); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, Default(20)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("same spec, different bytes")
	}
}

// replayed is rec replayed under sliding-window, keepRecentTurns k, pins 2.
func replayed(t *testing.T, rec *model.Recording, k int) *window.Replay {
	t.Helper()
	s, err := study.Open(rec, study.Request{Knobs: model.Knobs{Strategy: model.SlidingWindow, KeepRecentTurns: study.Int(k), KeepLastToolResults: study.Int(2)}})
	if err != nil {
		t.Fatal(err)
	}
	return s.Replay()
}

// Copies renames the agent and suffixes each runId per copy, and leaves
// everything else as it was (the expected bytes written by hand).
func TestCopiesRenameTheAgentAndTheRuns(t *testing.T) {
	src := []byte(`{"runId":"r1","agentId":"agent","source":"Agent:agent","x":"agent"}` + "\n")
	want := `{"runId":"r1-a0","agentId":"agent0","source":"Agent:agent0","x":"agent"}` + "\n" +
		`{"runId":"r1-a1","agentId":"agent1","source":"Agent:agent1","x":"agent"}` + "\n"
	if got := string(Copies(src, 2)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
