package export

import (
	"bytes"
	"testing"
)

// Strict replaces exactly the lone surrogate escapes, wherever the
// writes that bring them are cut.
func TestStrictReplacesLoneSurrogates(t *testing.T) {
	in := `{"a":"x\ud83d","b":"\ud83d\ude00","c":"\\ud83d","d":"\udE00y","e":"\uD83Dz\u00e9","f":"\\\ud800"}`
	want := `{"a":"x\ufffd","b":"\ud83d\ude00","c":"\\ud83d","d":"\ufffdy","e":"\ufffdz\u00e9","f":"\\\ufffd"}`
	for cut := 0; cut <= len(in); cut++ {
		for cut2 := cut; cut2 <= len(in); cut2 += 3 {
			var out bytes.Buffer
			s := NewStrict(&out)
			for _, p := range []string{in[:cut], in[cut:cut2], in[cut2:]} {
				if _, err := s.Write([]byte(p)); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want || s.Replaced != 4 {
				t.Fatalf("cut at %d, %d: %s (%d replaced), want %s (4)", cut, cut2, out.String(), s.Replaced, want)
			}
		}
	}
}
