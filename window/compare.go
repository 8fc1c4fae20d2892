package window

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// compareRecorded checks a replayed window against what the library
// recorded for the call: message by message when the full window was
// recorded, else by the context.injected content hashes.
func compareRecorded(w []*model.Message, c *model.Call) string {
	switch {
	case c.Recorded != nil:
		if sameWindow(w, c.Recorded) {
			return Match
		}
		return Differs
	case c.RecordedHashes != nil:
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
	return Unknown
}

// SameMessage compares two messages as the wire sees them: role, content,
// tool call id and name, and the tool calls.
func SameMessage(a, b *model.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID ||
		a.ToolName != b.ToolName || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i, c := range a.ToolCalls {
		d := b.ToolCalls[i]
		if c.ID != d.ID || c.Name != d.Name || !bytes.Equal(c.Args, d.Args) {
			return false
		}
	}
	return true
}

func sameWindow(a, b []*model.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !SameMessage(a[i], b[i]) {
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
