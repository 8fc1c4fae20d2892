package model

import "testing"

// Lengths as JavaScript's String.length gives them (checked by hand:
// astral characters are surrogate pairs, everything else one unit).
func TestLen(t *testing.T) {
	for s, want := range map[string]int{
		"":              0,
		"abc":           3,
		"é":             1, // 2 bytes
		"—":             1, // 3 bytes, the notice's dash
		"日本語":           3, // 9 bytes
		"😀":             2, // 4 bytes, one rune
		"a😀b":           4,
		"\xff":          1, // invalid UTF-8: one unit, as U+FFFD
		"👩‍💻":           5, // woman, zero-width joiner, laptop
		"[dropped — …]": 13,
	} {
		if got := Len(s); got != want {
			t.Errorf("Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// A lone surrogate held as WTF-8 is one unit; three bytes that are not
// UTF-8 (and not a surrogate) are three, as U+FFFD each.
func TestLoneSurrogateIsOneUnit(t *testing.T) {
	for s, want := range map[string]int{"a\xed\xa0\xbdb": 3, "\xed\xb8\x80": 1, "\xed\xa0": 2, "\xff\xfe\xfd": 3, "😀\xed\xa0\xbd": 3} {
		if got := Len(s); got != want {
			t.Errorf("Len(%q) = %d, want %d", s, got, want)
		}
	}
	if r, n := DecodeRune("\xed\xa0\xbdx"); r != 0xD83D || n != 3 {
		t.Errorf("DecodeRune = %U, %d", r, n)
	}
}
