package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/internal/hostile"
	"github.com/afinspect/inspect/tui/components/header"
	"github.com/afinspect/inspect/tui/theme"
)

// hostileCopy writes the repo's recording dir/run.jsonl as attack makes
// it (internal/hostile).
func hostileCopy(t testing.TB, dir string, attack func([]byte) []byte) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../testdata", dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), dir+".jsonl")
	if err := os.WriteFile(p, attack(b), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// strictScreen fails when a screen drawn without colour (the tests' colour
// profile: the program writes no escape at all) holds anything a terminal
// acts on or a reader cannot see — an escape, a control but newline, a C1
// control, a bidi or invisible character —, is not h lines of w columns,
// has a box whose right border a too-wide line pushed off, or shows the
// spoofed line anywhere but after ␊, the placeholder of its newline.
func strictScreen(t *testing.T, where, s string, w, h int) {
	t.Helper()
	ls := strings.Split(s, "\n")
	if len(ls) != h {
		t.Errorf("%s: %d lines, want %d", where, len(ls), h)
	}
	for i, l := range ls {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: line %d is %d columns, not %d: %q", where, i+1, n, w, l)
		}
		if bad, ok := rawControl(l); ok {
			t.Errorf("%s: line %d holds %q raw: %q", where, i+1, bad, l)
			return
		}
		if strings.ContainsAny(l[:min(len(l), 3)], "│┃╭╰┏┗") && !strings.ContainsAny(lastRune(l), "│┃╮╯┓┛") {
			t.Errorf("%s: line %d's border was pushed off: %q", where, i+1, l)
		}
		for j := strings.Index(l, "SPOOFED"); j >= 0; j = next(l, j, "SPOOFED") {
			if !strings.HasSuffix(l[:j], "␊␛[1;32m") {
				t.Errorf("%s: line %d shows the spoofed line as a line: %q", where, i+1, l)
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func next(s string, j int, sub string) int {
	k := strings.Index(s[j+1:], sub)
	if k < 0 {
		return -1
	}
	return j + 1 + k
}

func lastRune(s string) string {
	_, size := utf8.DecodeLastRuneInString(s)
	return s[len(s)-size:]
}

// rawControl is the first character of l a terminal would act on, or a
// reader could not see.
func rawControl(l string) (string, bool) {
	for i, r := range l {
		switch {
		case r < 0x20 || r == 0x7f, r >= 0x80 && r <= 0x9f:
			return l[i : i+utf8.RuneLen(r)], true
		case r == utf8.RuneError && !strings.HasPrefix(l[i:], "\uFFFD"):
			return l[i : i+1], true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return l[i : i+utf8.RuneLen(r)], true
		}
	}
	return "", false
}

// hostileTours are the key sequences that open every view, each pressed
// from the first call with nothing open.
var hostileTours = [][]string{
	{"w"}, {"w", "j"}, {"w", "G"}, {"w", "pgdown"}, {"w", "end", "pgup"},
	{"!"}, {"?"}, {"v"}, {"W"}, {"A"}, {"i"}, {"i", "tab"}, {"i", "K"}, {"i", "enter"}, {"K"},
	{"/", "e", "v", "i", "l"}, {"/", "e", "v", "i", "l", "enter", "n"},
	{"tab", "G"},
	// call 13 of demo-evidence: values that left list_hosts call_0001
	{":", "1", "3", "enter", "i"}, {":", "1", "3", "enter", "i", "K"}, {":", "1", "3", "enter", "i", "enter"},
	{":", "1", "3", "enter", "i", "tab", "enter"}, {":", "1", "3", "enter", "K"},
	// the policy advisor: its answer, the cursor moved, a policy applied
	{"P"}, {"P", "G"}, {"P", "G", "enter"},
	// the request: system prompt and tools, and at the next call
	{"S"}, {"S", "l"},
}

// walkScreens draws every call and turn, then every view, of the
// recording at path at w×h, and hands each screen to check; short: the
// views from the last call only.
func walkScreens(t *testing.T, path string, w, h int, short bool, check func(where string, m Model)) {
	t.Helper()
	m := open(t, fileConfig(path), w, h)
	if m.s == nil {
		t.Fatalf("%s did not load: %v", path, m.err)
	}
	for conv := 0; conv < max(1, len(m.s.Views.Convs)) && conv < 3; conv++ {
		if conv > 0 {
			m = press(m, "esc", "esc", "w", "g")
			for range conv {
				m = press(m, "j")
			}
			m = press(m, "enter")
		}
		for call := 0; call < m.s.Calls() && !short; call++ {
			check("conv "+itoa(conv+1)+" call "+itoa(call+1), m)
			for range min(3, len(listRows(m))) {
				m = press(m, "down")
				check("conv "+itoa(conv+1)+" call "+itoa(call+1)+" turn down", m)
			}
			m = press(m, "right")
		}
		for _, call := range []string{"g", "G"}[b2i(short):] {
			for _, keys := range hostileTours {
				m = press(m, "esc", "esc", "esc", call)
				m = press(m, keys...)
				check("conv "+itoa(conv+1)+" "+call+" "+strings.Join(keys, " "), m)
			}
		}
	}
}

// The hostile recordings: names, ids and paths an attacker wrote, in c02
// (agent billing's id and path, a run id, a tool name, a tool-call id),
// demo-evidence (the tool and the call whose values left: the K and enter
// messages name them), c06b (a Sequence step) and s01 (escapes in the
// prompt, a tool name, the results and the strategy).
func hostileRecordings(t *testing.T) map[string]string {
	return map[string]string{
		"c02":  hostileCopy(t, "c02-interleaved-agents", hostile.C02),
		"demo": hostileCopy(t, "demo-evidence", hostile.Evidence),
		"c06b": hostileCopy(t, "c06b-composition-sequence", func(b []byte) []byte { return hostile.Names(b, "step-write", "run-1796029400400-1") }),
		"s01":  hostileFile(t, true),
	}
}

// Every view (the main screen at every call, the picker, the
// conversations' column at 180 columns, the response block, K, enter on
// a value, problems, help, the transcript, the recorded window, search)
// of recordings whose names, ids and paths carry escapes, SGR, C1
// controls, CR, BS, bidi controls, newlines and NUL: the screen holds
// none of them raw, no line from them, no line wider than the terminal,
// and the last guard has nothing to do.
func TestHostileNamesReachNoView(t *testing.T) {
	for name, path := range hostileRecordings(t) {
		for _, size := range [][2]int{{180, 50}, {120, 40}, {100, 30}, {60, 15}} {
			w, h := size[0], size[1]
			walkScreens(t, path, w, h, false, func(where string, m Model) {
				where = name + " " + itoa(w) + "×" + itoa(h) + " " + where
				for i, p := range m.parts() {
					if n := strings.Count(p.text, "\n") + 1; n > p.lines {
						t.Errorf("%s: part %d is %d lines, given %d: %q", where, i+1, n, p.lines, p.text)
					}
				}
				s := m.screen()
				strictScreen(t, where, s, w, h)
				if f := m.st.Palette().Frame(s); f != s {
					t.Errorf("%s: the last guard had work to do", where)
				}
			})
		}
	}
}

// In colour, every escape a screen holds is one of the program's: the
// recording's (hidden text, a green line) cannot add one, and the last
// guard has nothing to do. In 24-bit colour and in the 256 colours of
// xterm-256color (tmux), on dark and light backgrounds.
func TestHostileNamesAddNoColour(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	defer lipgloss.SetHasDarkBackground(true)
	for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256} {
		for _, dark := range []bool{true, false} {
			lipgloss.SetColorProfile(profile)
			lipgloss.SetHasDarkBackground(dark)
			own := theme.DefaultStyles().Palette()
			for _, bad := range []string{"\x1b[8m", "\x1b[1;32m"} {
				if own[bad] {
					t.Fatalf("profile %d: the style sheet writes %q itself: the test cannot tell", profile, bad)
				}
			}
			for name, path := range hostileRecordings(t) {
				// another palette at work, or names in fewer places: the views are enough
				short := profile != termenv.TrueColor || !dark || name == "s01" || name == "c06b"
				walkScreens(t, path, 180, 50, short, func(where string, m Model) {
					s := m.screen()
					for i := strings.IndexByte(s, 0x1b); i >= 0; i = next(s, i, "\x1b") {
						end := strings.IndexByte(s[i:], 'm')
						if end < 0 {
							end = len(s) - i - 1
						}
						seq := s[i : i+end+1]
						if !own[seq] {
							t.Fatalf("profile %d dark %v: %s %s: %q is not the program's: %q", profile, dark, name, where, seq, s[max(0, i-300):min(len(s), i+100)])
						}
					}
					if f := own.Frame(s); f != s {
						t.Errorf("profile %d dark %v: %s %s: the last guard had work to do", profile, dark, name, where)
					}
				})
			}
		}
	}
}

// The loading bar, drawn at every fraction while a file loads, writes
// only the program's colours.
func TestLoadBarColoursAreTheProgramsOwn(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI} {
		lipgloss.SetColorProfile(profile)
		own, bar := theme.DefaultStyles().Palette(), theme.NewLoadBar()
		for f := 0.0; f <= 1; f += 0.01 {
			if s := bar.ViewAs(f); own.Frame(s) != s {
				t.Fatalf("profile %d: the bar at %.2f: %q", profile, f, own.Frame(s))
			}
		}
	}
}

// A spoofed header: billing's path in c02 ends in a newline, a green
// "replay vs recorded: match   problems 0" and a newline. The header's
// second line is still the program's, and the label shows the newline.
func TestAgentPathCannotSpoofTheHeader(t *testing.T) {
	path := hostileCopy(t, "c02-interleaved-agents", func(b []byte) []byte { return hostile.Agent(b, "billing") })
	m := open(t, fileConfig(path), 180, 40)
	m = press(m, "w", "j", "enter")
	head := strings.Split(m.screen(), "\n")[:header.Height]
	if !strings.Contains(head[0], "billing␊␛[1;32mSPOOFED") {
		t.Errorf("line 1 does not show the label with its newline: %q", head[0])
	}
	if !strings.HasPrefix(head[1], "policy") || strings.Contains(head[1], "SPOOFED") {
		t.Errorf("line 2 is not the program's: %q", head[1])
	}
}
