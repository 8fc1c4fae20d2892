// Package toolbytes says where a tool's own words end in a tool result.
//
// The library may append a note of its own after a tool's text (what value
// it filled in for a call, say) and stamps the message with toolChars: the
// length of the tool's text in UTF-16 units. Evidence is only ever the
// tool's bytes; the note is the library speaking. This package is the one
// place that boundary is computed. It imports nothing of this project.
package toolbytes

import (
	"math"
	"unicode/utf8"
)

// Split cuts content into the tool's own text and the library's note.
// toolChars applies only when it is a whole number in 0…len(content)
// (UTF-16 units); otherwise, or when it is nil, the whole content is the
// tool's and the note is empty.
func Split(content string, toolChars *float64) (own, note string) {
	cut, ok := Cut(content, toolChars)
	if !ok {
		return content, ""
	}
	return content[:cut], content[cut:]
}

// Cut returns the byte offset where the tool's own text ends, and whether
// toolChars applies at all.
func Cut(content string, toolChars *float64) (int, bool) {
	if toolChars == nil {
		return 0, false
	}
	c := *toolChars
	if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 || c != math.Trunc(c) {
		return 0, false
	}
	units := 0
	for i := 0; i < len(content); {
		if float64(units) == c {
			return i, true
		}
		r, size := utf8.DecodeRuneInString(content[i:])
		if r == utf8.RuneError && size == 1 && loneSurrogate(content[i:]) {
			size = 3 // one unit, held as WTF-8
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		if float64(units) > c {
			// the cut splits a surrogate pair: the tool's text ends
			// after the whole character
			return i + size, true
		}
		i += size
	}
	if float64(units) == c {
		return len(content), true
	}
	return 0, false // past the end: not applied
}

// loneSurrogate reports whether s starts with a lone UTF-16 surrogate held
// as its WTF-8 bytes (ED A0–BF 80–BF), as the loader keeps "\ud83d": one
// UTF-16 unit.
func loneSurrogate(s string) bool {
	return len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2]&0xC0 == 0x80
}
