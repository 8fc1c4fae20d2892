package window

import (
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// compareRecorded checks a replayed window against what the library
// recorded for the call, message by message, by role and content (§10.6).
func compareRecorded(w []*model.Message, c *model.Call) string {
	if c.Recorded == nil {
		return Unknown
	}
	if !sameWindow(w, c.Recorded) {
		return Differs
	}
	return Match
}

// sameWindow compares two windows by role and content.
func sameWindow(a, b []*model.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !model.SameText(a[i], b[i]) {
			return false
		}
	}
	return true
}

// ContentHash is the library's context.injected contentHash: 32-bit
// FNV-1a over the UTF-16 code units of "role:index:content".
func ContentHash(role string, index int, content string) uint32 {
	h := uint32(2166136261)
	add := func(s string) {
		for i := 0; i < len(s); {
			c := s[i]
			if c < utf8.RuneSelf {
				h = (h ^ uint32(c)) * 16777619
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if r >= 0x10000 {
				r -= 0x10000
				h = (h ^ uint32(0xD800+(r>>10))) * 16777619
				h = (h ^ uint32(0xDC00+(r&0x3FF))) * 16777619
				continue
			}
			h = (h ^ uint32(r)) * 16777619
		}
	}
	add(role)
	add(":")
	add(strconv.Itoa(index))
	add(":")
	add(content)
	return h
}
