package loader

import le "encoding/binary"

// The library writes every event of a kind with the same keys in the
// same order, compact: line after line, the n-th key of a meta, a
// payload or a history message is the one it was on the line before. A
// decoder remembers, for each shape of object and each member's place,
// the last two keys it read there, quotes and colon included; a key
// byte-equal to one of them is that key, already checked (no escape, no
// control or non-ASCII byte, no near-miss of a field's name) and already
// looked up among the fields, and is consumed with one compare.

// shape is a kind of object the fast decoder reads with members.
type shape uint8

const (
	shapeEvent shape = iota // an event: its type, payload and meta
	shapeMeta
	shapeUsage
	shapeElem
	shapeToolCall
	shapePayload // + the event's kind: a payload of that kind
	shapes       = shapePayload + shape(len(payloadFields))
)

const (
	memoPlaces = 12 // members remembered per object; later ones are read as they come
	memoKeyLen = 30 // the longest key remembered, quotes and colon included
)

// keyMemo is one decoder's memory of keys; it holds no pointer and
// never allocates.
type keyMemo [shapes][memoPlaces][2]memoKey

// memoKey is a key as the line spelled it, from its opening quote to its
// colon, and its field number (-1: a key that is skipped).
type memoKey struct {
	n     uint8
	field int8
	b     [memoKeyLen]byte
	// a key of at most 16 bytes is also its two words, past its end
	// masked off, compared without a call
	w, mask [2]uint64
}

// known consumes the key at s.i when it is one that members of shape sh
// had at place pos, and returns its field number.
func (m *keyMemo) known(s *scanner, sh shape, pos int) (int, bool) {
	if m == nil || pos >= memoPlaces || int(sh) >= len(m) {
		return 0, false
	}
	b := s.b[s.i:]
	ways := &m[sh][pos]
	var x0, x1 uint64
	words := len(b) >= 16
	if words {
		x0, x1 = le.LittleEndian.Uint64(b), le.LittleEndian.Uint64(b[8:])
	}
	for w := range ways {
		k := &ways[w]
		n := int(k.n)
		var same bool
		if words && n <= 16 {
			same = n > 0 && x0&k.mask[0] == k.w[0] && x1&k.mask[1] == k.w[1]
		} else {
			same = n > 0 && n <= len(b) && string(b[:n]) == string(k.b[:n])
		}
		if same {
			s.i += n
			field := int(k.field)
			if w == 1 { // the latest first: a place whose key alternates finds it at once
				ways[0], ways[1] = ways[1], ways[0]
			}
			return field, true
		}
	}
	return 0, false
}

// learn remembers tok, a key members read at place pos of shape sh,
// written compact (its quotes and colon, no space), and its field number.
func (m *keyMemo) learn(tok []byte, sh shape, pos, field int) {
	if m == nil || pos >= memoPlaces || int(sh) >= len(m) || len(tok) > memoKeyLen {
		return
	}
	ways := &m[sh][pos]
	ways[1] = ways[0]
	k := memoKey{n: uint8(len(tok)), field: int8(field)}
	copy(k.b[:], tok)
	if len(tok) <= 16 {
		for j := range len(tok) {
			k.mask[j/8] |= 0xff << (8 * (j % 8))
		}
		k.w[0] = le.LittleEndian.Uint64(k.b[:8]) & k.mask[0]
		k.w[1] = le.LittleEndian.Uint64(k.b[8:16]) & k.mask[1]
	}
	ways[0] = k
}
