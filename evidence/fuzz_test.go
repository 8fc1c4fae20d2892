package evidence

import (
	"slices"
	"strings"
	"testing"
)

// FuzzTokenize checks the tokenizer on arbitrary text against §1's written
// rules: tokens are non-empty ASCII of the allowed characters, already
// normalized, stripped of the leading and trailing punctuation, with a
// comma only between two digits; a space separates like any separator;
// and §2's values are distinct and each one classifies as itself.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"41,200 IOPS (41200iops)", "fc1/3,fc1/4", "1,,2", "$1,250/month", "0.0000001",
		"2026-03-18T06:14:02Z", "**ARR-0417** `0x0042`", "\u212A9 \u0130x", "-0 +5 007",
		"6006016012345678901", "a\u00a0b\u2028c", ",5,", "12 .", "((web-1)).",
	} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		toks := Tokenize(a)
		for _, tok := range toks {
			checkToken(t, tok)
		}
		joined := Tokenize(a + " " + b)
		if !slices.Equal(joined, append(slices.Clip(toks), Tokenize(b)...)) {
			t.Fatalf("a space does not separate: %q + %q", a, b)
		}
		seen := map[string]bool{}
		for _, v := range Candidates(a) {
			if seen[v.Value] {
				t.Fatalf("value %q twice", v.Value)
			}
			seen[v.Value] = true
			if v.Shape == ShapeIdentifier {
				if got, ok := classify(v.Value); !ok || got != v {
					t.Fatalf("identifier %q classifies as %v %v", v.Value, got, ok)
				}
			}
		}
	})
}

func checkToken(t *testing.T, tok string) {
	t.Helper()
	if tok == "" {
		t.Fatal("empty token")
	}
	for i := 0; i < len(tok); i++ {
		if !tokenByte(tok[i]) {
			t.Fatalf("token %q holds %q", tok, tok[i])
		}
		if tok[i] >= 'A' && tok[i] <= 'Z' {
			t.Fatalf("token %q is not lower case", tok)
		}
		if tok[i] == ',' && (i == 0 || i+1 == len(tok) || !isDigit(tok[i-1]) || !isDigit(tok[i+1])) {
			t.Fatalf("token %q has a comma that should have split it", tok)
		}
	}
	if Normalize(tok) != tok {
		t.Fatalf("token %q normalizes again to %q", tok, Normalize(tok))
	}
	if strings.ContainsAny(tok[:1], "$#@+") || strings.ContainsAny(tok[len(tok)-1:], ".,:!?%") {
		t.Fatalf("token %q keeps punctuation normalize strips", tok)
	}
}
