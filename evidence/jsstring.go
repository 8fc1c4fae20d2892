package evidence

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// jsSpace reports whether r is removed by JavaScript's String.prototype.trim:
// WhiteSpace and LineTerminator (tab, LF, VT, FF, CR, space, U+00A0, U+1680,
// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF). Not U+0085,
// not U+001C–U+001F, which Go's unicode.IsSpace would treat differently.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// jsTrim is JavaScript's String.prototype.trim.
func jsTrim(s string) string {
	// the common case: nothing to trim at either end, ASCII letters
	if s == "" || s[0] > ' ' && s[0] < utf8.RuneSelf && s[len(s)-1] > ' ' && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	return strings.TrimFunc(s, jsSpace)
}

// jsLower is JavaScript's String.prototype.toLowerCase: the full Unicode
// mapping, which differs from Go's per-rune simple mapping in U+0130
// (→ "i" + U+0307) and in the final-sigma rule (Σ at the end of a word →
// ς). ASCII text, the common case, is lowered without allocating twice.
func jsLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	skip := 0
	for i, r := range s {
		switch {
		case skip > 0:
			skip--
		case r == utf8.RuneError && model.IsSurrogate(surrogateAt(s, i)):
			// a lone surrogate has no case: kept as it is
			b.WriteString(s[i : i+3])
			skip = 2
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3A3:
			if finalSigma(s, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		case r == utf8.RuneError:
			// keep invalid bytes as the replacement character a JS
			// string decoded from them would hold
			b.WriteRune(r)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// surrogateAt is the lone surrogate at s[i:], or 0.
func surrogateAt(s string, i int) rune {
	if r, _ := model.DecodeRune(s[i:]); model.IsSurrogate(r) {
		return r
	}
	return 0
}

// finalSigma is Unicode's Final_Sigma condition for the Σ at byte i: a
// cased letter before it and none after it, skipping case-ignorable
// characters on both sides.
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + len("Σ"); j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x2019:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// utf16Clip clips v to n UTF-16 units the way the library's event does: a
// longer value becomes its first n-1 units and "…". A surrogate pair cut in
// half loses its first half too. A lone surrogate (model.DecodeRune) is
// one unit.
func utf16Clip(v string, n int) string {
	units := 0
	for i := 0; i < len(v); {
		r, size := model.DecodeRune(v[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n-1 {
			if model.Len(v[i:])+units <= n {
				return v
			}
			return v[:i] + "…"
		}
		units += w
		i += size
	}
	return v
}
