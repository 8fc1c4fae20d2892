package evidence

import (
	"testing"

	"github.com/afinspect/inspect/model"
)

// Optimal string alignment: one per insertion, deletion, substitution or
// swap of two neighbours, no substring edited twice ("ca" → "abc" is 3,
// where unrestricted Damerau distance says 2); capped past k.
func TestOSADistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"10.12.4.25", "10.12.4.52", 1}, // the transposed IP of e05b
		{"10.12.4.25", "10.12.4.25", 0},
		{"web-3e6f14", "web-3e6f41", 1},
		{"wrk-8e71c4", "wrk-8e17c4", 1},
		{"abcd", "abd", 1},
		{"abcd", "abxd", 1},
		{"abcd", "abcde", 1},
		{"ca", "abc", 3},
		{"abcdef", "badcfe", 3}, // three swaps: past the cap of 2
		{"1234", "12345678", 3}, // lengths four apart
		{"café-1", "cafe-1", 1}, // a character, not its bytes
		{"", "ab", 2},
	} {
		if got := osaDistance(c.a, c.b, MaxNear); got != min(c.want, MaxNear+1) {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, min(c.want, MaxNear+1))
		}
	}
}

// The nearest form of a tool result, within 2, the first added on a tie;
// none past 2.
func TestNearForm(t *testing.T) {
	m := &model.Message{Role: model.RoleTool, Content: `[{"id":"web-7f3a2c","private_ip":"10.12.4.52"},{"id":"web-7f3a2d","private_ip":"10.12.4.53"}]`}
	for _, c := range []struct {
		v, form string
		dist    int
		ok      bool
	}{
		{"10.12.4.25", "10.12.4.52", 1, true},
		{"web-7f3a2e", "web-7f3a2c", 1, true}, // -2c and -2d are both 1 away: the first
		{"10.99.9.99", "", 3, false},
	} {
		form, d, ok := NearForm(c.v, m, View{})
		if form != c.form || d != c.dist || ok != c.ok {
			t.Errorf("%s: %q %d %v, want %q %d %v", c.v, form, d, ok, c.form, c.dist, c.ok)
		}
	}
}

// A JSON member's number (`"p99_ms":3727` tokenizes as `:3727`) is read
// as the number (§9.5.2); fewer than 4 digits: no value.
func TestJSONNumberRead(t *testing.T) {
	for _, c := range []struct {
		v, num, shape string
		ok            bool
	}{
		{":3727", "3727", ShapeNumber, true},
		{":874", "874", "", true},
		{":-12345.50", "-12345.5", ShapeNumber, true},
		{":3727ms", "", "", false},
		{"3727", "", "", false},
		{":", "", "", false},
	} {
		num, ok := JSONNumber(c.v)
		if ok != c.ok || num.Value != c.num || num.Shape != c.shape {
			t.Errorf("%s: %+v %v, want %s %q %v", c.v, num, ok, c.num, c.shape, c.ok)
		}
	}
	got := Candidates(`{"p99_ms":3727,"p50_ms":874}`)
	if len(got) < 3 || got[1].Value != ":3727" || got[2].Value != "p50_ms" {
		t.Errorf("a JSON answer's values: %v", got)
	}
}

// Values as typed: case kept, a sentence's punctuation after them
// dropped, tails and signs kept; arguments' numbers as their literals.
func TestTyped(t *testing.T) {
	got := Typed("Host WEB-3E6F14, 41200IOPS at $1,250/month: see 3,940.")
	for v, want := range map[string]string{"web-3e6f14": "WEB-3E6F14", "41200": "41200IOPS", "1,250/month": "$1,250/month", "3940": "3,940"} {
		if got[v] != want {
			t.Errorf("%s typed %q, want %q", v, got[v], want)
		}
	}
	args := ArgTyped([]byte(`{"host":"WRK-8E71C4","n":98304.0}`))
	if args["wrk-8e71c4"] != "WRK-8E71C4" || args["98304"] != "98304.0" {
		t.Errorf("arguments typed %v", args)
	}
}

// JSON.stringify of what an absence frame's check reads: no spaces, the
// members in enumeration order, numbers as JavaScript prints them.
func TestJSONStringify(t *testing.T) {
	v, ok := parseJSON(`{"b": [1.50, 1e21, "a\u0001\"é"], "2": null, "1": true}`)
	if !ok {
		t.Fatal("no parse")
	}
	if got, want := jsonStringify(v), `{"1":true,"2":null,"b":[1.5,1e+21,"a\u0001\"é"]}`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// NearestForm looks closer only at forms that keep one of the value's
// 2k+1 pieces whole, which k edits always leave: it finds what the
// distance over every form finds. The forms are the demo's list_hosts
// ids and their neighbours one and two edits away (a swap across a cut,
// an insertion, a deletion, a multi-byte letter), with forms whose byte
// length is far from their length in runes (four-byte and two-byte
// letters), and ones far shorter and longer.
func TestNearestFormFindsWhatEveryFormFinds(t *testing.T) {
	forms := []string{"web-3e6f41", "web-3e6f14", "wrk-8e17c4", "web-9d4b27", "web-3ef614", "web3e6f14", "web-3e6f144",
		"wéb-3e6f14", "w-3e6f14", "web-3e6f1", "xeb-3e6f1x", "14:00-14:30z", "10.12.4.52", "10.12.4.25", "us-east-1b",
		"w😀b-3e6f14", "😀😀b-3e6f14", "😀😀😀😀😀😀😀😀😀😀", "😀😀😀😀😀😀😀😀😀😀😀😀", "ééééééééééé", "a", "web-3e6f14-and-much-more-after-it"}
	alone := [][2]string{ // a value whose bytes outnumber its runes, its one form near
		{"éé-3e6f14", "-3e6f14"}, {"-3e6f14", "éé-3e6f14"}, {"😀😀-3e6f14", "-3e6f14"}, {"-3e6f14", "😀😀-3e6f14"},
	}
	for _, c := range alone {
		if f, d, ok := NearestForm(c[0], []string{c[1]}, MaxNear); !ok || f != c[1] || d != osaDistance(c[0], c[1], MaxNear) {
			t.Errorf("%s within %d: %q at %d, %v; want %s at %d", c[0], MaxNear, f, d, ok, c[1], osaDistance(c[0], c[1], MaxNear))
		}
	}
	for _, v := range append([]string{"web-3e6f14", "wrk-8e71c4", "10.12.4.25", "14:00-14:30z", "web-9d4b72"}, forms...) {
		for k := 0; k <= MaxNear; k++ {
			want, wd := "", k+1
			for _, f := range forms {
				if d := osaDistance(v, f, k); d < wd {
					want, wd = f, d
				}
			}
			got, gd, ok := NearestForm(v, forms, k)
			if got != want || gd != wd || ok != (wd <= k) {
				t.Errorf("%s within %d: %s at %d, every form gives %s at %d", v, k, got, gd, want, wd)
			}
		}
	}
}
