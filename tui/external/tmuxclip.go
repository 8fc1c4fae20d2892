package external

import (
	"fmt"
	"os/exec"
	"strings"
)

// Inside tmux an application's OSC 52 reaches no paste buffer under the
// default set-clipboard external: y then hands the text to tmux itself,
// `tmux load-buffer -w -` (-w: and on to the outer terminal's clipboard,
// as tmux's own copy does).

// TmuxLoad puts text in a new tmux paste buffer; a variable so that a
// test can stand in for tmux.
var TmuxLoad = func(text string) error {
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

// TmuxAdvice is what to set when tmux could not be given the text: OSC 52
// was written instead, which tmux takes only with set-clipboard on.
const TmuxAdvice = "; for OSC 52 to reach tmux, add `set -g set-clipboard on` to ~/.tmux.conf"
