package session

import (
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/loader"
)

// At every call of every recording here, with the knobs moved, comparing
// fates through fateDiff (the rows each call has of its own, the rest
// known once per replay) says what comparing every row of the two
// ledgers says: the count the policy bar shows and every turn's words.
func TestFateDiffIsTheRowByRowComparison(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/*/run.jsonl")
	if len(paths) == 0 {
		t.Fatal("no recordings under ../../testdata")
	}
	paths = append(paths, "../testdata/twins-branch/run.jsonl") // a conversation that branches
	compared := 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		v := viewOf(t, rec)
		was := v.Recorded()
		for _, k := range []int{1, 2, 5} {
			p := v.Agent.Recorded
			p.KeepRecentTurns, p.KeepLastToolResults = k, 3-min(k, 3)
			if p == v.Agent.Recorded {
				continue
			}
			now := v.Replay(p, nil)
			d := NewFateDiff(was, now)
			for c := range now.Calls {
				byRows := CompareRows(was.Ledger(c), now.Ledger(c))
				got := d.CompareAt(was.LedgerAt(c), now.LedgerAt(c))
				if got.Count() != byRows.Count() || got.OnlyRecorded != byRows.OnlyRecorded {
					t.Fatalf("%s %+v call %d: %d differ (%d only recorded), row by row %d (%d)", path, p, c+1, got.Count(), got.OnlyRecorded, byRows.Count(), byRows.OnlyRecorded)
				}
				for _, r := range now.Ledger(c) {
					if got.Of(r.Key) != byRows.Of(r.Key) {
						t.Fatalf("%s %+v call %d turn %s: %q, row by row %q", path, p, c+1, r.Key, got.Of(r.Key), byRows.Of(r.Key))
					}
				}
				compared += byRows.Count()
			}
		}
	}
	if compared == 0 {
		t.Fatal("no turn differed anywhere: the comparison was not tried")
	}
}
