package evidence

import (
	"slices"
	"testing"
)

// Expected values are docs/rules/evidence.md §1's examples and hand-checked
// JavaScript (node: String(Number(v)), s.toLowerCase(), s.trim()).
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"98304.0", "98304"},
		{"007", "7"},
		{"1.50", "1.5"},
		{"-0", "0"},
		{"+5", "5"}, // the leading + is stripped by step 2 first
		{"0.000001", "0.000001"},
		{"0.0000001", "1e-7"},
		{"20001738051234567", "20001738051234567"}, // 17 digits: kept
		{"123456789012345", "123456789012345"},     // 15 digits: printed
		{"000000000000001", "1"},                   // 15 digits with leading zeros
		{"0000000000000001", "0000000000000001"},   // 16: kept as is
		{"41,200", "41200"},
		{"71,204,338", "71204338"},
		{"-1,234.50", "-1234.5"},
		{"1,2345", "1,2345"}, // not grouped by threes
		{"12,34", "12,34"},
		{"$1,250/month", "1,250/month"},
		{"99.99%", "99.99"},
		{"(web-7f3a2c).", "web-7f3a2c"},
		{"**bold**", "**bold**"}, // * is not stripped (tokenize never keeps it)
		{"`code`", "code"},
		{"<a>", "a"},
		{"ARR-0417", "arr-0417"},
		{"\u212A9", "k9"},          // KELVIN SIGN lowers to ASCII k
		{"\u0130x", "i\u0307x"},    // dotted capital I: i + combining dot
		{"\u00a0 x \u3000", "x"},   // JS trim removes NBSP and ideographic space
		{"\u0085x", "\u0085x"},     // but not NEL
		{"\u001fx", "\u001fx"},     // nor the information separators
		{"\ufeffabc\u2028", "abc"}, // BOM and LINE SEPARATOR are trimmed
		{"12 .", "12 "},            // whole strings: not idempotent
		{"...", ""},
		{"ΟΔΟΣ", "οδος"}, // final sigma
		{"ΣΑ", "σα"},
		{"1e5", "1e5"}, // not a plain number: kept
		{"-.5", "-.5"}, // neither
		{"+-5", "-5"},  // + stripped, then -5 printed
		{"0.1", "0.1"},
		{"123456789012.345", "123456789012.345"},
		{"1.0000000000001", "1.0000000000001"},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// JavaScript's Number.prototype.toString (hand-checked in node).
func TestJSFormat(t *testing.T) {
	for _, c := range []struct {
		lit, want string
	}{
		{"6006016012345678901", "6006016012345679000"},
		{"98304.0", "98304"},
		{"1e21", "1e+21"},
		{"1e20", "100000000000000000000"},
		{"123456789012345678901", "123456789012345680000"},
		{"1234567890123456789012", "1.2345678901234568e+21"},
		{"0.00000015", "1.5e-7"},
		{"0.000001", "0.000001"},
		{"0.0000012", "0.0000012"},
		{"1e-7", "1e-7"},
		{"-2.5e-8", "-2.5e-8"},
		{"0.1", "0.1"},
		{"5e-324", "5e-324"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"},
		{"1e999", "Infinity"},
		{"-1e999", "-Infinity"},
		{"1e-999", "0"},
		{"-0.0", "0"},
		{"1822", "1822"},
		{"0.0019", "0.0019"},
		{"123.456", "123.456"},
	} {
		got, ok := jsNumberString(c.lit)
		if !ok || got != c.want {
			t.Errorf("String(Number(%s)) = %q (%v), want %q", c.lit, got, ok, c.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"41,200 IOPS", []string{"41200", "iops"}},
		{"fc1/3,fc1/4", []string{"fc1/3", "fc1/4"}},
		{"1,,2", []string{"1", "2"}},
		{"a,1", []string{"a", "1"}},
		{"1,a", []string{"1", "a"}},
		{",5,", []string{"5"}},
		{"| **ARR-0417** | `0x0042` |", []string{"**arr-0417**", "0x0042"}[1:]},
		{"2026-03-18T06:14:02Z", []string{"2026-03-18t06:14:02z"}},
		{"web-7f3a2c (us-east-1b, 10.12.4.52)", []string{"web-7f3a2c", "us-east-1b", "10.12.4.52"}},
		{"straße 12", []string{"stra", "e", "12"}}, // non-ASCII separates
		{"\"a\\nweb-1\"", []string{"a", "nweb-1"}},
		{"p99 3,940 ms.", []string{"p99", "3940", "ms"}},
		{"$1,250/month", []string{"1,250/month"}},
		{"...", nil},
		{"", nil},
	} {
		got := Tokenize(c.in)
		if c.in == "| **ARR-0417** | `0x0042` |" {
			// * and ` separate: the cell tokenizes like the bare value
			c.want = []string{"arr-0417", "0x0042"}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLookupForms(t *testing.T) {
	for in, want := range map[string][]string{
		"0xef0101": {"0xef0101", "ef0101"},
		"0x":       {"0x"},
		"0x0042":   {"0x0042", "0042"},
		"ee0a17":   {"ee0a17"},
		"x0x1":     {"x0x1"},
	} {
		if got := LookupForms(in); !slices.Equal(got, want) {
			t.Errorf("LookupForms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUTF16Clip(t *testing.T) {
	long := "mpath-arr-0417-lun0042-naa600601601f2045002a5c3e6b9d71ee42-esx-fra2-017"
	if got, want := utf16Clip(long, 64), "mpath-arr-0417-lun0042-naa600601601f2045002a5c3e6b9d71ee42-esx-…"; got != want {
		t.Errorf("clip = %q, want %q (the library's event)", got, want)
	}
	exact := "a123456789b123456789c123456789d123456789e123456789f123456789abcd" // 64
	if got := utf16Clip(exact, 64); got != exact {
		t.Errorf("a 64-unit value is whole, got %q", got)
	}
	if got := utf16Clip(exact+"e", 64); got != exact[:63]+"…" {
		t.Errorf("65 units: %q", got)
	}
	astral := "ab😀cd" // 6 units
	if got := utf16Clip(astral, 4); got != "ab…" {
		t.Errorf("a pair cut in half goes whole: %q", got)
	}
	if got := utf16Clip(astral, 6); got != astral {
		t.Errorf("fits: %q", got)
	}
}
