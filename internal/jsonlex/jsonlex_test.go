package jsonlex

import (
	"encoding/json"
	"testing"
)

// The grammar's edges, each checked by hand against RFC 8259 §6: where the
// number ends, and whether there was one.
func TestNumber(t *testing.T) {
	cases := []struct {
		in  string
		end int
		ok  bool
	}{
		{"0", 1, true},
		{"-0", 2, true},
		{"01", 1, true}, // 0, then a 1 that is not this number's
		{"12345,", 5, true},
		{"-", 1, false},
		{"-x", 1, false},
		{".5", 0, false},
		{"1.", 2, false},
		{"1.5", 3, true},
		{"1.5e", 4, false},
		{"1.5e+", 5, false},
		{"1.5e+10}", 7, true},
		{"2E-3", 4, true},
		{"1e5.5", 3, true},
		{"", 0, false},
	}
	for _, c := range cases {
		end, ok := Number(c.in, 0)
		if end != c.end || ok != c.ok {
			t.Errorf("Number(%q) = %d, %v; want %d, %v", c.in, end, ok, c.end, c.ok)
		}
		bend, bok := Number([]byte(c.in), 0)
		if bend != end || bok != ok {
			t.Errorf("Number([]byte(%q)) = %d, %v; the string gave %d, %v", c.in, bend, bok, end, ok)
		}
	}
}

// Whatever Number accepts as a whole input, encoding/json accepts as a
// number, and the other way round.
func FuzzNumberAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{"0", "-1.5e+3", "01", "1.", "-", "3.25", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end, ok := Number(s, 0)
		whole := ok && end == len(s)
		var n json.Number
		std := json.Unmarshal([]byte(s), &n) == nil && string(n) == s
		if whole != std {
			t.Fatalf("%q: Number says a whole number %v, encoding/json %v", s, whole, std)
		}
	})
}

func TestSpace(t *testing.T) {
	for _, c := range []struct {
		in  string
		at  int
		end int
	}{{"", 0, 0}, {" \t\r\n1", 0, 4}, {"1 ", 1, 2}, {"\v", 0, 0}, {"\u00a0", 0, 0}} {
		if got := Space(c.in, c.at); got != c.end {
			t.Errorf("Space(%q, %d) = %d; want %d", c.in, c.at, got, c.end)
		}
	}
}
