package model

import "unicode/utf8"

// A lone UTF-16 surrogate — "\ud83d" in the recording, what JavaScript's
// slice leaves of an emoji it cuts — is one code unit of a JavaScript
// string. A Go string holds it as its WTF-8 bytes: the three-byte form
// UTF-8 would give U+D800–U+DFFF (ED A0–BF 80–BF), which utf8 reports
// as invalid. The loader makes these bytes only from a lone surrogate
// escape (a raw byte that is not UTF-8 is read as U+FFFD, never as
// this), so every reader of content that counts, hashes, cuts or
// prints UTF-16 units reads them with DecodeRune.

// DecodeRune is utf8.DecodeRuneInString that also reads a lone surrogate
// held as WTF-8: its value (U+D800–U+DFFF), 3 bytes. Any other byte that
// is not UTF-8 is utf8.RuneError, 1 byte.
func DecodeRune[T string | []byte](s T) (rune, int) {
	r, size := utf8.DecodeRuneInString(string(s[:min(len(s), utf8.UTFMax)]))
	if r == utf8.RuneError && size == 1 && len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return r, size
}

// IsSurrogate reports whether r is a UTF-16 surrogate, U+D800–U+DFFF.
func IsSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// AppendSurrogate appends the WTF-8 bytes of the surrogate r.
func AppendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xED, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// Marks is a set of the private-use characters U+E000–U+F8FF, for one
// that a text does not hold: encoding/json cannot carry a lone surrogate
// either way, so the loader and the export each write one as such a mark
// and its four hex digits, and put the escape back after.
type Marks [0xF8FF - 0xE000 + 1]bool

// Hold adds r, when it is a private-use character.
func (ms *Marks) Hold(r rune) {
	if r >= 0xE000 && r <= 0xF8FF {
		ms[r-0xE000] = true
	}
}

// HoldText adds every private-use character b holds, in one pass.
func (ms *Marks) HoldText(b []byte) {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		ms.Hold(r)
		i += size
	}
}

// Free is the first character not held, ok false when all are.
func (ms *Marks) Free() (rune, bool) {
	for i, h := range ms {
		if !h {
			return rune(0xE000 + i), true
		}
	}
	return 0, false
}
