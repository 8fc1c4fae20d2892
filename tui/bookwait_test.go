package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

// After a knob change the replay is on screen before the book of its
// values is made (bookCmd). Meanwhile the response of call 13 of
// demo-evidence (values that left, README) says it is being judged, in
// the detail and in the i block, and no key reads the missing book;
// once the book comes, the values are back.
func TestResponseSaysJudgingUntilTheBookComes(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 120, 40), "A")
	if v := ansiFree(m.View()); !strings.Contains(v, "would have kept it:") {
		t.Fatalf("call 13's response does not show its values:\n%s", v)
	}
	next, cmd := m.Update(keyMsg("]"))
	m = next.(Model)
	var books []tea.Msg
	m = settleBut(m, cmd, &books)
	if m.s.Replaying || !m.s.Changed() || len(books) != 1 {
		t.Fatalf("replaying %v, changed %v, %d books made", m.s.Replaying, m.s.Changed(), len(books))
	}
	for _, keys := range [][]string{nil, {"i"}, {"i", "tab", "enter"}, {"esc", "x"}, {"K"}} {
		m = press(m, keys...) // none may read the missing book
		v := ansiFree(m.View())
		if keys == nil || keys[0] == "i" && len(keys) == 1 {
			if !strings.Contains(v, "judging…") || strings.Contains(v, "would have kept it:") {
				t.Fatalf("after %v, before the book:\n%s", keys, v)
			}
		}
	}
	m = press(m, "esc", "A")
	m = send(m, books[0])
	if v := ansiFree(m.View()); strings.Contains(v, "judging…") || !strings.Contains(v, "values ·") {
		t.Fatalf("the book came, the response still does not show its values:\n%s", v)
	}
}

// settleBut is settle, keeping the book each command makes for later.
func settleBut(m Model, cmd tea.Cmd, books *[]tea.Msg) Model {
	return runCmds(m, cmd, func(msg tea.Msg) bool {
		if _, ok := msg.(session.BookMsg); ok {
			*books = append(*books, msg)
			return true
		}
		return false
	}, nil)
}

// runCmds runs cmd and what it leads to, as a program would, one at a
// time: spinner and stream ticks and size looks are skipped, a message
// held says true to is not fed back, and with until it stops once until
// says so of the model.
func runCmds(m Model, cmd tea.Cmd, held func(tea.Msg) bool, until func(Model) bool) Model {
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 && (until == nil || !until(m)) {
		c := pending[0]
		pending = pending[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, spinner.TickMsg, tea.QuitMsg, streamTickMsg, session.FileLookMsg:
		case tea.BatchMsg:
			pending = append(pending, msg...)
		default:
			if held != nil && held(msg) {
				continue
			}
			n, more := m.Update(msg)
			m = n.(Model)
			pending = append(pending, more)
		}
	}
	return m
}
