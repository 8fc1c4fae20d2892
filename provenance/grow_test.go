package provenance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// TestGrowIsNew: the book of a replay grown on each longer part of a log
// as it is written, grown from the last part's book, judges every value
// of every call as a book made afresh does: verdicts, sources and when
// they were sent and left; and the book grown from keeps its answers.
func TestGrowIsNew(t *testing.T) {
	for _, name := range []string{"s05-multi-turn", "c02-interleaved-agents", "c07-paused-tool", "n02-abort-then-followup", "e01-guard", "demo-evidence"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", name, "run.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "live.jsonl")
			os.WriteFile(path, nil, 0o644)
			p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 1}
			var l *loader.Loading
			var prev *Book
			var prevAnswers string
			grown := 0
			const parts = 16
			for k := 1; k <= parts; k++ {
				from, to := len(data)*(k-1)/parts, len(data)*k/parts
				f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				f.Write(data[from:to])
				f.Close()
				if l == nil {
					l = loader.StartFollowing(path, 0)
				} else if l, err = l.Continue(); err != nil {
					t.Fatal(err)
				}
				rec, err := l.Wait()
				if err != nil {
					l = nil
					continue
				}
				lin := lineage.Decide(rec)
				r := window.RunFolds(rec, lin, p, nil)
				fresh := New(rec, r)
				b := fresh
				if prev != nil {
					if g := window.Grow(prev.r, rec, lin); g != nil {
						r = g
						fresh = New(rec, r)
						if b = Grow(prev, rec, r); b == nil {
							b = fresh
						} else {
							grown++
						}
					}
					if answers(prev) != prevAnswers {
						t.Fatalf("part %d: the book grown from changed its answers", k)
					}
				}
				if got, want := answers(b), answers(fresh); got != want {
					t.Fatalf("part %d: the grown book's answers differ from a new one's:\n%.600s\nwant\n%.600s", k, got, want)
				}
				prev, prevAnswers = b, answers(b)
			}
			if grown == 0 {
				t.Error("no book was grown")
			}
		})
	}
}

// answers is every value of every call of b's replay, judged, as text.
func answers(b *Book) string {
	var out []byte
	for i := range b.r.Calls {
		j, _ := json.Marshal(b.Call(i))
		out = append(append(out, j...), '\n')
	}
	return string(out)
}
