package window

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// The pins a replay admits at every visit, read from the names' numbers
// segmentFacts gathers in its pass (pinning.AppendCandidatesOf), are the
// pins the full walk over the window (pinning.AppendCandidates) finds:
// at every visit of every recording here and of generated runs (new
// requests moving the anchor, deliveries), under several policies.
func TestCandidatesOfAreTheFullWalk(t *testing.T) {
	paths := recordingPaths(t, true)
	recs := map[string]*model.Recording{
		"generated":            GeneratedRun(400, 0, 0),
		"generated-delivering": GeneratedRun(400, 7, 0),
		"generated-asking":     GeneratedRun(400, 5, 13),
	}
	byCall := GeneratedRun(400, 7, 0) // a third of the results named only by their call
	for _, run := range byCall.Runs {
		for _, c := range run.Calls {
			for _, m := range c.Appended {
				if m.Role == model.RoleTool && m.ID%3 == 0 {
					m.ToolName = ""
				}
			}
		}
	}
	recs["generated-by-call"] = byCall
	late := GeneratedRun(400, 0, 0) // every fourth call's result comes with the next call: a turn open, then grown
	for _, run := range late.Runs {
		for ci := 1; ci+1 < len(run.Calls); ci += 4 {
			c, next := run.Calls[ci], run.Calls[ci+1]
			var kept, moved []*model.Message
			for _, m := range c.Appended {
				if m.Role == model.RoleTool {
					moved = append(moved, m)
				} else {
					kept = append(kept, m)
				}
			}
			c.Appended, next.Appended = kept, append(moved, next.Appended...)
		}
	}
	recs["generated-late"] = late
	open := GeneratedRun(200, 0, 0) // every seventh call's result never comes: its turn stays, unresolved
	for _, run := range open.Runs {
		for ci := 3; ci < len(run.Calls); ci += 7 {
			c := run.Calls[ci]
			var kept []*model.Message
			for _, m := range c.Appended {
				if m.Role != model.RoleTool {
					kept = append(kept, m)
				}
			}
			c.Appended = kept
		}
	}
	recs["generated-open"] = open
	sys := GeneratedRun(300, 0, 0) // every ninth call brings a system message after its result: a turn that stays
	for _, run := range sys.Runs {
		for ci := 4; ci < len(run.Calls); ci += 9 {
			c := run.Calls[ci]
			c.Appended = append(c.Appended, &model.Message{ID: 900000 + ci, Role: model.RoleSystem, Content: "posture: read-only"})
		}
	}
	recs["generated-system"] = sys
	// seventy tool names first, four after them: the names of the later
	// windows are numbered past the first word of the walk's set
	many := GeneratedRun(300, 0, 0)
	for _, run := range many.Runs {
		for ci, c := range run.Calls {
			for _, m := range c.Appended {
				if m.Role == model.RoleTool {
					m.ToolName = fmt.Sprintf("late_%d", m.ID%4)
					if ci < 70 {
						m.ToolName = fmt.Sprintf("early_%d", ci)
					}
				}
			}
		}
	}
	recs["generated-many-tools"] = many
	for _, path := range paths {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		recs[path] = rec
	}
	visits, judged, kept := 0, atomic.Int64{}, atomic.Int64{}
	judgeFacts = func(f *readFacts, names *pinning.Names) {
		judged.Add(1)
		if f.reused > 0 {
			kept.Add(1)
		}
		if err := judgeRead(f, names); err != "" {
			t.Error(err)
		}
	}
	defer func() { judgeFacts = nil }()
	for name, rec := range recs {
		inf := Infer(rec).Policy
		policies := []model.Policy{inf}
		for _, k := range []int{1, 2, 4} {
			for _, l := range []int{1, 2, 3, 5} {
				policies = append(policies, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: k, KeepLastToolResults: l})
			}
		}
		noAnchor := inf
		noAnchor.NoAnchor, noAnchor.KeepLastToolResults = true, 2
		policies = append(policies, noAnchor)
		for _, p := range policies {
			r := Run(rec, p)
			near := p
			near.KeepRecentTurns++
			RunNear(rec, lineage.Decide(rec), p, nil, Run(rec, near)) // the split replay: two goroutines, two arenas
			for i := range r.Calls {
				c := &r.Calls[i]
				judgePins(t, name, c, r.PolicyOf(c))
				if v := &c.Visit; len(v.Evicted) > 0 && v.Record != nil && v.Record.DroppedObservations != nil {
					if want := spanToolNames(nil, v.Before, v.Evicted); !slices.Equal(v.Record.DroppedObservations, want) {
						t.Errorf("%s: call %d dropped %v, the full pass %v", name, i, v.Record.DroppedObservations, want)
					}
				}
				if n := model.WindowChars(c.Window()); c.WindowChars() != n {
					t.Errorf("%s: call %d window size %d, the full pass %d", name, i, c.WindowChars(), n)
				}
				visits++
			}
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d visits, %d read, %d of them after what the last visit read", visits, judged.Load(), kept.Load())
	if visits < 10000 || judged.Load() < int64(visits) || kept.Load() < judged.Load()/2 {
		t.Fatalf("only %d visits judged", visits)
	}
}

// judgePins checks call c's visit against the full walk.
func judgePins(t *testing.T, name string, c *CallReplay, p model.Policy) {
	t.Helper()
	v := &c.Visit
	turns := Segment(v.Before)
	var mem arena
	namer := pinning.NewNamer(v.Before)
	ids := make([]int32, len(v.Before))
	for i, m := range v.Before {
		ids[i] = mem.toolNames.Of(namer, m)
	}
	for upTo := 0; upTo <= len(turns); upTo++ {
		want := pinning.AppendCandidates(nil, turns, v.Before, v.Anchor, upTo, nil)
		got := pinning.AppendCandidatesOf(nil, turns, ids, v.Anchor, upTo, &mem.toolNames)
		if !slices.Equal(got, want) {
			t.Fatalf("%s call %d upTo %d: candidates %v, the full walk %v", name, c.Index+1, upTo, got, want)
		}
	}
	if !v.Engaged || v.StandDown || !p.PinsOn() || p.Strategy != model.SlidingWindow {
		return
	}
	cands := max(len(turns)-p.KeepRecentTurns, 0)
	var want []model.Pin
	yielded := 0
	for _, pin := range pinning.Candidates(turns, v.Before, v.Anchor) {
		if pin.TurnIndex >= cands {
			continue
		}
		if len(want) < p.KeepLastToolResults {
			want = append(want, pin)
		} else {
			yielded++
		}
	}
	if len(want) != len(v.Pins) || (len(want) > 0 && !slices.Equal(want, v.Pins)) || yielded != v.Yielded {
		t.Fatalf("%s call %d: pins %v yielded %d, the full walk %v yielded %d", name, c.Index+1, v.Pins, v.Yielded, want, yielded)
	}
}

// judgeRead is the full pass over f.w (segmentAnchor, turnChars, and
// every message's name) against what f holds, "" when they agree.
func judgeRead(f *readFacts, names *pinning.Names) string {
	turns, anchor := segmentAnchor(nil, f.w, f.request, f.anchored)
	if !slices.Equal(f.turns, turns) || f.anchor() != anchor {
		return fmt.Sprintf("turns %v anchor %d, the full pass %v %d", f.turns, f.anchor(), turns, anchor)
	}
	if tc := (&arena{}).turnChars(f.w, turns); !slices.Equal(f.tc, tc) {
		return fmt.Sprintf("turn sizes %v, the full pass %v", f.tc, tc)
	}
	if n := model.WindowChars(f.w); f.total != n {
		return fmt.Sprintf("window size %d, the full pass %d", f.total, n)
	}
	if len(f.tf) != len(turns) {
		return fmt.Sprintf("%d turn facts for %d turns", len(f.tf), len(turns))
	}
	var ids []int32
	if f.named {
		namer := pinning.NewNamer(f.w)
		for i, m := range f.w {
			if id := names.Of(namer, m); f.ids[i] != id {
				return fmt.Sprintf("message %d name number %d, the full pass %d", i, f.ids[i], id)
			}
		}
		ids = f.ids
	}
	for i, t := range turns {
		if want := fullFact(f.w, t, ids); f.tf[i] != want {
			return fmt.Sprintf("turn %d facts %+v, the full pass %+v", i, f.tf[i], want)
		}
	}
	return ""
}

// fullFact is a turn's turnFact read the long way, message by message.
func fullFact(w []*model.Message, t model.Turn, ids []int32) turnFact {
	msgs := w[t.Start : t.Start+t.Length]
	tf := turnFact{tid: -1}
	var names []int32
	for i, m := range msgs {
		tf.sys = tf.sys || m.Role == model.RoleSystem
		if ids != nil && ids[t.Start+i] >= 0 && !slices.Contains(names, ids[t.Start+i]) {
			names = append(names, ids[t.Start+i])
		}
		for _, c := range m.ToolCalls {
			answered := false
			for _, r := range msgs {
				answered = answered || r.Role == model.RoleTool && r.ToolCallID == c.ID
			}
			tf.open = tf.open || !answered || len(msgs) > factLook
		}
	}
	switch len(names) {
	case 0:
	case 1:
		tf.tid = names[0]
	default:
		tf.tid = -2
	}
	return tf
}
