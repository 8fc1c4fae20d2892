package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/components/header"
	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/window"

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
func (m Model) landOnFileCall() Model {
	n := m.pendingFileCall
	m.pendingFileCall = 0
	for i := range m.s.Replay.Calls {
		if m.s.Replay.Calls[i].Call.Number == n {
			m.goTo(i)
			m.flash = m.fileCallWords(n, i)
			break
		}
	}
	return m
}

// jump is a key that goes to the next or previous call where something
// happens: what it looks for, and what to say when nothing is there.
type jump struct {
	next, prev key.Binding
	what       string
	is         func(rp *window.Replay, i int) bool
}

func (m Model) jumps() []jump {
	k := m.keys
	return []jump{
		{k.NextEvict, k.PrevEvict, "eviction", func(rp *window.Replay, i int) bool {
			return len(rp.Calls[i].Visit.Evicted) > 0
		}},
		{k.NextDiffer, k.PrevDiffer, "call whose replay differs from its recorded window", func(rp *window.Replay, i int) bool {
			return rp.Calls[i].Recorded() == window.Differs
		}},
		{k.NextRun, k.PrevRun, "run", func(rp *window.Replay, i int) bool {
			return i == 0 || rp.Calls[i].Run != rp.Calls[i-1].Run
		}},
		{k.NextNotice, k.PrevNotice, "drop notice or summary written", func(rp *window.Replay, i int) bool {
			v := &rp.Calls[i].Visit
			return v.Notice != nil || v.Frame != nil
		}},
		{k.NextFlagged, k.PrevFlagged, m.flaggedWhat(), func(_ *window.Replay, i int) bool {
			return m.s.Flagged(i, m.xArgs)
		}},
	}
}

// jumpKey goes to the call a jump key asks for; ok is false when msg is
// no jump key.
func (m Model) jumpKey(msg tea.KeyMsg) (Model, bool) {
	rp := m.s.Replay
	for _, j := range m.jumps() {
		d := 0
		switch {
		case key.Matches(msg, j.next):
			d = 1
		case key.Matches(msg, j.prev):
			d = -1
		default:
			continue
		}
		for i := m.s.Call + d; i >= 0 && i < len(rp.Calls); i += d {
			if j.is(rp, i) {
				m.goTo(i)
				return m, true
			}
		}
		where := "later"
		if d < 0 {
			where = "earlier"
		}
		m.flash = "no " + where + " " + j.what
		return m, true
	}
	return m, false
}

// flaggedWhat is what x and X look for: a call whose answer holds a
// flagged value, or (I) whose answer or arguments do.
func (m Model) flaggedWhat() string {
	if m.xArgs {
		return "call with a flagged value in its answer or its tool calls' arguments"
	}
	return "call with a flagged value in its answer (I: the arguments too)"
}

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
