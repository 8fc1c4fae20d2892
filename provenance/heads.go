package provenance

// chainHeads maps a deletion's hash to the last entry of its chain (+1),
// open addressing in one flat slice: a lookup or a push is one probe
// sequence, mostly one cache line (a slot's key and head side by side),
// and nothing in it is a pointer the collector walks. A slot keeps 32
// bits of the hash, and its place is chosen by the same bits (so the
// table can grow without the rest): two hashes that agree on them share
// a chain, which only adds forms to measure.
type chainHeads struct {
	slots []headSlot
	n     int
}

type headSlot struct {
	key  uint32 // 0: empty
	head int32
}

// keyOf is the 32 bits of h a slot keeps (never 0).
func keyOf(h uint64) uint32 { return max(uint32(h>>32), 1) }

// at is the slot of key k, or the empty one it would take.
func (t *chainHeads) at(k uint32) int {
	mask := len(t.slots) - 1
	for i := int(k) & mask; ; i = (i + 1) & mask {
		if s := t.slots[i].key; s == k || s == 0 {
			return i
		}
	}
}

// get is the head for h; 0 when there is none.
func (t *chainHeads) get(h uint64) int32 {
	if t.n == 0 {
		return 0
	}
	return t.slots[t.at(keyOf(h))].head
}

// push makes v the head for h and returns the head it replaces (0: none).
func (t *chainHeads) push(h uint64, v int32) int32 {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	k := keyOf(h)
	s := &t.slots[t.at(k)]
	was := s.head
	if s.key == 0 {
		s.key = k
		t.n++
	}
	s.head = v
	return was
}

func (t *chainHeads) grow() {
	old := t.slots
	t.slots = make([]headSlot, max(1024, 2*len(old)))
	for _, s := range old {
		if s.key != 0 {
			t.slots[t.at(s.key)] = s
		}
	}
}
