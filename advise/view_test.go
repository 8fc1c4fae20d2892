package advise

import (
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// The "what would have kept it" search on one conversation alone answers
// as the one on the whole file, for every value that left, on every
// recording here, several of which hold several conversations or agents.
func TestViewSearchIsTheFileSearch(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) < 10 {
		t.Fatalf("only %d recordings", len(paths))
	}
	searched := 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, err := study.Open(rec, study.Request{Recorded: true})
		if err != nil {
			t.Fatal(err)
		}
		file, fileBook := s.Replay(), provenance.New(rec, s.Replay())
		fileSearch := FileSearcher(s, file)
		for _, c := range s.Lineage.Conversations {
			v := s.View(c.Number)
			r, book := v.Start(), provenance.New(v.Rec, v.Start())
			search := ViewSearcher(v, r)
			for i := range r.Calls {
				fi := callIndex(file, r.Calls[i].Call)
				for _, e := range book.Call(i).Values {
					if e.Verdict != evidence.Left {
						continue
					}
					fe := entryOf(fileBook.Call(fi).Values, e.Value, e.In)
					got, ok := search.Keep(i, e)
					want, wantOK := fileSearch.Keep(fi, fe)
					if ok != wantOK || got.Text != want.Text {
						t.Errorf("%s conversation %d call %d %s: %q (%v) alone, %q (%v) in the file", path, c.Number, r.Calls[i].Call.Number, e.Value, got.Text, ok, want.Text, wantOK)
					}
					searched++
				}
			}
		}
	}
	if searched == 0 {
		t.Error("no value searched: the comparison proves nothing")
	}
}

func callIndex(r *window.Replay, call *model.Call) int {
	for i := range r.Calls {
		if r.Calls[i].Call == call {
			return i
		}
	}
	return -1
}

func entryOf(es []provenance.Entry, value, in string) provenance.Entry {
	for _, e := range es {
		if e.Value == value && e.In == in {
			return e
		}
	}
	return provenance.Entry{}
}
