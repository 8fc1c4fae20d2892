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
	turns    slab[model.Turn]
	fates    slab[TurnFate]
	refusals slab[model.Refusal]
	pins     slab[model.Pin]
	names    slab[string]
	records  slab[model.Record]
	obs      slab[model.Observations]
	notices  slab[model.Message]
}
