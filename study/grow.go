package study

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A log followed as it is written is studied again on every longer part
// of it, with the answers a study of the whole part gives; what the new
// lines leave as it was is not made again: each agent's inference goes
// on from where its search stood (window.InferMore), and a conversation's
// replay from where it stood (window's grow.go).

// Grow is the study of rec, a longer part of the file prev studied (the
// loader's next view of it), asked for as prev was: Open's answers, made
// where the new lines change them. A nil prev is Open's.
func Grow(prev *Study, rec *model.Recording, q Request) (*Study, error) {
	if prev == nil || prev.q.Only != q.Only || !sameKnobs(prev.q.Knobs, q.Knobs) || prev.q.Library != q.Library {
		return Open(rec, q)
	}
	s, err := open(rec, q, prev)
	prev.mu.Lock()
	s.prev, prev.prev = prev.views, nil // one study back, no more
	prev.mu.Unlock()
	return s, err
}

// GrowReplay is r, a replay of v's conversation in the study of an
// earlier part of the file (View.Replay's, under a policy the user set),
// made again on this part where the new lines change it: the replay
// View.Replay makes. Nil when it must be made anew.
func (v *View) GrowReplay(r *window.Replay) *window.Replay {
	if r == nil {
		return nil
	}
	return window.Grow(r, v.Rec, v.lin)
}

func sameKnobs(a, b model.Knobs) bool {
	same := func(x, y *int) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return a.Strategy == b.Strategy && a.NoAnchor == b.NoAnchor && same(a.KeepRecentTurns, b.KeepRecentTurns) &&
		same(a.KeepLastToolResults, b.KeepLastToolResults) && same(a.ThresholdTokens, b.ThresholdTokens)
}

// before is the view of conversation c in the study of the earlier part
// of the file, when that study made one: a conversation is known by its
// first run.
func (s *Study) before(first int) *View {
	for _, v := range s.prev {
		if v.first == first {
			return v
		}
	}
	return nil
}
