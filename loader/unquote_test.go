package loader

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/afinspect/inspect/window"
)

// checkString: for a JSON string literal that encoding/json accepts,
// unquote gives the same text, and the hash taken while scanning it (and
// from the decoded text) is window.ContentHash of that text, which is
// what the replay compares with.
func checkString(t *testing.T, lit []byte) {
	var want string
	if json.Unmarshal(lit, &want) != nil || len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return
	}
	if got := unquote(lit[1 : len(lit)-1]); got != want {
		t.Fatalf("unquote(%s) = %q, encoding/json says %q", lit, got, want)
	}
	h := window.ContentHash("tool", 12, want)
	if got := contentHash("tool", 12, want); got != h {
		t.Fatalf("contentHash of %q = %08x, window.ContentHash %08x", want, got, h)
	}
	s := scanner{b: lit}
	got, ok := s.hashString(hashPrefix([]byte("tool"), 12))
	switch {
	case !utf8.Valid(lit):
		if ok {
			t.Fatalf("hashString(%q) took bad UTF-8", lit)
		}
	case !ok || s.i != len(lit):
		t.Fatalf("hashString(%s) failed at byte %d", lit, s.i)
	case got != h:
		t.Fatalf("hashString(%s) = %08x, window.ContentHash of %q is %08x", lit, got, want, h)
	}
	s = scanner{b: lit}
	if s.skipString() != utf8.Valid(lit) {
		t.Fatalf("skipString(%q) disagrees with encoding/json on it", lit)
	}
}

var stringSeeds = []string{
	`""`, `"plain ascii text"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u4E2D\u0000\u001f"`,
	`"\ud83d\ude00 pair"`, `"\ud83d lone high"`, `"\ude00 lone low"`, `"\ud83d\u0041"`,
	`"\ud83d\ud83d\ude00"`, `"\ud83d\"`, `"é中😀 raw"`, "\"caf\xe9\"", "\"\xed\xa0\x80 raw surrogate\"",
	`"0123456789abcdef0123456789abcdef with \n"`,
}

func TestStrings(t *testing.T) {
	for _, s := range stringSeeds {
		checkString(t, []byte(s))
	}
}

func FuzzString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkString)
}
