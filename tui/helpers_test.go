package tui

import (
	"os"
	"testing"

	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	spinStart = 0
	os.Exit(m.Run())
}

// fileConfig opens a recording the way cli does (but read whole).
func fileConfig(path string) Config {
	return Config{Name: path, Load: func() (*model.Recording, error) { return loader.StartLimited(path, 0).Wait() }}
}

// recConfig opens a recording built in the test.
func recConfig(name string, rec *model.Recording) Config {
	return Config{Name: name, Load: func() (*model.Recording, error) { return rec, nil }}
}

// open drives a Model without a program: size, load, ready.
func open(tb testing.TB, cfg Config, w, h int) Model {
	tb.Helper()
	m := New(cfg)
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return settle(m, session.LoadCmd(cfg.source()))
}

func send(m Model, msg tea.Msg) Model {
	next, cmd := m.Update(msg)
	return settle(next.(Model), cmd)
}

// settle runs cmd and feeds its messages back, as a program would,
// skipping spinner ticks (they only animate), stream ticks and looks at
// a file's size (a test sends those itself, when it has moved its fake
// stream on or grown its file).
func settle(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	switch msg := cmd().(type) {
	case nil, spinner.TickMsg, tea.QuitMsg, streamTickMsg, session.FileLookMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			m = settle(m, c)
		}
	default:
		m = send(m, msg)
	}
	return m
}

// keys presses each key in turn.
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m = send(m, keyMsg(k))
	}
	return m
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "ctrl+d":
		return tea.KeyMsg{Type: tea.KeyCtrlD}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// judgeCmd judges every call with a book of its own (a Book is not shared
// between goroutines): a whole-recording pass, off the UI goroutine.
func judgeCmd(key *provenance.Book, rec *model.Recording, r *window.Replay) tea.Cmd {
	return session.JudgeCmdUntil(key, rec, r, nil, false)
}

// viewOf is rec opened as the screen opens it: its first conversation.
func viewOf(tb testing.TB, rec *model.Recording) *study.View {
	tb.Helper()
	st, err := study.Open(rec, study.Request{Recorded: true})
	if err != nil {
		tb.Fatal(err)
	}
	return st.View(0)
}

// listRows are the turns the list shows one by one (not folded, not hidden), in order.
func listRows(m Model) []window.Row {
	var out []window.Row
	for _, it := range m.list.Items {
		if it.Kind == turnlist.TurnItem {
			out = append(out, *m.s.Rows.At(it.Row))
		}
	}
	return out
}
