package tui

import (
	"encoding/base64"
	"io"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
)

// What leaves the program: o hands text to $PAGER, y to the terminal's
// clipboard by OSC 52 (which works over ssh and inside tmux).

// pagerFileMsg is sent by pagerCmd once the text is in a file for the
// pager to read.
type pagerFileMsg struct {
	path string
	err  error
}

// pagerDoneMsg is sent when the pager has exited and the screen is back.
type pagerDoneMsg struct {
	path string
	err  error
}

// copiedMsg is sent by copyCmd once the OSC 52 sequence is written.
type copiedMsg struct {
	chars int
	err   error
}

// pagerCmd renders msgs plainly, as wide as a pager reads well, into a
// temporary file.
func pagerCmd(st *Styles, msgs []*model.Message, numbered bool) tea.Cmd {
	for _, m := range msgs {
		m.Chars()
	}
	return func() tea.Msg {
		var text string
		if numbered {
			text = renderWindow(st, msgs, 100)
		} else {
			text = renderTurn(st, msgs, 100)
		}
		f, err := os.CreateTemp("", "inspect-*.txt")
		if err != nil {
			return pagerFileMsg{err: err}
		}
		_, err = io.WriteString(f, ansi.Strip(text)+"\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return pagerFileMsg{path: f.Name(), err: err}
	}
}

// openPager runs $PAGER (less when unset) on the file, giving it the
// terminal until it exits.
func openPager(path string) tea.Cmd {
	pager := os.Getenv("PAGER")
	if strings.TrimSpace(pager) == "" {
		pager = "less"
	}
	c := exec.Command("sh", "-c", pager+` "$1"`, "sh", path)
	return tea.ExecProcess(c, func(err error) tea.Msg { return pagerDoneMsg{path: path, err: err} })
}

// osc52 is the sequence that asks the terminal to put text on the
// system clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// copyCmd writes text to the terminal as OSC 52.
func copyCmd(w io.Writer, text string) tea.Cmd {
	return func() tea.Msg {
		_, err := io.WriteString(w, osc52(text))
		return copiedMsg{chars: model.Len(text), err: err}
	}
}

// plainText is messages' own words, as the library sent them: the
// content, and each tool call as its name and arguments.
func plainText(msgs []*model.Message) string {
	var parts []string
	for _, m := range msgs {
		p := m.Content
		for _, tc := range m.ToolCalls {
			p = strings.TrimPrefix(p+"\n", "\n") + tc.Name + " " + string(tc.Args)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}
