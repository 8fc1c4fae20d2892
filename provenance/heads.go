package provenance

// chainHeads maps a deletion's hash to the last entry of its chain (+1),
// open addressing in two flat slices: a lookup or a push is one probe
// sequence, and nothing in it is a pointer the collector walks. The
// zero hash is taken as 1: two strings that share a slot only add forms
// to measure.
type chainHeads struct {
	keys []uint64 // 0: an empty slot
	vals []int32
	n    int
}

// at is h's slot, or the empty one it would take.
func (t *chainHeads) at(h uint64) int {
	mask := len(t.keys) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if k := t.keys[i]; k == h || k == 0 {
			return i
		}
	}
}

func fixHash(h uint64) uint64 { return max(h, 1) }

// get is the head for h; 0 when there is none.
func (t *chainHeads) get(h uint64) int32 {
	if t.n == 0 {
		return 0
	}
	return t.vals[t.at(fixHash(h))]
}

// push makes v the head for h and returns the head it replaces (0: none).
func (t *chainHeads) push(h uint64, v int32) int32 {
	if 4*(t.n+1) > 3*len(t.keys) {
		t.grow()
	}
	h = fixHash(h)
	i := t.at(h)
	was := t.vals[i]
	if t.keys[i] == 0 {
		t.keys[i] = h
		t.n++
	}
	t.vals[i] = v
	return was
}

func (t *chainHeads) grow() {
	keys, vals := t.keys, t.vals
	size := max(1024, 2*len(keys))
	t.keys, t.vals = make([]uint64, size), make([]int32, size)
	for j, k := range keys {
		if k != 0 {
			i := t.at(k)
			t.keys[i], t.vals[i] = k, vals[j]
		}
	}
}
