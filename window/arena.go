package window

import "github.com/afinspect/inspect/model"

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
			s.next = 64
		}
		if n > s.next/4 {
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
	refusals slab[model.Refusal]
	pins     slab[model.Pin]
	names    slab[string]
	records  slab[model.Record]
	obs      slab[model.Observations]
	notices  slab[model.Message]
	// scratch memory of one visit, reused by the next
	scratch     []model.Turn
	scratchPins []model.Pin
	scratchRefs []model.Refusal
}

// scratchTurns returns n turns of memory reused by every visit.
func (a *arena) scratchTurns(n int) []model.Turn {
	if cap(a.scratch) < n {
		a.scratch = make([]model.Turn, n, n*2)
	}
	return a.scratch[:n]
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
