package window

import (
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// compareRecorded checks a replayed window against what the library
// recorded for the call: its messages' content hashes, by position.
func compareRecorded(w []*model.Message, c *model.Call) string {
	if c.RecordedHashes == nil {
		return Unknown
	}
	if len(w) != len(c.RecordedHashes) {
		return Differs
	}
	for i, m := range w {
		if ContentHash(m.Role, i, m.Content) != c.RecordedHashes[i] {
			return Differs
		}
	}
	return Match
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
