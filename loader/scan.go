package loader

import (
	"bytes"
	le "encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/afinspect/inspect/internal/jsonlex"
)

// scanner walks one JSON value held whole in memory (one line of the log,
// or one event of an envelope), checking every byte as it goes: the fast
// path validates what it skips as strictly as encoding/json would, so a
// corrupt line is noticed even where nothing is decoded.
//
// A method that returns false has met something the fast path does not
// read: bad JSON, bad UTF-8, or a shape it leaves to the reference
// decoder (an escaped key, a duplicate field, a value of another type).
// The caller then decodes the whole line the reference way, which also
// words the problem exactly.
type scanner struct {
	b     []byte
	i     int
	depth int
	esc   bool         // the last string skipString consumed held an escape
	seen  *seenStrings // long strings already checked (see skipSeen); nil: none
	keys  *keyMemo     // the keys objects of each shape had (see keyMemo); nil: none
	last  seenText     // the last string skipSeen read
	// nl: b runs on past the line, which ends at its first newline (a
	// block's lines read in place, fastDecoder.lineIn); a newline is then
	// no white space but the end. Every other byte the scanner consumes
	// is one no line holds: a string's control byte fails it, and a
	// memory's bytes were checked inside a line.
	nl bool
}

// maxDepth bounds nesting in skipped values; deeper input goes to the
// reference decoder, which has its own limit.
const maxDepth = 256

// Byte classes inside a JSON string.
const (
	plain   = iota
	quote   // the closing '"'
	escape  // '\\'
	control // below 0x20: invalid
	high    // first byte of a non-ASCII sequence
)

var strClass = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = control
	}
	t['"'] = quote
	t['\\'] = escape
	for c := 0x80; c < 0x100; c++ {
		t[c] = high
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialMask has the top bit set of each of the 8 bytes of x that is not
// plain in a string, and perhaps of bytes above such a byte (a borrow),
// never below the lowest.
func specialMask(x uint64) uint64 {
	q := x ^ (ones * '"')
	e := x ^ (ones * '\\')
	return ((q-ones)&^q | (e-ones)&^e | (x-ones*0x20)&^x | x) & highs
}

// ws skips white space. The library writes compact JSON: the next byte
// is most often no space at all, which is looked at before the loop.
func (s *scanner) ws() {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return
	}
	if s.nl {
		s.i = spaceInLine(s.b, s.i)
		return
	}
	s.i = jsonlex.Space(s.b, s.i)
}

// spaceInLine is jsonlex.Space but for a newline, which it stops at.
func spaceInLine(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// peek returns the next byte after white space, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// eat consumes c after white space.
func (s *scanner) eat(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// more steps through the members of an object or array whose opening
// byte is consumed: true when a member follows (its comma consumed), false
// at the closing byte (consumed) or on bad input (s.i set past the end).
func (s *scanner) more(closing byte, first *bool) bool {
	c := s.peek()
	if *first {
		*first = false
		if c == closing {
			s.i++
			return false
		}
		return true
	}
	switch c {
	case ',':
		s.i++
		return true
	case closing:
		s.i++
		return false
	}
	s.i = len(s.b) + 1 // mark as broken: end() and ok() fail
	return false
}

// broken reports whether more() met bad input.
func (s *scanner) broken() bool { return s.i > len(s.b) }

// end reports whether only white space is left.
func (s *scanner) end() bool {
	if s.broken() {
		return false
	}
	s.ws()
	return s.i == len(s.b) || s.nl && s.b[s.i] == '\n'
}

// str consumes a string and returns what is between its quotes, and
// whether it holds an escape.
func (s *scanner) str() (raw []byte, escaped, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	start := s.i + 1
	if !s.skipString() {
		return nil, false, false
	}
	return s.b[start : s.i-1], s.esc, true
}

// key consumes an object key and its colon. A key with an escape or a
// non-ASCII byte is left to the reference decoder (encoding/json matches
// keys case-insensitively, also under Unicode folding).
func (s *scanner) key() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	b, start := s.b, s.i+1
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			if !s.eat(':') {
				return nil, false
			}
			return b[start:i], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// skipString consumes a string starting at s.i (its opening quote),
// checking escapes, control bytes and UTF-8. Invalid UTF-8 fails: such a
// line is reported, so the reference decoder takes it. s.esc says
// whether the string held an escape.
func (s *scanner) skipString() bool {
	b, i := s.b, s.i+1
	s.esc = false
	for {
		// most strings are short (a role, a slot, an id): the first word
		// that holds a byte that is not plain says where that byte is
		// (specialMask's lowest bit is always a true one), without a
		// loop over its bytes
		if i+8 <= len(b) {
			if m := specialMask(le.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
			} else {
				i += 8
				for i+16 <= len(b) && specialMask(le.LittleEndian.Uint64(b[i:]))|specialMask(le.LittleEndian.Uint64(b[i+8:])) == 0 {
					i += 16
				}
				for i+8 <= len(b) {
					if m := specialMask(le.LittleEndian.Uint64(b[i:])); m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						break
					}
					i += 8
				}
			}
		}
		for i < len(b) && strClass[b[i]] == plain {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch strClass[b[i]] {
		case quote:
			s.i = i + 1
			return true
		case escape:
			n := escapeLen(b[i:])
			if n == 0 {
				return false
			}
			i += n
			s.esc = true
		case control:
			return false
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		}
	}
}

// escapeLen is the length of the escape sequence b starts with, 0 if it
// is not one JSON allows.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) >= 6 && hex4(b[2:6]) >= 0 {
			return 6
		}
	}
	return 0
}

// hex4 decodes four hex digits, -1 if they are not.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		d := hexDigit(c)
		if d < 0 {
			return -1
		}
		r = r*16 + d
	}
	return r
}

func hexDigit(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// skip consumes any value.
func (s *scanner) skip() bool {
	switch c := s.peek(); {
	case c == '"':
		return s.skipString()
	case c == '{', c == '[':
		return s.skipNested(c)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		_, ok := s.number()
		return ok
	}
	return false
}

func (s *scanner) skipNested(open byte) bool {
	if s.depth++; s.depth > maxDepth {
		return false
	}
	s.i++
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	first := true
	for s.more(closing, &first) {
		if open == '{' {
			if s.peek() != '"' || !s.skipString() || !s.eat(':') {
				return false
			}
		}
		if !s.skip() {
			return false
		}
	}
	s.depth--
	return !s.broken()
}

func (s *scanner) lit(word string) bool {
	if s.i+len(word) > len(s.b) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// null consumes a null if one is next.
func (s *scanner) null() bool {
	return s.peek() == 'n' && s.lit("null")
}

// number consumes a JSON number and returns its text.
func (s *scanner) number() ([]byte, bool) {
	s.ws()
	if b, i := s.b, s.i; i < len(b) && '1' <= b[i] && b[i] <= '9' {
		// the usual number, a count or a time: digits with no fraction
		// or exponent after them, read here without a call
		j := i + 1
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == len(b) || b[j] != '.' && b[j] != 'e' && b[j] != 'E' {
			s.i = j
			return b[i:j], true
		}
	}
	i, ok := jsonlex.Number(s.b, s.i)
	if !ok {
		return nil, false
	}
	num := s.b[s.i:i]
	s.i = i
	return num, true
}

// integer consumes a number that encoding/json would put in an int: no
// fraction, no exponent, in range.
func (s *scanner) integer() (int, bool) {
	num, ok := s.number()
	if !ok {
		return 0, false
	}
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	if len(num) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range num {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// boolean consumes true or false.
func (s *scanner) boolean() (bool, bool) {
	switch s.peek() {
	case 't':
		return true, s.lit("true")
	case 'f':
		return false, s.lit("false")
	}
	return false, false
}

// foldsTo reports whether key is one of names under encoding/json's
// case-insensitive matching without being it exactly: such a key would
// set the field, so the line goes to the reference decoder.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if len(key) == len(n) && string(key) != n && bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}
