package evidence

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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

// FuzzJSON checks the strict JSON.parse against encoding/json on valid
// UTF-8: the same texts parse, and to the same strings and numbers (Go
// keeps a repeated key's last value too, as JavaScript does).
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\u00e9\n"],"b":null,"c":true}`, `[0123]`, `{"a":1,}`, `[NaN]`,
		`{"a":1,"a":2}`, `"\ud83d\ude00"`, ` [1] `, `{"k":"v"} x`, `-0.0e-0`, `{"0":1,"b":2,"1":3}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Contains(s, `\u`) {
			return // lone surrogates: Go and JavaScript strings differ there
		}
		v, ok := parseJSON(s)
		// numbers kept as literals: encoding/json refuses 1e700 as a
		// float64, JSON.parse makes it Infinity
		var ref any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		refOK := dec.Decode(&ref) == nil
		if refOK {
			_, err := dec.Token()
			refOK = err == io.EOF // nothing after the value
		}
		if ok != refOK {
			t.Fatalf("%q: parsed %v, encoding/json %v", s, ok, refOK)
		}
		if ok && !sameJSON(v, ref) {
			t.Fatalf("%q: values differ", s)
		}
	})
}

func sameJSON(v *jsonValue, ref any) bool {
	switch r := ref.(type) {
	case nil:
		return v.kind == jNull
	case bool:
		return v.kind == jBool && v.str == fmt.Sprint(r)
	case json.Number:
		return v.kind == jNumber && v.str == string(r)
	case string:
		return v.kind == jString && v.str == r
	case []any:
		if v.kind != jArray || len(v.elems) != len(r) {
			return false
		}
		for i := range r {
			if !sameJSON(v.elems[i], r[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		if v.kind != jObject || len(v.keys) != len(r) {
			return false
		}
		for i, k := range v.keys {
			if !sameJSON(v.elems[i], r[k]) {
				return false
			}
		}
		return true
	}
	return false
}
