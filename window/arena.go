package window

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// slab hands out small slices carved from larger allocations, so a replay
// of thousands of visits makes hundreds of allocations rather than tens of
// thousands. Every slice it returns is capped at its length: appending to
// one copies instead of overwriting a neighbour.
type slab[T any] struct {
	free []T
	next int // size of the next block
}

func (s *slab[T]) take(n int) []T {
	if n > len(s.free) {
		if s.next == 0 {
			s.next = 16 // an agent of a few calls keeps its replay's first blocks: small ones
		}
		if n > s.next/4 {
			if s.next < 8192 {
				s.next *= 2 // requests this large come again: blocks grow to take them
			}
			return make([]T, n) // large requests get their own allocation
		}
		s.free = make([]T, s.next)
		if s.next < 8192 {
			s.next *= 2
		}
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// arena is the memory of one replay (or one visit).
type arena struct {
	msgs     slab[*model.Message]
	refusals keeper[model.Refusal]
	pins     keeper[model.Pin]
	names    keeper[string]
	records  slab[model.Record]
	obs      slab[model.Observations]
	lastObs  *model.Observations
	notices  slab[model.Message]
	text     textBlocks // the notices' texts
	// toolNames numbers the tool names of the replay's windows
	toolNames pinning.Names
	room      room // the last window made, and room after it
	// scratch memory of one visit, reused by the next
	scratchPins   []model.Pin
	scratchRefs   []model.Refusal
	scratchPinned []model.Pin
	scratchNames  []string
	scratchChars  []int
	// calls is the room for the calls of a replay that lets them go run by
	// run (replayOptions.strip), kept for the next one in this arena
	calls []CallReplay
	// read holds what the visit read of its window (read[cur]), and what
	// that of the window the last visit sent (the other; facts.go)
	read [2]readFacts
	cur  uint8
}

// keeper is a slab that also keeps copies of scratch slices, handing out
// a copy it made earlier again when the slice is equal to it: visits in a
// row often file the same refusals, pins or names, and what is handed out
// is never written to. keep remembers the last copy; keepAt one copy per
// slot of a table (with its hash, so that a miss reads no old copy), made
// once the arena has kept enough to be a replay's.
type keeper[T comparable] struct {
	slab[T]
	last  []T
	table []kept[T]
	kept  int
}

type kept[T any] struct {
	h uint
	s []T
}

const keeperSlots = 1024

// keep returns a copy of s that outlives the visit.
func (k *keeper[T]) keep(s []T) []T {
	if len(s) > 0 && slices.Equal(s, k.last) {
		return k.last
	}
	out := append(k.take(len(s))[:0], s...)
	if len(s) > 0 {
		k.last = out
	}
	return out
}

// keepAt is keep, remembering the copy under h (a hash of s).
func (k *keeper[T]) keepAt(s []T, h uint) []T {
	if k.table == nil {
		if k.kept++; k.kept < 64 {
			return k.keep(s)
		}
		k.table = make([]kept[T], keeperSlots)
	}
	slot := &k.table[h%keeperSlots]
	if len(s) > 0 && slot.h == h && slices.Equal(s, slot.s) {
		return slot.s
	}
	out := append(k.take(len(s))[:0], s...)
	if len(s) > 0 {
		*slot = kept[T]{h, out}
	}
	return out
}

// scratch slices for the refusal engine: the candidate pins and the
// refusals met, before the visit keeps what it needs.
func (a *arena) pinScratch(n int) []model.Pin {
	if cap(a.scratchPins) < n {
		a.scratchPins = make([]model.Pin, 0, n*2)
	}
	return a.scratchPins[:0]
}

func (a *arena) refusalScratch(n int) []model.Refusal {
	if cap(a.scratchRefs) < n {
		a.scratchRefs = make([]model.Refusal, 0, n*2)
	}
	return a.scratchRefs[:0]
}

// pinnedScratch and namesScratch are the scratch of the admitted pins and
// of the names of a span, before the visit keeps them.
func (a *arena) pinnedScratch(n int) []model.Pin {
	if cap(a.scratchPinned) < n {
		a.scratchPinned = make([]model.Pin, 0, n*2)
	}
	return a.scratchPinned[:0]
}

func (a *arena) namesScratch(n int) []string {
	if cap(a.scratchNames) < n {
		a.scratchNames = make([]string, 0, n*2)
	}
	return a.scratchNames[:0]
}

// room is the window the arena made last, in a block with room after it:
// buf[:used] has been handed out (never past used), buf[used:] not yet.
type room struct {
	buf   []*model.Message
	used  int
	spare int // the room it was made with after its window
}

// window returns n messages of memory for a window, with spare more
// after them that extend may use.
func (a *arena) window(n, spare int) []*model.Message {
	buf := a.msgs.take(n + spare)
	a.room = room{buf: buf, used: n, spare: spare}
	return buf[:n:n]
}

// extend returns w followed by more. A window the arena made last is
// extended in the room after it (nobody holds a slice that reaches past
// it); any other is copied. When that window is out of room, the copy
// has twice the room it had (up to half the window): a history that
// visits leave as it is (a policy that does not engage, a conversation
// going on from run to run) is then copied a few times as it grows, not
// once a call or a run, and the windows of its calls share the copies;
// a window that the next visit replaces wastes little.
func (a *arena) extend(w, more []*model.Message) []*model.Message {
	n := len(w) + len(more)
	if len(more) == 0 {
		return w
	}
	spare := len(more)
	if r := &a.room; len(w) > 0 && r.used == len(w) && &r.buf[0] == &w[0] {
		if n <= len(r.buf) {
			r.used = n
			return append(r.buf[:len(w)], more...)[:n:n]
		}
		spare = max(spare, min(2*r.spare, n/2))
	}
	out := a.window(n, spare)
	copy(out, w)
	copy(out[len(w):], more)
	return out
}

// extendOne is extend by the one message m.
func (a *arena) extendOne(w []*model.Message, m *model.Message) []*model.Message {
	return a.extend(w, []*model.Message{m})
}

// observations returns o where it outlives the visit: the last one
// returned when equal to it (records are never written once filed).
func (a *arena) observations(o model.Observations) *model.Observations {
	if l := a.lastObs; l != nil && l.Yielded == o.Yielded && l.Limit == o.Limit && l.StandDown == o.StandDown && slices.Equal(l.Pinned, o.Pinned) {
		return l
	}
	a.lastObs = &a.obs.take(1)[0]
	*a.lastObs = o
	return a.lastObs
}
