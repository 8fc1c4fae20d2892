package evidence

import (
	"strings"
)

// Normalize is §1's normalize: lower-case and trim with JavaScript
// semantics, strip leading and trailing punctuation, drop the thousands
// separators of a grouped number, and print a number of at most 15 digits
// as JavaScript's String(Number(v)). "" means the value is dropped.
func Normalize(raw string) string {
	s := jsTrim(jsLower(raw))
	i, j := 0, len(s)
	for i < j && leadingPunct(s[i]) {
		i++
	}
	for j > i && trailingPunct(s[j-1]) {
		j--
	}
	s = s[i:j]
	if s == "" {
		return ""
	}
	if isGrouped(s) {
		s = strings.ReplaceAll(s, ",", "")
	}
	if isPlainNumber(s) && digitCount(s) <= 15 {
		if out, ok := jsNumberString(s); ok {
			return out
		}
	}
	return s
}

// LookupForms are the spellings a normalized value is looked up (and
// indexed) under: a value starting with 0x and longer than that also
// without its 0x.
func LookupForms(v string) []string {
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' {
		return []string{v, v[2:]}
	}
	return []string{v}
}

// eachToken calls fn with each token of text in order until fn returns
// false (limitedTokens gives the first TokenLimit).
func eachToken(text string, fn func(string) bool) {
	eachPiece(text, func(piece string) bool {
		if v := Normalize(piece); v != "" {
			return fn(v)
		}
		return true
	})
}

// eachPiece calls fn with each piece of text, not yet normalized, in
// order until fn returns false: the runs of token characters, cut at the
// commas that are not between two digits.
func eachPiece(text string, fn func(string) bool) {
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && tokenByte(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !splitCommas(text[start:i], fn) {
				return
			}
			start = -1
		}
	}
}

// tokenByte: the characters a token is made of. Every byte of a multi-byte
// UTF-8 character is ≥ 0x80 and so a separator, as the character is.
func tokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case ':', '_', '-', '/', '.', ',', '%', '+', '@', '#', '$':
		return true
	}
	return false
}

// splitCommas cuts piece at every comma that is not between two digits.
func splitCommas(piece string, emit func(string) bool) bool {
	from := 0
	for i := 0; i < len(piece); i++ {
		if piece[i] != ',' {
			continue
		}
		if i > 0 && i+1 < len(piece) && isDigit(piece[i-1]) && isDigit(piece[i+1]) {
			continue
		}
		if !emit(piece[from:i]) {
			return false
		}
		from = i + 1
	}
	return emit(piece[from:])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// leadingPunct: $ # @ + ' " ` ( [ { <, stripped from the front (§1 step 2).
func leadingPunct(c byte) bool {
	switch c {
	case '$', '#', '@', '+', '\'', '"', '`', '(', '[', '{', '<':
		return true
	}
	return false
}

// trailingPunct: . , ; : ! ? % ' " ` ) ] } >, stripped from the end.
func trailingPunct(c byte) bool {
	switch c {
	case '.', ',', ';', ':', '!', '?', '%', '\'', '"', '`', ')', ']', '}', '>':
		return true
	}
	return false
}
