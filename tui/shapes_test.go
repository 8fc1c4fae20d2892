package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// A log written at tier minimal has no llm_end at all (docs/rules/versions-and-tiers.md
// §16.3): every call answered, and no token count is in the log. The
// header says the count is not there, never that the call has no reply.
func TestTierMinimalHeaderSaysNoTokenCount(t *testing.T) {
	m := open(t, fileConfig("../testdata/n09-tier-minimal/run.jsonl"), 200, 40)
	calls := len(m.s.Replay.Calls)
	if calls < 2 {
		t.Fatalf("%d calls on screen", calls)
	}
	for i := range calls {
		head := m.View()[:strings.Index(m.View(), "\n")]
		if !strings.Contains(head, "tokens not in the log") || strings.Contains(head, "no reply yet") {
			t.Fatalf("call %d: %q", i+1, head)
		}
		m = press(m, "right")
	}
}

// compositionsOwnRuns is n06 cut to the runs of the Parallel's own model
// calls (its merges) and their agents.
func compositionsOwnRuns(t *testing.T) *model.Recording {
	t.Helper()
	rec, err := loader.StartLimited("../testdata/n06-parallel-composition/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	own := *rec
	own.Runs, own.Agents = nil, nil
	for _, r := range rec.Runs {
		if r.Composition {
			own.Runs = append(own.Runs, r)
			if !slices.Contains(own.Agents, r.Agent) {
				own.Agents = append(own.Agents, r.Agent)
			}
		}
	}
	if len(own.Runs) == 0 {
		t.Fatal("no composition call in n06")
	}
	return &own
}

// A composition's own model call has no window in the log and none is
// replayed (§15.5): the header says so, not that an empty window was
// sent. The file is n06 cut to the composition's own runs.
func TestCompositionCallHasNoWindow(t *testing.T) {
	own := compositionsOwnRuns(t)
	m := open(t, recConfig("own", own), 200, 40)
	if len(m.s.Replay.Calls) != 2 { // the two merges
		t.Fatalf("%d calls on screen", len(m.s.Replay.Calls))
	}
	for i := range m.s.Replay.Calls {
		head := m.View()[:strings.Index(m.View(), "\n")]
		if !strings.Contains(head, "its window not in the log") || strings.Contains(head, "window 0 msgs") {
			t.Fatalf("call %d: %q", i+1, head)
		}
		m = press(m, "right")
	}
}

// A goes to the run's final answer (docs/rules/evidence.md §9.4.3): in
// e01-guard the answer check sent call 7's answer back (revision-asked)
// and call 9's revision was delivered, so from call 1 A lands on 9.
func TestFinalAnswerIsTheLastAnswer(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/e01-guard/run.jsonl"), 200, 40), "A")
	if got := m.s.Current().Call.Number; got != 9 {
		t.Errorf("A went to call %d, want 9", got)
	}
}
