package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/termtext"
)

// The go-to-call prompt (:). A number is a call of the conversation on
// screen, as the header numbers it ("call 6/12"); f and a number is a
// call of the file, as report and evidence number them (their CALL
// column) — the two differ in a file of several conversations. A file
// call of another conversation opens that conversation there.

// promptKey edits the go-to-call prompt: digits (after an f for the
// file's numbers), erase, enter, esc.
func (m Model) promptKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Close):
		m.prompt = false
	case key.Matches(msg, m.keys.Confirm):
		m.prompt = false
		digits, file := strings.CutPrefix(m.digits, "f")
		n, err := strconv.Atoi(digits)
		if err != nil {
			return m, nil
		}
		if file {
			return m.goToFileCall(n)
		}
		m.goTo(n - 1)
	case key.Matches(msg, m.keys.Erase):
		if m.digits != "" {
			m.digits = m.digits[:len(m.digits)-1]
		}
	case msg.Type == tea.KeyRunes:
		for _, r := range msg.Runes {
			switch {
			case r >= '0' && r <= '9' && len(m.digits) < 10:
				m.digits += string(r)
			case r == 'f' && m.digits == "":
				m.digits = "f"
			}
		}
	}
	return m, nil
}

// promptText is the prompt and what it takes.
func (m Model) promptText() string {
	t := "go to call (1–" + itoa(m.s.Calls())
	if m.s.FileNumbers() && m.s.Views.All != nil {
		t += fmt.Sprintf("; f1–f%d: the file's numbering", fileCalls(m.s))
	}
	return t + "): "
}

// fileCalls is the number of model calls in the whole file.
func fileCalls(s *session.Session) int {
	n := 0
	for _, r := range s.Views.All.Runs {
		n += len(r.Calls)
	}
	return n
}

// goToFileCall goes to the call the file numbers n: on screen, or in the
// conversation that holds it, opened for it (viewed lands there).
func (m Model) goToFileCall(n int) (Model, tea.Cmd) {
	for i := range m.s.Replay.Calls {
		if m.s.Replay.Calls[i].Call.Number == n {
			m.goTo(i)
			m.flash = m.fileCallWords(n, i)
			return m, nil
		}
	}
	if m.s.Views == nil {
		m.flash = fmt.Sprintf("no file call %d", n)
		return m, nil
	}
	for _, cv := range m.s.Views.Convs {
		for _, r := range cv.Runs {
			for _, c := range r.Run.Calls {
				if c.Number != n {
					continue
				}
				m.gen++
				m.cfg.View, m.pendingFileCall = cv.Number, n
				m.s.Replaying = true
				return m, tea.Batch(session.ViewCmd(m.gen, m.s, cv.Number), m.spin.Tick)
			}
		}
	}
	m.flash = fmt.Sprintf("no file call %d", n)
	return m, nil
}

// fileCallWords says which call of the conversation on screen the file's
// call n is: "file call 20 = call 10 of billing's conversation 2".
func (m Model) fileCallWords(n, i int) string {
	if !m.s.FileNumbers() {
		return ""
	}
	who := "of this conversation"
	if vs := m.s.Views; vs != nil && vs.Shown < len(vs.Convs) {
		cv := vs.Convs[vs.Shown]
		who = fmt.Sprintf("of %s's conversation %d", termtext.Line(cv.Agent.Key), cv.Number)
		if cv.Composition {
			who = fmt.Sprintf("of %s's own calls", termtext.Line(cv.Agent.Key))
		}
	}
	return fmt.Sprintf("file call %d = call %d %s", n, i+1, who)
}

// landOnFileCall goes to the file call a go-to asked for once its
// conversation is on screen.
func (m *Model) landOnFileCall() {
	n := m.pendingFileCall
	m.pendingFileCall = 0
	for i := range m.s.Replay.Calls {
		if m.s.Replay.Calls[i].Call.Number == n {
			m.goTo(i)
			m.flash = m.fileCallWords(n, i)
			return
		}
	}
}
