package tui

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// TestJudgePassWalksAsTheBookDoes: the background judge pass (which walks
// the calls in order, as the export does) flags, counts and links the
// same values as asking a Book call by call, under the inferred policy and
// another, on every recording here.
func TestJudgePassWalksAsTheBookDoes(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) == 0 {
		t.Fatal("no recordings under ../testdata")
	}
	flagged := 0
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		v := viewOf(t, rec)
		p := v.Agent.Recorded
		p.KeepRecentTurns = 1
		for _, r := range []*window.Replay{v.Recorded(), v.Replay(p, nil)} {
			want, _ := session.JudgeUntil(provenance.New(rec, r), len(r.Calls), nil)
			w := provenance.Walk(rec, r)
			got, _ := session.JudgeUntil(w, len(r.Calls), nil)
			w.Stop()
			if !reflect.DeepEqual(got.Flags, want.Flags) || !reflect.DeepEqual(got.Counts, want.Counts) || !sameUsed(got.Used, want.Used) {
				t.Errorf("%s under %s: the walk's judgement differs from the book's", path, r.Policy)
			}
			for _, f := range want.Flags {
				if f {
					flagged++
				}
			}
		}
	}
	if flagged == 0 {
		t.Fatal("no call flagged anywhere: the comparison proves nothing")
	}
}

func sameUsed(a, b map[*model.Message][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for m, calls := range a {
		if !reflect.DeepEqual(calls, b[m]) {
			return false
		}
	}
	return true
}
