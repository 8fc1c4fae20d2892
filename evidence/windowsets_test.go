package evidence

import (
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/loader"
)

// The window's sets kept message by message from call to call ground every
// value as the sets built afresh for each call do: every value of every
// message, response and request of the recordings here, under two
// policies, and values found nowhere.
func TestWindowSetsAreTheJudgeSets(t *testing.T) {
	logs, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(logs) < 10 {
		t.Fatalf("only %d recordings", len(logs))
	}
	compared := map[string]int{}
	for _, path := range logs {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		inf := inferred(rec)
		for _, k := range []int{inf.KeepRecentTurns, 1} {
			p := inf
			p.KeepRecentTurns = k
			r := replayed(rec, p)
			var w windowSets
			for i := range r.Calls {
				c := &r.Calls[i]
				view := View{Window: c.Window(), Request: c.Run.Request, SystemPrompt: c.Call.Facts.SystemPrompt}
				if !w.update(view) {
					t.Fatalf("%s call %d: a small window counted as past FormLimit", path, i+1)
				}
				fresh := buildJudgeSets(view)
				values := Candidates(c.Call.Facts.Response.Content + " zz-404-nowhere " + c.Run.Request)
				for _, m := range c.Window() {
					values = append(values, Candidates(m.Content)...)
				}
				for _, v := range values {
					got, want := w.grounded(v.Value), fresh.grounded(v.Value)
					if got != want {
						t.Errorf("%s K%d call %d: %q is %q, built afresh %q", filepath.Base(filepath.Dir(path)), k, i+1, v.Value, got, want)
					}
					compared[want]++
				}
			}
		}
	}
	for _, verdict := range []string{"", InView, UserSupplied, LibraryNote} {
		if compared[verdict] == 0 {
			t.Errorf("no value compared is %q: %v", verdict, compared)
		}
	}
	t.Logf("values compared by verdict: %v", compared)
}
