package provenance

import (
	"strings"
	"testing"
)

// An argument brief keeps 31 characters and "…"; a lone surrogate (a
// cut emoji the loader kept as WTF-8) is one of them, never cut apart.
func TestLoneSurrogateIsOneCharacterOfABrief(t *testing.T) {
	sur := "\xed\xa0\xbd" // "\ud83d"
	for _, c := range []struct{ in, want string }{
		{strings.Repeat("a", 32), strings.Repeat("a", 32)},
		{strings.Repeat("a", 33), strings.Repeat("a", 31) + "…"},
		{strings.Repeat("a", 30) + sur + "bc", strings.Repeat("a", 30) + sur + "…"},
		{strings.Repeat("é", 29) + sur + sur + sur, strings.Repeat("é", 29) + sur + sur + sur},
		{strings.Repeat("é", 29) + sur + sur + sur + "x", strings.Repeat("é", 29) + sur + sur + "…"},
	} {
		if got := clipChars(c.in, 32); got != c.want {
			t.Errorf("clipChars(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
