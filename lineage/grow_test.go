package lineage

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/loader"
)

// TestGrowIsDecide: the lineage of a log linked again on each longer part
// of it as it is written, the runs the new lines bring linked by the
// decider of the last part, is at every part the lineage decided from
// the start: every link, every conversation, every problem; and the
// lineage grown from is left as it was. On every recording here, in 25
// parts each.
func TestGrowIsDecide(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	grown, fast := 0, 0
	for _, path := range paths {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			live := filepath.Join(t.TempDir(), "live.jsonl")
			os.WriteFile(live, nil, 0o644)
			var l *loader.Loading
			var prev *Lineage
			var prevText string
			const parts = 25
			for k := 1; k <= parts; k++ {
				f, _ := os.OpenFile(live, os.O_APPEND|os.O_WRONLY, 0)
				f.Write(data[len(data)*(k-1)/parts : len(data)*k/parts])
				f.Close()
				if l == nil {
					l = loader.StartFollowing(live, 0)
				} else if l, err = l.Continue(); err != nil {
					t.Fatal(err)
				}
				rec, err := l.Wait()
				if err != nil {
					l, prev = nil, nil
					continue
				}
				want := Decide(rec)
				got := want
				if prev != nil {
					got = Grow(prev, rec)
					if text(prev) != prevText {
						t.Fatalf("part %d: the lineage grown from changed", k)
					}
				}
				if text(got) != text(want) {
					t.Fatalf("part %d: grown %s\nwant %s", k, text(got), text(want))
				}
				if prev != nil {
					grown++
					if got.grow.d == prev.grow.d {
						fast++ // the decider went on
					}
				}
				prev, prevText = got, text(got)
			}
		})
	}
	if fast == 0 {
		t.Error("no decider went on")
	}
	t.Logf("%d of %d lineages grown by the decider going on", fast, grown)
}

// text is a lineage's answer as text.
func text(lin *Lineage) string {
	return fmt.Sprintf("%+v\n%+v\n%+v", lin.Links, lin.Conversations, lin.Problems)
}
