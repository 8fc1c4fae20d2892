package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
)

// s01 without its llm_start lines holds no model call: w, ↓, enter
// panicked (index out of range [-1]). The picker says there is nothing
// to open, and enter closes it.
func TestPickerOnAFileWithNoModelCall(t *testing.T) {
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, `"agentfootprint.stream.llm_start"`) {
			kept = append(kept, l)
		}
	}
	p := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	m := open(t, fileConfig(p), 120, 30)
	m = press(m, "w", "down", "enter") // panicked
	if m.overlay != noOverlay {
		t.Errorf("enter left overlay %d open", m.overlay)
	}
	m = press(m, "w", "G", "pgdown", "up")
	if s := m.screen(); !strings.Contains(s, "no conversation in this file") {
		t.Errorf("the picker does not say it is empty:\n%s", s)
	}
}

// cursorConversation is the number of the conversation the picker's
// cursor is on, as the screen shows it; -1 when the cursor is off screen.
func cursorConversation(m Model) int {
	mm := regexp.MustCompile(`▸ conversation (\d+) `).FindStringSubmatch(m.screen())
	if mm == nil {
		return -1
	}
	n, _ := strconv.Atoi(mm[1])
	return n
}

// 60 conversations of 3 agents in a picker of 14 rows: every key that
// moves the cursor keeps it on screen, pgdown and pgup move it (not only
// the view), and G, end, g and home go to the last and the first.
func TestPickerCursorStaysOnScreen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "many.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := rungen.WriteConversations(f, rungen.Independent(60).Over(3)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m := open(t, fileConfig(p), 120, 24)
	m = press(m, "w")
	convs := m.s.Views.Convs
	first, last := convs[0].Number, convs[len(convs)-1].Number
	at := func(what string, want int) {
		t.Helper()
		if got := cursorConversation(m); got != want {
			t.Errorf("after %s the screen shows the cursor on conversation %d, want %d", what, got, want)
		}
	}
	at("w", first)
	for i := 1; i < 30; i++ {
		m = press(m, "down")
		at(itoa(i)+" × down", convs[i].Number)
	}
	m = press(m, "G")
	at("G", last)
	m = press(m, "g")
	at("g", first)
	m = press(m, "end")
	at("end", last)
	m = press(m, "home")
	at("home", first)
	index := func() int { // of the cursor's conversation in the picker's order
		n := cursorConversation(m)
		for i, c := range convs {
			if c.Number == n {
				return i
			}
		}
		return -1
	}
	prev := 0
	for i := range 4 {
		m = press(m, "pgdown")
		if c := index(); c <= prev {
			t.Fatalf("pgdown %d: the cursor is on the %dth conversation, was on the %dth", i+1, c, prev)
		}
		prev = index()
	}
	if m = press(m, "pgup"); index() >= prev || index() < 0 {
		t.Errorf("pgup: the cursor is on the %dth conversation, was on the %dth", index(), prev)
	}
	m = press(m, "G", "enter")
	if m.s.View.Number != last {
		t.Errorf("enter opened conversation %d, want %d", m.s.View.Number, last)
	}
}
