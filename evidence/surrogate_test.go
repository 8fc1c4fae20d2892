package evidence

import (
	"slices"
	"testing"
)

// A lone surrogate (WTF-8, as the loader keeps "\ud83d") is not ASCII and
// so separates tokens, as the library's tokenizer treats it; the JSON
// parser keeps it, the 64-unit clip counts it as one unit, lowering keeps
// it.
func TestLoneSurrogateSeparatesTokens(t *testing.T) {
	sur := "\xed\xa0\xbd"
	if got := Tokenize("inv-1042" + sur + "ord-77 x" + sur); !slices.Equal(got, []string{"inv-1042", "ord-77", "x"}) {
		t.Errorf("Tokenize = %q", got)
	}
	p := jsonParser{s: `"a\ud83db\uDE00"`}
	if s, ok := p.str(); !ok || s != "a"+sur+"b\xed\xb8\x80" {
		t.Errorf("str = %q, %v", s, ok)
	}
	long := ""
	for range 62 {
		long += "x"
	}
	if got := utf16Clip(long+sur+"y", 64); got != long+sur+"y" { // 64 units: kept
		t.Errorf("clip of 64 units = %q", got)
	}
	if got := utf16Clip(long+sur+"yz", 64); got != long+sur+"…" {
		t.Errorf("clip of 65 units = %q", got)
	}
	if got := jsLower("AB" + sur + "C"); got != "ab"+sur+"c" {
		t.Errorf("jsLower = %q", got)
	}
}
