package termtext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// The escapes a recording can carry to attack the terminal that prints
// it, each as a recording carried it.
var attacks = []struct{ name, in, want string }{
	{"window title (OSC 0)", "a\x1b]0;pwned\x07b", "a␛]0;pwned␇b"},
	{"clipboard write (OSC 52)", "\x1b]52;c;cHduZWQ=\x07", "␛]52;c;cHduZWQ=␇"},
	{"leave the alternate screen", "\x1b[?1049l", "␛[?1049l"},
	{"autowrap off, insert mode on", "\x1b[?7l\x1b[4h", "␛[?7l␛[4h"},
	{"carriage return and backspace overwrite", "ok\rNO\b\b", "ok␍NO␈␈"},
	{"DEL", "a\x7fb", "a␡b"},
	{"C1 CSI (U+009B)", "a\u009b31mb", `a\x9b31mb`},
	{"C1 OSC (U+009D)", "\u009d0;t\u009c", `\x9d0;t\x9c`},
	{"not UTF-8", "a\xffb\x9b", `a\xffb\x9b`},
	{"bidi override (U+202E)", "file\u202Etxt.exe", "file<U+202E>txt.exe"},
	{"bidi isolate (U+2066)", "\u2066x\u2069", "<U+2066>x<U+2069>"},
	{"zero-width space", "pass\u200Bword", "pass<U+200B>word"},
	{"BOM inside text", "\uFEFFhi", "<U+FEFF>hi"},
	{"line separator", "a\u2028b", "a<U+2028>b"},
	{"tag characters (hidden ASCII)", "hi\U000E0041\U000E0042", "hi<U+E0041><U+E0042>"},
	{"ZWJ between letters", "a\u200Db", "a<U+200D>b"},
}

func TestTextShowsEveryControlAsAPlaceholder(t *testing.T) {
	for _, a := range attacks {
		if got := Text(a.in); got != a.want {
			t.Errorf("%s: Text(%q) = %q, want %q", a.name, a.in, got, a.want)
		}
	}
}

func TestTextKeepsNewlinesTabsAndPlainText(t *testing.T) {
	for _, s := range []string{"", "plain", "two\nlines\tand a tab", "héllo wörld", "日本語", "e\u0301"} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestLineFoldsNewlinesAndTabs(t *testing.T) {
	if got, want := Line("a\nb\tc\x1b"), "a␊b c␛"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

func TestScreenExpandsTabsAndMarksPlaceholders(t *testing.T) {
	mark := func(p string) string { return "[" + p + "]" }
	if got, want := Screen("a\tbc\td\n\te\x1b", mark), "a   bc  d\n    e[␛]"; got != want {
		t.Errorf("Screen = %q, want %q", got, want)
	}
}

// The emoji of the "garbled" finding: after Screen, the width lipgloss
// computes is the width a terminal without grapheme clustering draws
// (tmux 3.3a: 👍🏽 takes 4 cells, ❤️ 1), because the parts are apart.
func TestEmojiWidthsAgreeAfterSanitizing(t *testing.T) {
	cases := []struct {
		in, want string
		width    int
	}{
		{"👍🏽", "👍", 2},                // skin tone left out
		{"👨\u200d👩\u200d👧", "👨👩👧", 6}, // ZWJ family drawn side by side
		{"❤\uFE0F", "❤", 1},           // emoji presentation selector left out
		{"🇺🇸", "🇺🇸", 2},               // a country flag stays
		{"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", 2},
		{"1\uFE0F\u20E3", "1\u20E3", 1}, // keycap
	}
	for _, c := range cases {
		got := Screen(c.in, nil)
		if got != c.want || Width(got) != c.width {
			t.Errorf("Screen(%q) = %q (width %d), want %q (width %d)", c.in, got, Width(got), c.want, c.width)
		}
	}
}

func TestFrameKeepsTheProgramsColourAndShowsEveryOtherEscape(t *testing.T) {
	own := PaletteOf("\x1b[1;38;2;1;2;3mbold\x1b[0m")
	in := "\x1b[1;38;2;1;2;3mbold\x1b[0m \x1b]0;t\x07 \x1b[?1049l \u009b \r"
	want := "\x1b[1;38;2;1;2;3mbold\x1b[0m ␛]0;t␇ ␛[?1049l \\x9b ␍"
	if got := own.Frame(in); got != want {
		t.Errorf("Frame = %q, want %q", got, want)
	}
	if s := "\x1b[1;38;2;1;2;3mred\x1b[0m\nplain ünï 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"; own.Frame(s) != s {
		t.Errorf("Frame changed safe text %q", s)
	}
}

// A colour the program never writes is the recording's: hidden text
// (8), green (1;32) and every bidi control are shown, not acted on.
func TestFrameShowsAnSGRTheProgramDidNotWrite(t *testing.T) {
	own := PaletteOf("\x1b[1mtitle\x1b[0m", "\x1b[38;5;245mdim\x1b[0m")
	in := "\x1b[1mok\x1b[0m \x1b[8mhidden\x1b[0m \x1b[1;32mSPOOF\x1b[0m \u202eevil\u2066 \x00"
	want := "\x1b[1mok\x1b[0m ␛[8mhidden\x1b[0m ␛[1;32mSPOOF\x1b[0m <U+202E>evil<U+2066> ␀"
	if got := own.Frame(in); got != want {
		t.Errorf("Frame = %q,\n want %q", got, want)
	}
	if got := Palette(nil).Frame("\x1b[0mx"); got != "␛[0mx" {
		t.Errorf("an empty palette lets %q through", got)
	}
}

func TestJSONEscapesWhatTerminalsActOn(t *testing.T) {
	raw, _ := json.Marshal(map[string]string{"k": "a\u009b\u2028\u202E\x7fb\x1b"})
	got := string(JSON(raw))
	want := `{"k":"a\u009b\u2028\u202e\u007fb\u001b"}`
	if got != want {
		t.Fatalf("JSON = %s, want %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["k"] != "a\u009b\u2028\u202E\x7fb\x1b" {
		t.Errorf("escaped JSON reads back as %q (%v)", back["k"], err)
	}
}

// jsonSlow is JSON as a plain rune-by-rune loop, to check the fast one.
func jsonSlow(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case r == utf8.RuneError && size == 1: // a byte that is not UTF-8
			out = append(out, `\ufffd`...)
		case size > 1 && jsonEscaped(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func TestJSONIsRuneByRune(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"a", "plain text run ", "\x7f", "\u0085", "\u2028", "\u202e", "é", "😀", "\xff", "\xe2\x80", `"`, "~"}
	for trial := range 2000 {
		var b []byte
		for range rng.IntN(30) {
			b = append(b, parts[rng.IntN(len(parts))]...)
		}
		got, want := JSON(b), jsonSlow(b)
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d: JSON(%q) = %q, want %q", trial, b, got, want)
		}
		// cut between characters, piece by piece, the same bytes
		cut := 0
		for cut < len(b) && rng.IntN(3) > 0 {
			_, size := utf8.DecodeRune(b[cut:])
			cut += size
		}
		if pieces := append(JSON(b[:cut:cut]), JSON(b[cut:])...); !bytes.Equal(pieces, want) {
			t.Fatalf("trial %d: cut at %d gives %q, want %q", trial, cut, pieces, want)
		}
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("EPIPE") }

func TestWriterCleansAndRemembersTheFirstError(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	w.Write([]byte("strategy \x1b]0;x\x07\n"))
	if b.String() != "strategy ␛]0;x␇\n" || w.Err() != nil {
		t.Errorf("wrote %q (err %v)", b.String(), w.Err())
	}
	f := NewWriter(failing{})
	f.Write([]byte("x"))
	if f.Err() == nil {
		t.Error("a failed write is not remembered")
	}
}

// A lone surrogate the loader kept (WTF-8) is shown as a mark, not as
// three bytes that are not UTF-8; a byte that is not UTF-8 stays \xNN.
func TestLoneSurrogateIsShownAsAMark(t *testing.T) {
	for in, want := range map[string]string{
		"a\xed\xa0\xbdb":    "a<U+D83D>b",
		"\xed\xb8\x80":      "<U+DE00>",
		"\xed\x9f\xbf":      "\uD7FF",
		"\xed\xa0":          `\xed\xa0`,
		"x\xed\xa0\xbd\xed": `x<U+D83D>\xed`,
	} {
		if got := Screen(in, nil); got != want {
			t.Errorf("Screen(%q) = %q, want %q", in, got, want)
		}
	}
}

// Frame, the last guard, shows a lone surrogate that slipped past a
// printer as the same mark.
func TestFrameShowsALoneSurrogateAsItsMark(t *testing.T) {
	if got := Palette(nil).Frame("a\xed\xa0\xbdb\xff"); got != `a<U+D83D>b\xff` {
		t.Errorf("Frame = %q", got)
	}
}
