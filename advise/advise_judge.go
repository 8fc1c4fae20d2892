package advise

import (
	"hash/maphash"
	"slices"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// sweepTally is one policy's row for one agent of one file, before its
// tokens are estimated.
type sweepTally struct {
	over                         bool // given up: its windows grew past the budget (adviseBase.budget)
	chars, peak                  int
	peakSent                     int // the largest window and system prompt of one call (promptChars)
	lost                         Lost
	notices, standDowns, differs int
	// the recorded policy's walk only: by call, the values neither
	// grounded nor left (neverRead reads them)
	wantUnread bool
	unread     map[int][]valueAt
	// a test's: by call, the values left
	wantLeft bool
	left     map[int][]valueAt
}

func (t *sweepTally) add(c *window.CallReplay) {
	n := c.WindowChars()
	t.chars += n
	t.peak = max(t.peak, n)
	t.peakSent = max(t.peakSent, n+promptChars(c.Call))
	if c.Visit.Notice != nil {
		t.notices++
	}
	if rec := c.Visit.Record; rec != nil && rec.Observations != nil && rec.Observations.StandDown {
		t.standDowns++
	}
	if c.Recorded() == window.Differs {
		t.differs++
	}
}

// judge counts call c's values that are `left` under the replay.
func (w *walker) judge(c *window.CallReplay, ac *adviseCall, k int, t *sweepTally) {
	if len(ac.values) == 0 {
		return
	}
	var sets *evidence.Sets
	if !small(w.tools, w.owns, w.exempt+ac.bound) && !w.smallExactly(c.Window(), ac) {
		// the sets may have reached their limit: the library's, built as it builds them
		all := evidence.BuildSets(c.Window(), ac.request, ac.prompt)
		sets = &all
	}
	for _, v := range ac.values {
		grounded := w.inCount[v.id] > 0 || slices.Contains(ac.exempt, v.id)
		if sets != nil {
			grounded = sets.Grounded(w.b.values[v.id])
		}
		switch {
		case grounded:
		case w.goneCount[v.id] > 0:
			if t.wantLeft {
				if t.left == nil {
					t.left = map[int][]valueAt{}
				}
				t.left[k] = append(t.left[k], v)
			}
			if v.arg {
				t.lost.Arguments++
			} else {
				t.lost.Answers++
			}
		case t.wantUnread:
			if t.unread == nil {
				t.unread = map[int][]valueAt{}
			}
			t.unread[k] = append(t.unread[k], v)
		}
	}
}

func small(tools, owns, exempt int) bool {
	return tools < evidence.FormLimit && owns < evidence.FormLimit && exempt < evidence.FormLimit
}

// smallExactly is small with each message's distinct forms counted
// (evidence.Distinct: the messages this replay wrote were counted by
// their asked forms, repeats included).
func (w *walker) smallExactly(win []*model.Message, ac *adviseCall) bool {
	var tools, owns, exempt int
	for _, m := range win {
		h, _ := w.lookup(m)
		d, o := h.distinct(m, w.b.ownBytes)
		if h.tool {
			tools, owns = tools+d, owns+o
		} else {
			exempt += d
		}
	}
	return small(tools, owns, exempt+ac.bound)
}

// lookup is what m holds and its holder id (-1 when it holds no asked
// value).
func (w *walker) lookup(m *model.Message) (*held, int32) {
	if h, ok := w.b.knownOf(m); ok {
		return h, h.id
	}
	if l, ok := w.local[m]; ok {
		return l.h, l.id
	}
	h := w.writtenText(m)
	id := int32(-1)
	if h.id >= 0 {
		id = int32(len(w.byID))
		w.byID = append(w.byID, h)
		w.grow(len(w.byID))
	}
	w.local[m] = localHeld{h, id}
	return h, id
}

// writtenText is what a message the replay wrote holds: a notice or a
// frame, read once per text over the replays this walker tallies (the
// same notice comes back under many policies), keyed by a 128-bit hash
// of its role and text so that the key keeps no text alive; a tool
// message, read each time (its own bytes are its own).
func (w *walker) writtenText(m *model.Message) *held {
	if m.Role == model.RoleTool {
		h := w.newHeld()
		w.b.written(h, m)
		return h
	}
	key := textKey{maphash.String(textSeeds[0], m.Content) ^ maphash.String(textSeeds[0], m.Role), maphash.String(textSeeds[1], m.Content)}
	if h, ok := w.texts[key]; ok {
		return h
	}
	if w.texts == nil || len(w.texts) >= textsKept {
		w.texts = make(map[textKey]*held, 1024)
	}
	h := new(held)
	w.b.written(h, m)
	w.texts[key] = h
	return h
}

type textKey [2]uint64

var textSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// textsKept bounds the texts a walker remembers (some 40 MB).
const textsKept = 1 << 18

const slabBlock = 1024

// newHeld is a held for a message this replay wrote, from memory the
// walker reuses replay after replay (a replay writes thousands of
// notices).
func (w *walker) newHeld() *held {
	k, i := w.used/slabBlock, w.used%slabBlock
	if k == len(w.slab) {
		w.slab = append(w.slab, make([]held, slabBlock))
	}
	w.used++
	return &w.slab[k][i]
}
