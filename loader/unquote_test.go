package loader

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// checkString: for a JSON string literal that encoding/json accepts,
// unquote and jsonText (which decode recorded messages) give the same
// text, and skipString agrees on whether it is valid.
func checkString(t *testing.T, lit []byte) {
	var want string
	if json.Unmarshal(lit, &want) != nil || len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return
	}
	if got := unquote(lit[1 : len(lit)-1]); got != want {
		t.Fatalf("unquote(%s) = %q, encoding/json says %q", lit, got, want)
	}
	if got := jsonText(lit); got != want {
		t.Fatalf("jsonText(%s) = %q, encoding/json says %q", lit, got, want)
	}
	s := scanner{b: lit}
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
