package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/internal/hostile"
)

// hostileFile writes s01-basic-loop with the escapes an attacker would
// plant (internal/hostile) in the prompt, a tool name and the tool results (and, with strategy, in the
// strategy name), under a file name that carries them too.
func hostileFile(t testing.TB, strategy bool) string {
	t.Helper()
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	b = hostile.Recording(b)
	if strategy {
		b = hostile.Strategy(b)
	}
	p := filepath.Join(t.TempDir(), "run\x1b]0;NAME\x07\u202e.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// safeView fails when view holds anything but text and newlines (the
// tests draw without colour, so the program writes no escape), or a
// line wider than w.
func safeView(t *testing.T, where, view string, w int) {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%s: line %d is %d columns wide, more than %d: %q", where, i+1, n, w, l)
			return
		}
		if bad, ok := rawControl(l); ok {
			t.Errorf("%s: line %d holds %q: %q", where, i+1, bad, l)
			return
		}
		for _, r := range l {
			if r == 0x200b || r == 0x200d || r == 0xfe0f {
				t.Errorf("%s: line %d has %U: %q", where, i+1, r, l)
				return
			}
		}
	}
}

// Every component's View, at every call and every turn, in three sizes,
// with the overlays open: no escape but colour, nothing wider than the
// frame; and the attack is shown, not dropped.
func TestHostileContentNeverReachesTheTerminal(t *testing.T) {
	path := hostileFile(t, true)
	for _, size := range [][2]int{{120, 40}, {60, 15}, {20, 5}} {
		w, h := size[0], size[1]
		m := open(t, fileConfig(path), w, h)
		if m.s == nil {
			t.Fatalf("%dx%d: the hostile recording did not load: %v", w, h, m.err)
		}
		seen := ""
		check := func(where string) {
			safeView(t, where+" root", m.View(), w)
			safeView(t, where+" header", m.header.View(), w)
			safeView(t, where+" turns", m.list.View(), m.list.Width)
			safeView(t, where+" detail", m.detail.View(), m.detail.Width())
			safeView(t, where+" detail title", m.detail.Title(), 1<<20)
			safeView(t, where+" policy bar", m.bar.View(), w)
			seen += m.View() + m.detail.VP.View()
		}
		for call := 0; call < m.s.Calls(); call++ {
			for turn := 0; turn < len(listRows(m)); turn++ {
				check("call " + itoa(call+1) + " turn " + itoa(turn+1))
				m = press(m, "down")
			}
			m = press(m, "right")
		}
		for _, keys := range [][]string{{"!"}, {"?"}, {"v"}, {"i"}, {"A"}, {"/", "P", "W", "N"}, {"/", "P", "W", "N", "enter", "n"}, {"w"}, {"W"}, {"tab", "G"}} {
			m = press(m, append([]string{"G"}, keys...)...)
			check(strings.Join(keys, " "))
			m = press(m, "esc", "esc")
		}
		if w >= 120 && !strings.Contains(seen, "␛]0;PWNED␇") {
			t.Errorf("%dx%d: the escape is not shown as placeholders anywhere", w, h)
		}
	}
}

// "problems 1001" for 200,000 bad lines: the header counts them all.
func TestHeaderCountsEveryProblem(t *testing.T) {
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, strings.Repeat("not json\n", 5000)...)
	p := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(p, b, 0o644)
	m := open(t, fileConfig(p), 160, 30)
	if v := m.header.View(); !strings.Contains(v, "problems 5000") {
		t.Errorf("header: %s", v)
	}
}

// Started at 20×5 and grown to 120×40, the screen left debris on the
// main screen after quitting (tmux 3.3a): a frame drawn as the terminal
// was given back. The frame after q is empty.
func TestQuitDrawsAnEmptyLastFrame(t *testing.T) {
	m := open(t, fileConfig(s01), 20, 5)
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	next, cmd := m.Update(keyMsg("q"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q does not quit")
	}
	if v := next.(Model).View(); v != "" {
		t.Errorf("the last frame is not empty:\n%s", v)
	}
}
