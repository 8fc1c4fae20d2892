package window

import (
	"sync"
	"time"
)

// ForgetLog drops what a replay built after it (the turn log, its places,
// the ledger index, the lines), so a benchmark can build them again.
func ForgetLog(r *Replay) {
	r.logOnce, r.indexOnce = sync.Once{}, sync.Once{}
	r.log, r.places, r.index, r.lines, r.views = nil, turnPlaces{}, nil, nil, nil
}

// SortCalls is sortCalls, for the benchmarks.
func SortCalls(calls []CallReplay) { sortCalls(calls) }

// SplitHalves sets the hook told how long each half of a split took (nil:
// none).
func SplitHalves(f func(first, second time.Duration)) { splitHalves = f }
