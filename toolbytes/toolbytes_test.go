package toolbytes

import "testing"

func f(v float64) *float64 { return &v }

func TestSplit(t *testing.T) {
	note := "\n\n[the call ran with \"2h\", the value the tool's rule assumes]"
	cases := []struct {
		name      string
		content   string
		toolChars *float64
		own, note string
	}{
		{"no boundary", "[]", nil, "[]", ""},
		{"note after empty list", "[]" + note, f(2), "[]", note},
		{"zero keeps nothing", "abc", f(0), "", "abc"},
		{"whole content", "abc", f(3), "abc", ""},
		{"past the end is ignored", "abc", f(4), "abc", ""},
		{"negative is ignored", "abc", f(-1), "abc", ""},
		{"fraction is ignored", "abc", f(1.5), "abc", ""},
		// "é" is one UTF-16 unit but two bytes
		{"counts UTF-16 not bytes", "é!note", f(2), "é!", "note"},
		// "😀" is two UTF-16 units
		{"astral character is two units", "😀x|note", f(3), "😀x", "|note"},
		{"CJK is one unit each", "日本語 note", f(3), "日本語", " note"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			own, n := Split(c.content, c.toolChars)
			if own != c.own || n != c.note {
				t.Fatalf("Split(%q, %v) = %q, %q; want %q, %q", c.content, c.toolChars, own, n, c.own, c.note)
			}
		})
	}
}

// A lone surrogate (WTF-8, as the loader keeps "\ude00") is one UTF-16
// unit: toolChars 3 of "ab\ude00cd" ends after it, at byte 5.
func TestLoneSurrogateIsOneUnit(t *testing.T) {
	n := 3.0
	if own, note := Split("ab\xed\xb8\x80cd", &n); own != "ab\xed\xb8\x80" || note != "cd" {
		t.Errorf("Split = %q, %q", own, note)
	}
}
