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
