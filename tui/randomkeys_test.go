package tui

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// A person's keys and clicks in any order, with resizes down to one cell, on the
// recordings of every shape here: no panic, and every frame fits the
// terminal it is drawn for. The keys are drawn from a fixed seed, so a
// failure names the key that made it and can be replayed.
func TestRandomKeysNeverPanic(t *testing.T) {
	keys := []string{"left", "right", "up", "down", "home", "end", "enter", "esc", "tab", "pgdown", "pgup",
		"ctrl+d", "ctrl+u", " ", "g", "G", "e", "E", "d", "D", "<", ">", "c", "C", "x", "X", "I", "A",
		"i", "v", "W", "w", "P", "?", "!", "z", "]", "[", "}", "{", "p", "s", "K", "/", "n", "N", ":", "1", "3", "f", "backspace", "q"}
	for _, name := range []string{"demo-evidence", "n02-abort-then-followup", "n06-parallel-composition", "n07-loop-conditional",
		"n09-tier-minimal", "c02-interleaved-agents", "c04-summarize-multi", "e02-rails", "s90-truncated"} {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			m := open(t, fileConfig("../testdata/"+name+"/run.jsonl"), 120, 40)
			w, h := 120, 40
			for n := 0; n < 600; n++ {
				var msg tea.Msg
				var what string
				if rng.IntN(5) == 0 {
					b := []tea.MouseButton{tea.MouseButtonLeft, tea.MouseButtonWheelUp, tea.MouseButtonWheelDown, tea.MouseButtonRight}[rng.IntN(4)]
					msg, what = tea.MouseMsg{X: rng.IntN(w + 2), Y: rng.IntN(h + 2), Button: b, Action: tea.MouseActionPress}, fmt.Sprintf("mouse %v", b)
				} else if rng.IntN(25) == 0 {
					w, h = 1+rng.IntN(200), 1+rng.IntN(60)
					msg, what = tea.WindowSizeMsg{Width: w, Height: h}, fmt.Sprintf("resize %d×%d", w, h)
				} else {
					k := keys[rng.IntN(len(keys))]
					msg, what = keyMsg(k), "key "+k
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("step %d (%s): panic %v\n%s", n, what, r, debug.Stack())
						}
					}()
					m = send(m, msg)
					if m.quitting {
						m.quitting = false // q quits: the test goes on as if it had not
					}
					frame := m.View()
					lines := strings.Split(frame, "\n")
					if len(lines) > max(h, 1) {
						t.Fatalf("step %d (%s): %d lines in a %d-line terminal", n, what, len(lines), h)
					}
					for i, l := range lines {
						if lw := ansi.StringWidth(l); lw > max(w, 1) {
							t.Fatalf("step %d (%s): line %d is %d wide in a %d-column terminal: %q", n, what, i+1, lw, w, ansi.Strip(l))
						}
					}
				}()
			}
		})
	}
}
