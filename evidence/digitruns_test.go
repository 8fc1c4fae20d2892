package evidence

import (
	"slices"
	"testing"
)

// A text's runs of digits are whole (no digit beside them) and each is
// listed once, in the order met; a value's, per lookup form; and a text
// that may hold a value has every run of it among its own.
func TestDigitRuns(t *testing.T) {
	if got := DigitRuns("a12b12 x3.45 007 é9"); !slices.Equal(got, []string{"12", "3", "45", "007", "9"}) {
		t.Errorf("DigitRuns: %q", got)
	}
	if got := DigitRuns("no digits"); got != nil {
		t.Errorf("DigitRuns of no digits: %q", got)
	}
	if got, ok := ValueDigitRuns("0x1f2"); !ok || len(got) != 2 || !slices.Equal(got[0], []string{"0", "1", "2"}) || !slices.Equal(got[1], []string{"1", "2"}) {
		t.Errorf("ValueDigitRuns(0x1f2): %q %v", got, ok)
	}
	if _, ok := ValueDigitRuns("0xbeef"); ok { // "beef" has no digit: any text may hold it
		t.Error("ValueDigitRuns(0xbeef) gave runs")
	}
	for _, c := range []struct {
		text, v string
		may     bool
	}{
		{"deploy at 2025-03-18T14:05:02Z", "14:05", true},
		{"deploy at 2025-03-18T14:05:02Z", "4:05", false}, // 4 cuts the run 14
		{"port 8080 open", "80", false},
		{"node WEB-3E6F14 up", "web-3e6f14", true},
	} {
		if got := MayHoldBounded(c.text, c.v); got != c.may {
			t.Errorf("MayHoldBounded(%q, %q) = %v", c.text, c.v, got)
		}
		runs, _ := ValueDigitRuns(c.v)
		all := true
		for _, r := range runs[0] {
			all = all && slices.Contains(DigitRuns(c.text), r)
		}
		if c.may && !all {
			t.Errorf("%q may hold %q but lacks one of its runs %q", c.text, c.v, runs[0])
		}
	}
}

// BoundedText asks what HoldsBounded asks, of a text read once.
func TestBoundedText(t *testing.T) {
	text := `{"host":"web-3e6f41","at":"14:31:07"}`
	b := NewBoundedText(text)
	for _, v := range []string{"web-3e6f41", "14:31", "3e6f41", "4:31", "web-3e6f14", "31:07"} {
		if got, want := b.Holds(v), HoldsBounded(text, v); got != want {
			t.Errorf("Holds(%q) = %v, HoldsBounded %v", v, got, want)
		}
	}
	if !b.Holds("14:31") || b.Holds("4:31") {
		t.Error("14:31 is held between atom boundaries, 4:31 is not")
	}
}
