// Package external is what leaves the program: the pager, the editor,
// the clipboard, and the temporary files they are given.
package external

import (
	"encoding/base64"
	"io"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// What leaves the program: o hands text to $PAGER, y to the terminal's
// clipboard by OSC 52 (which works over ssh and inside tmux); both as
// the screen shows it, placeholders and all.

// PagerFileMsg is sent by pagerCmd once the text is in a file for the
// pager to read.
type PagerFileMsg struct {
	Path   string
	Err    error
	Editor bool // for $EDITOR, not $PAGER
}

// PagerDoneMsg is sent when the pager has exited and the screen is back.
type PagerDoneMsg struct {
	Path string
	Err  error
}

// CopiedMsg is sent by copyCmd once the OSC 52 sequence is written;
// big says it is longer than terminals accept (osc52Max).
type CopiedMsg struct {
	Chars int
	Big   bool
	Err   error
	Tmux  bool  // tmux's paste buffer holds the text (tmuxclip.go)
	TmuxE error // tmux would not take it: OSC 52 was written instead
}

// PagerCmd renders msgs plainly, as wide as a pager reads well, into a
// temporary file.
func PagerCmd(st *theme.Styles, msgs []*model.Message, numbered bool) tea.Cmd {
	for _, m := range msgs {
		m.Chars()
	}
	return func() tea.Msg {
		var text string
		if numbered {
			text = present.RenderWindow(st, msgs, 100)
		} else {
			text = present.RenderTurn(st, msgs, 100)
		}
		f, err := os.CreateTemp("", "inspect-*.txt")
		if err != nil {
			return PagerFileMsg{Err: err}
		}
		Temps.Add(f.Name())
		_, err = io.WriteString(f, ansi.Strip(text)+"\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return PagerFileMsg{Path: f.Name(), Err: err}
	}
}

// EditorCmd writes msgs as pagerCmd does, for $EDITOR: the file is made
// read-only, since an edit would change nothing of the recording.
func EditorCmd(st *theme.Styles, msgs []*model.Message) tea.Cmd {
	write := PagerCmd(st, msgs, false)
	return func() tea.Msg {
		msg := write().(PagerFileMsg)
		msg.Editor = true
		if msg.Err == nil {
			msg.Err = os.Chmod(msg.Path, 0o400)
		}
		return msg
	}
}

// OpenEditor runs $VISUAL, else $EDITOR (vi when neither is set) on the
// file, giving it the terminal until it exits; the file is removed
// after, as the pager's is.
func OpenEditor(path string) tea.Cmd {
	return tea.ExecProcess(EditorCommand(path), func(err error) tea.Msg { return PagerDoneMsg{Path: path, Err: err} })
}

// EditorCommand runs the user's editor on path. The variable is a shell
// word list, as git and less read it ("code --wait"); the path is passed
// as an argument, never spliced into the command.
func EditorCommand(path string) *exec.Cmd {
	editor := os.Getenv("VISUAL")
	if strings.TrimSpace(editor) == "" {
		editor = os.Getenv("EDITOR")
	}
	if strings.TrimSpace(editor) == "" {
		editor = "vi"
	}
	return exec.Command("sh", "-c", editor+` "$1"`, "sh", path)
}

// OpenPager runs $PAGER (less when unset) on the file, giving it the
// terminal until it exits.
func OpenPager(path string) tea.Cmd {
	pager := os.Getenv("PAGER")
	if strings.TrimSpace(pager) == "" {
		pager = "less"
	}
	c := exec.Command("sh", "-c", pager+` "$1"`, "sh", path)
	Temps.Running(c)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		Temps.Running(nil)
		return PagerDoneMsg{Path: path, Err: err}
	})
}

// osc52 is the sequence that asks the terminal to put text on the
// system clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// osc52Max is the longest OSC 52 body ("52;c;" and the base64 of the
// text) tmux 3.3a takes into a paste buffer: its input buffer, 1 MiB
// (measured: a text of 786,426 bytes is copied, one of 786,427 dropped
// whole, silently). Other terminals have limits of their own, none known
// higher.
const osc52Max = 1 << 20

// CopyCmd writes what the screen shows of text to the terminal as OSC
// 52: with placeholders for what the terminal would act on, as the
// screen draws them (termtext.Screen), so a paste can never hold an
// escape — a bracketed-paste end marker in a tool result would end the
// paste early and run the rest as typed commands —, a C1 control, a
// carriage return or a bidi control.
func CopyCmd(w io.Writer, text string, tmux bool) tea.Cmd {
	return func() tea.Msg {
		text := termtext.Screen(text, nil) // a 6.7 MB result: off the UI goroutine
		var tmuxErr error
		if tmux {
			if tmuxErr = TmuxLoad(text); tmuxErr == nil {
				return CopiedMsg{Chars: model.Len(text), Tmux: true}
			}
		}
		seq := osc52(text)
		_, err := io.WriteString(w, seq)
		return CopiedMsg{Chars: model.Len(text), Big: len(seq)-len("\x1b]\x07") > osc52Max, Err: err, TmuxE: tmuxErr}
	}
}

// CopiedText is the footer's answer to y.
func CopiedText(msg CopiedMsg) string {
	switch {
	case msg.Err != nil:
		return "could not copy: " + msg.Err.Error()
	case msg.Big:
		return "sent " + present.Thousands(msg.Chars) + " chars by OSC 52, more than terminals take (tmux drops over 1 MiB of base64): the clipboard likely did not change; o opens it in $PAGER"
	case msg.Tmux:
		return "copied " + present.Thousands(msg.Chars) + " chars to tmux's paste buffer (and on to the clipboard where tmux passes it)"
	case msg.TmuxE != nil:
		return "sent " + present.Thousands(msg.Chars) + " chars by OSC 52: tmux load-buffer failed (" + termtext.Line(msg.TmuxE.Error()) + ")" + TmuxAdvice
	}
	return "copied " + present.Thousands(msg.Chars) + " chars to the clipboard (OSC 52)"
}

// PlainText is messages' own words, as the library sent them: the
// content, and each tool call as its name and arguments.
func PlainText(msgs []*model.Message) string {
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
