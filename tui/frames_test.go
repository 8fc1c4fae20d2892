package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A knob key that starts a replay keeps the frame before it: the
// policy bar still names the policy on screen. The next message draws
// its own frame (replaying…), and the replay's answer its own.
func TestKnobKeyKeepsTheFrameBefore(t *testing.T) {
	defer coldKnobs()()
	m := press(open(t, fileConfig(demoLog), 120, 40), "G")
	before := m.View()
	if strings.Contains(before, "replaying…") {
		t.Fatal("the frame before the key already says replaying")
	}
	next, cmd := m.Update(keyMsg("]"))
	m = next.(Model)
	if !m.s.Replaying {
		t.Fatal("] did not start a replay")
	}
	if got := m.View(); got != before {
		t.Errorf("the frame of ] is not the one before it:\n%s", got)
	}

	// any other message draws the screen as it is: replaying…
	waiting := send(m, tea.FocusMsg{})
	if f := waiting.View(); !strings.Contains(f, "replaying…") || f == before {
		t.Errorf("the frame after another message does not say replaying:\n%s", f)
	}
	// so does a new size, at once
	resized := m
	resized.width = 110
	if f := resized.View(); !strings.Contains(f, "replaying…") {
		t.Errorf("the frame at another size is the one held:\n%s", f)
	}

	m = runCmds(m, cmd, nil, func(m Model) bool { return !m.s.Replaying })
	after := m.View()
	if m.s.Replaying || after == before || strings.Contains(after, "replaying…") {
		t.Errorf("the replay's frame: replaying %v, same as before %v:\n%s", m.s.Replaying, after == before, after)
	}
	if !strings.Contains(after, "keepRecentTurns="+itoa(m.s.Policy.KeepRecentTurns)+"*") {
		t.Errorf("the replay's frame does not name its policy (K=%d):\n%s", m.s.Policy.KeepRecentTurns, after)
	}
}
