package provenance

import (
	"testing"

	"github.com/afinspect/inspect/loader"
)

// A Parallel's merge (n06, README: the merge calls of runs 1 and 2,
// file calls 12 and 21, after both branches, with no turn_start and no
// turn_end) is the composition's own call: its answer is the
// composition's result, no agent run's, so it has no outcome of
// EVIDENCE §9.4 — not "undelivered", which would say a run threw or was
// cut off after it. The branch agents' last answers stay delivered.
func TestCompositionCallHasNoOutcome(t *testing.T) {
	rec, err := loader.StartLimited("../testdata/n06-parallel-composition/run.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	merges, delivered := 0, 0
	for _, run := range rec.Runs {
		for k, o := range Outcomes(run) {
			switch {
			case run.Composition && o != "":
				t.Errorf("file call %d, the composition's own: outcome %q", run.Calls[k].Number, o)
			case run.Composition:
				merges++
			case o == Delivered:
				delivered++
			}
		}
		if run.Composition && FinalAnswer(run) != -1 {
			t.Errorf("run %s: the composition's call taken for a run's final answer", run.RunID)
		}
	}
	if merges != 2 || delivered != 4 {
		t.Errorf("%d merge calls, %d delivered answers; want 2 merges and the 4 branch runs' answers delivered", merges, delivered)
	}
}
