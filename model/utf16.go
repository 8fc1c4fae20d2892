package model

import (
	"encoding/binary"
	"unicode/utf8"
)

// Len is the length of s as JavaScript's String.length counts it: UTF-16
// code units. "é" is 1, "😀" is 2, a lone surrogate (WTF-8, see DecodeRune)
// is 1. Invalid UTF-8 bytes count one unit each, as a decoder that replaces
// them with U+FFFD would.
func Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		// ASCII eight bytes at a time: one unit a byte
		for i+8 <= len(s) && binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 == 0 {
			i += 8
			n += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := DecodeRune(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}
