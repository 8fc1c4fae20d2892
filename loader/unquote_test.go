package loader

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkString: for a JSON string literal that encoding/json accepts,
// unquote and jsonText (which decode recorded messages) give the text
// encoding/json gives, with one rule of their own: a lone surrogate
// escape is that UTF-16 unit in WTF-8 where encoding/json writes U+FFFD.
// So their text with each WTF-8 surrogate made U+FFFD is encoding/json's,
// and its surrogates are the literal's lone surrogate escapes, in order.
// skipString agrees with encoding/json on whether the literal is valid.
func checkString(t *testing.T, lit []byte) {
	var want string
	if json.Unmarshal(lit, &want) != nil || len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return
	}
	lone := loneEscapes(string(lit))
	for _, got := range []string{unquote(lit[1 : len(lit)-1]), jsonText(lit)} {
		text, units := splitSurrogates(got)
		if text != want {
			t.Fatalf("%s decodes to %q, encoding/json says %q", lit, got, want)
		}
		if !slices.Equal(units, lone) {
			t.Fatalf("%s decodes to %q: surrogates %x, the literal's lone escapes %x", lit, got, units, lone)
		}
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

// loneEscapes are the values of lit's \uXXXX escapes that are a
// surrogate without its other half.
func loneEscapes(lit string) []uint64 {
	var out []uint64
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		if i+6 > len(lit) || lit[i+1] != 'u' {
			i++ // the escaped character
			continue
		}
		u, _ := strconv.ParseUint(lit[i+2:i+6], 16, 32)
		if u >= 0xD800 && u < 0xDC00 && strings.HasPrefix(lit[i+6:], `\u`) && len(lit) >= i+12 {
			if v, _ := strconv.ParseUint(lit[i+8:i+12], 16, 32); v >= 0xDC00 && v <= 0xDFFF {
				i += 11
				continue
			}
		}
		if u >= 0xD800 && u <= 0xDFFF {
			out = append(out, u)
		}
		i += 5
	}
	return out
}

// splitSurrogates is s with each WTF-8 surrogate (ED A0–BF xx) made
// U+FFFD, and the surrogates' values.
func splitSurrogates(s string) (string, []uint64) {
	var b strings.Builder
	var units []uint64
	for i := 0; i < len(s); i++ {
		if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			units = append(units, 0xD000|uint64(s[i+1]&0x3F)<<6|uint64(s[i+2]&0x3F))
			b.WriteString("\uFFFD")
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), units
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

// TestSkipStringEveryOffset puts each kind of byte that is not plain in a
// string (its closing quote, an escape, a control byte, UTF-8 good and
// bad) at every offset of the words skipString reads at once, with more
// JSON after the string: it accepts what encoding/json accepts in valid UTF-8 and ends
// just past the closing quote.
func TestSkipStringEveryOffset(t *testing.T) {
	pieces := []string{``, `\n`, `\"`, `\\`, `\u00e9`, `\x`, "\x01", "\x1f", "\x7f", "é", "中", "😀", "\xff", "\xc3", "\xed\xa0\x80"}
	for k := range 40 {
		for _, p := range pieces {
			for _, tail := range []string{"", "tail bytes past sixteen"} {
				lit := `"` + strings.Repeat("a", k) + p + tail + `"`
				s := scanner{b: []byte(lit + `,"next":"x"}`)}
				ok := s.skipString()
				if want := json.Valid([]byte(lit)) && utf8.Valid([]byte(lit)); ok != want {
					t.Fatalf("skipString(%q) = %v, encoding/json says %v", lit, ok, want)
				}
				if ok && s.i != len(lit) {
					t.Fatalf("skipString(%q) ends at %d, not %d", lit, s.i, len(lit))
				}
			}
		}
	}
}
