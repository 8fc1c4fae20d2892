package lineage

import "github.com/afinspect/inspect/model"

// ExplainsTwo reports whether pre explains w1 across TWO window visits
// (docs/rules/versions-and-tiers.md §16.3: the predecessor's last window is not in the
// log, so its last call's visit and the follow-up's first both lie
// between them): w1 is pre with at most two contiguous spans removed,
// each replaced by nothing or by one drop notice or compaction frame
// (whose counts are not checked). The score is how many messages of pre
// w1 keeps. Messages compare by role and content.
//
// The kept messages are a common prefix, a common suffix and one run of
// pre between them; the prefix and the suffix are taken longest, and the
// middle run is found by one linear search.
func ExplainsTwo(w1, pre []*model.Message) (int, bool) {
	i, j := commonEnds(w1, pre)
	if i == len(w1) && i == len(pre) {
		return len(w1), true
	}
	mid, gone := w1[i:len(w1)-j], pre[i:len(pre)-j]
	if len(gone) == 0 {
		return 0, false // w1 holds more than pre and nothing left
	}
	best := -1
	for _, lead := range []bool{false, true} {
		for _, trail := range []bool{false, true} {
			if kept, ok := keptBetween(mid, gone, lead, trail); ok && kept > best {
				best = kept
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	return i + j + best, true
}

// keptBetween is how many messages of gone survive as mid, when mid is
// [a notice, if lead] + a run of gone + [a notice, if trail]: what is
// before the run stands for one span and what is after it for another,
// each replaced by its notice or by nothing.
func keptBetween(mid, gone []*model.Message, lead, trail bool) (int, bool) {
	run := mid
	if lead {
		if len(run) == 0 || !isMarker(run[0]) {
			return 0, false
		}
		run = run[1:]
	}
	if trail {
		if len(run) == 0 || !isMarker(run[len(run)-1]) {
			return 0, false
		}
		run = run[:len(run)-1]
	}
	if len(run) == 0 {
		// all of gone left: one span, or two each with its notice
		return 0, !(lead && trail) || len(gone) >= 2
	}
	lo, hi := 0, len(gone)-len(run)
	if lead {
		lo = 1 // a notice stands for a span that is not empty
	}
	if trail {
		hi--
	}
	if lo > hi {
		return 0, false
	}
	return len(run), findRun(gone, run, lo, hi) >= 0
}

// findRun is the first place p in lo..hi where hay[p:p+len(run)] is run
// (role and content), -1 for none: Knuth–Morris–Pratt, linear in both.
func findRun(hay, run []*model.Message, lo, hi int) int {
	fail := make([]int, len(run))
	for q, k := 1, 0; q < len(run); q++ {
		for k > 0 && !model.SameText(run[q], run[k]) {
			k = fail[k-1]
		}
		if model.SameText(run[q], run[k]) {
			k++
		}
		fail[q] = k
	}
	for q, k := lo, 0; q < len(hay); q++ {
		for k > 0 && !model.SameText(hay[q], run[k]) {
			k = fail[k-1]
		}
		if model.SameText(hay[q], run[k]) {
			k++
		}
		if k == len(run) {
			if p := q - len(run) + 1; p <= hi {
				return p
			}
			return -1
		}
	}
	return -1
}

// isMarker: m is a drop notice or a compaction frame, which a visit puts
// in place of the span it removes.
func isMarker(m *model.Message) bool { return m.IsNotice() || m.IsFrame() }
