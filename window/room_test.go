package window_test

import (
	"reflect"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A replay MergeFor is given the room of one let go writes its calls
// there (the advisor lets each replay go once tallied, and a new slice
// of every call for each was most of what it allocated), and they are
// the calls it makes without: for each agent of a file of two, under a
// policy of its own and under another, the room written over each time.
func TestMergeForWritesIntoTheRoomGiven(t *testing.T) {
	rec := load(t, "../testdata/c02-interleaved-agents/run.jsonl")
	lin := lineage.Decide(rec)
	infs := window.InferAgents(rec, lin)
	if len(rec.Agents) < 2 {
		t.Fatalf("%d agents", len(rec.Agents))
	}
	var room []window.CallReplay
	for _, a := range rec.Agents {
		for _, p := range []model.Policy{
			{Strategy: model.SlidingWindow, KeepRecentTurns: 1, KeepLastToolResults: 0},
			{Strategy: model.SlidingWindow, KeepRecentTurns: 3, KeepLastToolResults: 2},
		} {
			policies := map[string]model.Policy{a.Key: p}
			fresh := window.MergeFor(rec, lin, infs, policies, a, nil, nil, nil)
			if len(fresh.Calls) == 0 {
				t.Fatalf("agent %s: no calls", a.Key)
			}
			if cap(room) < len(fresh.Calls) {
				room = make([]window.CallReplay, len(fresh.Calls))
			}
			for i := range room[:cap(room)] {
				room[:cap(room)][i] = window.CallReplay{Index: -7} // what the last held: written over, or cleared
			}
			got := window.MergeFor(rec, lin, infs, policies, a, nil, nil, room[:0])
			if &got.Calls[0] != &room[:1][0] {
				t.Errorf("agent %s under %v: the calls were not written into the room given", a.Key, p)
			}
			if !reflect.DeepEqual(got.Calls, fresh.Calls) {
				t.Errorf("agent %s under %v: the calls written into the room differ from those made without", a.Key, p)
			}
			if tail := room[len(got.Calls):cap(room)]; len(tail) > 0 && tail[0].Index == -7 {
				t.Errorf("agent %s: the room past the calls still holds what was there", a.Key)
			}
			room = got.Calls[:0]
		}
	}
}
