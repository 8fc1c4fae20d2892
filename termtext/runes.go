package termtext

import "strings"

const (
	zwj       = 0x200D
	vs15      = 0xFE0E
	vs16      = 0xFE0F
	blackFlag = 0x1F3F4
)

// invisible: characters that draw nothing or reorder what follows, so
// a reader cannot see they are there. Shown as <U+XXXX>.
func invisible(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x061C, r == 0x180E, r == 0xFEFF:
		return true // soft hyphen, Arabic letter mark, Mongolian vowel separator, BOM
	case r >= 0x200B && r <= 0x200F:
		return true // zero-width space, ZWNJ, ZWJ (alone), LRM, RLM
	case r >= 0x2028 && r <= 0x202E:
		return true // line and paragraph separators, bidi embeddings and overrides
	case r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true // word joiner, invisible operators, bidi isolates
	case r >= 0xE0000 && r <= 0xE007F:
		return true // tag characters (outside a subdivision flag)
	case r >= 0xFFF9 && r <= 0xFFFB:
		return true // interlinear annotation controls
	}
	return false
}

// invisibleIn reports whether any rune of s is a C1 control or invisible.
func invisibleIn(s string) bool {
	for _, r := range s {
		if (r >= 0x80 && r <= 0x9f) || invisible(r) {
			return true
		}
	}
	return false
}

// hasJoiner reports whether s holds a part that terminals join
// differently: a variation selector, a skin-tone modifier, a ZWJ.
func hasJoiner(s string) bool {
	for _, r := range s {
		if r == vs15 || r == vs16 || r == zwj || isSkinTone(r) {
			return true
		}
	}
	return false
}

func isSkinTone(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }
func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

func onlyTags(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < 0xE0020 || r > 0xE007F }) < 0
}

// pictographic approximates Extended_Pictographic: the emoji a ZWJ
// joins into one picture.
func pictographic(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF:
		return true
	case r >= 0x2190 && r <= 0x21FF, r >= 0x2300 && r <= 0x23FF,
		r >= 0x2600 && r <= 0x27BF, r >= 0x2B00 && r <= 0x2BFF:
		return true
	case r == 0x00A9, r == 0x00AE, r == 0x203C, r == 0x2049, r == 0x2122,
		r == 0x2139, r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	}
	return false
}
