package loader

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// FNV-1a, 32 bits: the library's contentHash.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// unquote decodes the inside of a JSON string (between its quotes) the
// way encoding/json does: escapes resolved, a lone surrogate escape and
// each byte of bad UTF-8 become U+FFFD. It never fails: a stray byte it
// cannot read as an escape is kept as it is.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw)+utf8.UTFMax)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			r, n := unescape(raw[i:])
			if n == 0 {
				out = append(out, c)
				i++
				continue
			}
			out = utf8.AppendRune(out, r)
			i += n
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out)
}

// unescape decodes the escape b starts with: the rune and how many bytes
// it took (0 if b does not start with a valid escape). A \u surrogate
// pair is one rune; a surrogate without its pair is U+FFFD.
func unescape(b []byte) (rune, int) {
	if escapeLen(b) == 0 {
		return 0, 0
	}
	switch b[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
	default:
		return rune(b[1]), 2
	}
	r := hex4(b[2:6])
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if r2 := hex4(b[8:12]); r2 >= 0 {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
	}
	return utf8.RuneError, 6
}

// hashRune folds one character into an FNV-1a hash as UTF-16 code units.
func hashRune(h uint32, r rune) uint32 {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		h = (h ^ uint32(r1)) * fnvPrime
		return (h ^ uint32(r2)) * fnvPrime
	}
	return (h ^ uint32(r)) * fnvPrime
}

// hashText folds decoded text into an FNV-1a hash as UTF-16 code units;
// a byte of bad UTF-8 counts as U+FFFD, as in a decoded JSON string.
func hashText[T string | []byte](h uint32, s T) uint32 {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h = (h ^ uint32(c)) * fnvPrime
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		h = hashRune(h, r)
		i += size
	}
	return h
}

// hashPrefix is the hash of "role:index:", where a window message's
// contentHash starts.
func hashPrefix(role []byte, index int) uint32 {
	var num [20]byte
	h := hashText(fnvOffset, role)
	h = (h ^ ':') * fnvPrime
	for _, c := range strconv.AppendInt(num[:0], int64(index), 10) {
		h = (h ^ uint32(c)) * fnvPrime
	}
	return (h ^ ':') * fnvPrime
}

// contentHash is the library's contentHash of a decoded message.
func contentHash(role string, index int, content string) uint32 {
	return hashText(hashPrefix([]byte(role), index), content)
}

// hashString consumes a JSON string (s.i at its opening quote) and folds
// its decoded text into h without building it. Bad UTF-8 fails, as in
// skipString.
func (s *scanner) hashString(h uint32) (uint32, bool) {
	b, i := s.b, s.i+1
	for i < len(b) {
		c := b[i]
		switch strClass[c] {
		case plain:
			h = (h ^ uint32(c)) * fnvPrime
			i++
		case quote:
			s.i = i + 1
			return h, true
		case escape:
			r, n := unescape(b[i:])
			if n == 0 {
				return h, false
			}
			h = hashRune(h, r)
			i += n
		case control:
			return h, false
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return h, false
			}
			h = hashRune(h, r)
			i += size
		}
	}
	return h, false
}
