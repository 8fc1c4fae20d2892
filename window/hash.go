package window

import (
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// FNV-1a, 32 bits.
const (
	fnvOffset uint32 = 2166136261
	fnvPrime  uint32 = 16777619
)

// ContentHash is the library's context.injected contentHash: 32-bit
// FNV-1a over the UTF-16 code units of "role:index:content".
func ContentHash(role string, index int, content string) uint32 {
	return foldText(hashPrefix(role, index), content)
}

// hashPrefix is the hash of "role:index:", where a message's contentHash
// starts.
func hashPrefix(role string, index int) uint32 {
	h := foldText(fnvOffset, role)
	h = (h ^ ':') * fnvPrime
	var num [20]byte
	for _, c := range strconv.AppendInt(num[:0], int64(index), 10) {
		h = (h ^ uint32(c)) * fnvPrime
	}
	return (h ^ ':') * fnvPrime
}

// foldText folds s into h as UTF-16 code units, a lone surrogate as its
// own unit (model.DecodeRune). It is a plain loop on
// purpose: with the hash captured by a closure it stays in memory and the
// loop runs at a third of the speed.
func foldText(h uint32, s string) uint32 {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			h = (h ^ uint32(c)) * fnvPrime
			i++
			continue
		}
		r, size := model.DecodeRune(s[i:])
		h = foldRune(h, r)
		i += size
	}
	return h
}

// foldRune folds one character: two code units above the BMP.
func foldRune(h uint32, r rune) uint32 {
	if r >= 0x10000 {
		r -= 0x10000
		h = (h ^ uint32(0xD800+(r>>10))) * fnvPrime
		return (h ^ uint32(0xDC00+(r&0x3FF))) * fnvPrime
	}
	return (h ^ uint32(r)) * fnvPrime
}
