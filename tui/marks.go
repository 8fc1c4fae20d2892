package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/components/header"
)

// Marks, as in vim and lnav: m and a letter marks the call on screen,
// ' and the letter goes back to it. A mark holds the call's number in
// the file, so it leads back across conversations (the go-to machinery
// opens the one that holds it). Marks live as long as the program and
// are listed in the ? screen.

// marks is shared by every copy of the Model (bubbletea copies it on
// each update): a mark set in one update is seen by the next.
type marks struct {
	at map[rune]markedCall
}

// markedCall is what a mark remembers: the file's call and, for the ?
// screen, where it was.
type markedCall struct {
	fileCall int
	where    string // "call 6 of billing's conversation 2"
}

// markWait is what the key after m or ' is read as.
type markWait int

const (
	noMarkWait markWait = iota
	settingMark
	jumpingToMark
)

// markable is the set of keys a mark may be named by.
func markable(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// markKey reads the letter after m or '.
func (m Model) markKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	wait := m.markWait
	m.markWait = noMarkWait
	if key.Matches(msg, m.keys.Close) || msg.Type != tea.KeyRunes || len(msg.Runes) != 1 || !markable(msg.Runes[0]) {
		m.flash = "no mark: a mark is named by a letter"
		return m, nil
	}
	r := msg.Runes[0]
	if wait == settingMark {
		c := m.s.Current()
		if c == nil {
			m.flash = "no call on screen to mark"
			return m, nil
		}
		where := fmt.Sprintf("call %d", m.s.Call+1)
		if m.s.FileNumbers() {
			where += fmt.Sprintf(" (file call %d)", c.Call.Number)
		}
		if l := header.ViewsLabel(m.s.Views, -1); l != "" {
			where += " of " + l
		}
		m.marks.at[r] = markedCall{fileCall: c.Call.Number, where: where}
		m.flash = fmt.Sprintf("mark %c: %s ('%c goes back)", r, where, r)
		return m, nil
	}
	mk, ok := m.marks.at[r]
	if !ok {
		m.flash = fmt.Sprintf("no mark %c: m%c marks the call on screen", r, r)
		return m, nil
	}
	next, cmd := m.goToFileCall(mk.fileCall)
	if next.flash == "" || strings.HasPrefix(next.flash, "file call") {
		next.flash = fmt.Sprintf("mark %c: %s", r, mk.where)
	}
	return next, cmd
}

// marksText lists the marks for the ? screen ("" when there is none).
func marksText(mk *marks) string {
	if mk == nil || len(mk.at) == 0 {
		return ""
	}
	names := make([]rune, 0, len(mk.at))
	for r := range mk.at {
		names = append(names, r)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, r := range names {
		fmt.Fprintf(&b, "'%c  %s\n", r, termtext.Line(mk.at[r].where))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
