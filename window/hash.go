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

// foldChar folds the first character of a non-empty s and returns the
// rest.
func foldChar(h uint32, s string) (uint32, string) {
	if c := s[0]; c < utf8.RuneSelf {
		return (h ^ uint32(c)) * fnvPrime, s[1:]
	}
	r, size := model.DecodeRune(s)
	return foldRune(h, r), s[size:]
}

// lane is one message being hashed: what is left of its content, the
// hash so far, and its place in the window (-1: the lane is free).
type lane struct {
	rest string
	h    uint32
	at   int
}

// foldPair hashes two lanes side by side until one runs out. FNV-1a is a
// chain of multiplications, each waiting for the one before; two
// independent chains keep the multiplier busy, at twice the speed.
func foldPair(a, b *lane) {
	s, t, ha, hb := a.rest, b.rest, a.h, b.h
	for len(s) > 0 && len(t) > 0 {
		x := s[:min(len(s), len(t))]
		y := t[:len(x)]
		i := 0
		for ; i < len(x); i++ {
			ca, cb := x[i], y[i]
			if ca|cb >= utf8.RuneSelf {
				break
			}
			ha = (ha ^ uint32(ca)) * fnvPrime
			hb = (hb ^ uint32(cb)) * fnvPrime
		}
		s, t = s[i:], t[i:]
		if i < len(x) { // a character that is not ASCII in one of them
			ha, s = foldChar(ha, s)
			hb, t = foldChar(hb, t)
		}
	}
	a.rest, b.rest, a.h, b.h = s, t, ha, hb
}

// hashesMatch reports whether w's messages have the content hashes want,
// by position. It hashes two messages at a time and stops at the first
// one that differs.
func hashesMatch(w []*model.Message, want []uint32) bool {
	if len(w) != len(want) {
		return false
	}
	lanes := [2]lane{{at: -1}, {at: -1}}
	next := 0
	for {
		for i := range lanes {
			l := &lanes[i]
			if l.at >= 0 && l.rest == "" {
				if l.h != want[l.at] {
					return false
				}
				l.at = -1
			}
			if l.at < 0 && next < len(w) {
				m := w[next]
				*l = lane{rest: m.Content, h: hashPrefix(m.Role, next), at: next}
				next++
			}
		}
		a, b := &lanes[0], &lanes[1]
		switch {
		case a.at >= 0 && b.at >= 0:
			foldPair(a, b)
		case a.at >= 0:
			a.h, a.rest = foldText(a.h, a.rest), ""
		case b.at >= 0:
			b.h, b.rest = foldText(b.h, b.rest), ""
		default:
			return true
		}
	}
}
