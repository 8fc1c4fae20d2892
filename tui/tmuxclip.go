package tui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Inside tmux an application's OSC 52 reaches no paste buffer under the
// default set-clipboard external: y then hands the text to tmux itself,
// `tmux load-buffer -w -` (-w: and on to the outer terminal's clipboard,
// as tmux's own copy does).

// inTmux reports whether the program runs in a tmux pane and y should go
// through tmux: when the clipboard is the terminal.
func (m Model) inTmux() bool { return m.cfg.Clipboard == nil && os.Getenv("TMUX") != "" }

// tmuxLoad puts text in a new tmux paste buffer; a variable so that a
// test can stand in for tmux.
var tmuxLoad = func(text string) error {
	run := func(args ...string) error {
		c := exec.Command("tmux", args...)
		c.Stdin = strings.NewReader(text)
		out, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("tmux %s: %v %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if err := run("load-buffer", "-w", "-"); err != nil {
		return run("load-buffer", "-") // a tmux before 3.2 has no -w
	}
	return nil
}

// tmuxAdvice is what to set when tmux could not be given the text: OSC 52
// was written instead, which tmux takes only with set-clipboard on.
const tmuxAdvice = "; for OSC 52 to reach tmux, add `set -g set-clipboard on` to ~/.tmux.conf"
