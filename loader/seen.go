package loader

import (
	"bytes"
	"hash/maphash"
)

// A window is re-sent on every call, so the same long message content
// comes back line after line (in each iteration_end history, and in the
// context.injected events before it). A decoder checks such a string once:
// it remembers the long strings it has checked, and a string byte-equal to
// one of them is as valid, found with a quote search, a hash and a
// compare instead of a byte-by-byte check. Quicker still, a string is
// first looked up by its first seenMin bytes alone: when the string
// filed there is followed here by a quote, one compare proves the two
// the same (the quote ends this string as it ended that one), and neither
// a quote search nor a hash of the whole text is needed.

const (
	seenMin   = 256     // shorter strings are checked at once
	seenBytes = 2 << 20 // text held before the memory starts over
)

// seenStrings is one decoder's memory of checked strings.
type seenStrings struct {
	byHash map[uint64]seenString
	byHead map[uint64]seenString // by the hash of the text's first seenMin bytes: the latest string so starting
	bytes  int
}

// seenString is a checked string's text (inside the quotes), its hash,
// and whether it held an escape.
type seenString struct {
	text string
	hash uint64
	esc  bool
}

// seenText is what skipSeen knew of the last string: its text's hash
// (with textSeed) and, when it held no escape, the checked text itself:
// one Go string that every line repeating it hands to the builder, which
// keeps it as the message's content, so that a later compare of the two
// finds the same memory and stops at once.
type seenText struct {
	hash uint64
	text string // "" when it held an escape
	ok   bool   // skipSeen read it: hash is set
}

// skipSeen is skipString for a value that may have been seen before. A
// string ends at its first quote not preceded by a backslash; when that
// text is one already checked, it is consumed as it was then.
func (s *scanner) skipSeen() bool {
	s.last = seenText{}
	c := s.seen
	if c == nil {
		return s.skipString()
	}
	b, start := s.b, s.i+1
	if c.byHead != nil && len(b)-start > seenMin {
		e, ok := c.byHead[maphash.Bytes(textSeed, b[start:start+seenMin])]
		if end := start + len(e.text); ok && end < len(b) && b[end] == '"' && string(b[start:end]) == e.text {
			s.i, s.esc = end+1, e.esc
			s.last = e.seen()
			return true
		}
	}
	q := bytes.IndexByte(b[start:], '"')
	if q < seenMin || b[start+q-1] == '\\' {
		return s.skipString()
	}
	text := b[start : start+q]
	if c.byHash == nil {
		c.byHash, c.byHead = map[uint64]seenString{}, map[uint64]seenString{}
	}
	h := maphash.Bytes(textSeed, text)
	if e, ok := c.byHash[h]; ok && e.text == string(text) {
		s.i, s.esc = start+q+1, e.esc
		s.last = e.seen()
		c.byHead[maphash.Bytes(textSeed, text[:seenMin])] = e
		return true
	}
	if !s.skipString() {
		return false
	}
	if c.bytes+q > seenBytes {
		clear(c.byHash)
		clear(c.byHead)
		c.bytes = 0
	}
	e := seenString{text: string(text), hash: h, esc: s.esc}
	c.byHash[h] = e
	c.byHead[maphash.Bytes(textSeed, text[:seenMin])] = e
	c.bytes += q
	s.last = e.seen()
	return true
}

func (e seenString) seen() seenText {
	t := seenText{hash: e.hash, ok: true}
	if !e.esc {
		t.text = e.text
	}
	return t
}

// rawString is rawValue for a string value (s is at its quote) that may
// have been seen before.
func rawString(s *scanner) ([]byte, bool) {
	s.ws()
	start := s.i
	ok := s.skipSeen()
	return s.b[start:s.i], ok
}
