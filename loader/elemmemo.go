package loader

import "hash/maphash"

// Each call's history repeats the window the call before sent: most of
// an iteration_end's elements are, byte for byte, elements of the last
// one. A decoder remembers the elements it checked, by the hash of their
// first bytes (as skipSeen finds strings): an element whose bytes equal
// a remembered one is that element, already checked and keyed, found
// with a hash and one compare instead of a read of its members. A JSON
// value ends where its own bytes say, whatever follows them, so equal
// bytes end at the same place.

const (
	elemHead  = 128     // the bytes an element is looked up by (fewer at a history's end)
	elemBytes = 4 << 20 // element text held before the memory starts over
)

// elemMemo is one decoder's memory of checked history elements.
type elemMemo struct {
	byHead map[uint64]elemSeen // the latest element so starting
	bytes  int
}

// elemSeen is a checked element's JSON, in three parts: before its
// content's text, the text, after it (a text the decoder holds as a Go
// string is that string, not a copy: most of an element is its text),
// and its key (offsets into the JSON).
type elemSeen struct {
	head, text, tail string
	ref              elemRef
}

func (e *elemSeen) size() int { return len(e.head) + len(e.text) + len(e.tail) }

func elemHeadOf(b []byte, start int) []byte {
	return b[start:min(len(b), start+elemHead)]
}

// find is the key and length of the element at b[start:] when it is one
// remembered.
func (m *elemMemo) find(b []byte, start int) (elemRef, int, bool) {
	if m.byHead == nil {
		return elemRef{}, 0, false
	}
	e, ok := m.byHead[maphash.Bytes(textSeed, elemHeadOf(b, start))]
	if !ok || start+e.size() > len(b) {
		return elemRef{}, 0, false
	}
	i := start
	for _, part := range [...]string{e.head, e.text, e.tail} {
		if string(b[i:i+len(part)]) != part {
			return elemRef{}, 0, false
		}
		i += len(part)
	}
	return e.ref, i - start, true
}

// file remembers b[start:end], an element element checked and refOf
// keyed as r.
func (m *elemMemo) file(b []byte, start int, r elemRef, end int) {
	span := b[start:end]
	if len(span) > elemBytes/4 { // its size: head, text and tail are its bytes
		// An element over a quarter of the memory (a tool result of
		// many MB) would empty it at every filing, and be filed again at its
		// next history, each time held once more (its head a copy, or
		// the decoder's string kept past its event): peak RSS of a
		// report on a 20 MB result nearly doubled. It is read as
		// before; its length makes the read, not the memory, the cost.
		return
	}
	e := elemSeen{ref: r}
	if t := r.seen.text; t != "" && int(r.end-r.off) == len(t)+2 {
		e.head, e.text, e.tail = string(span[:r.off+1]), t, string(span[r.end-1:])
	} else {
		e.head = string(span)
	}
	if m.byHead == nil {
		m.byHead = map[uint64]elemSeen{}
	}
	if m.bytes+e.size() > elemBytes {
		clear(m.byHead)
		m.bytes = 0
	}
	m.byHead[maphash.Bytes(textSeed, elemHeadOf(b, start))] = e
	m.bytes += e.size()
}
