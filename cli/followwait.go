package cli

import (
	"fmt"
	"os"
	"os/signal"
	"time"
)

// absentOrEmpty reports whether path names no file yet, or an empty
// regular one: what -f waits on, as tail -F does.
func absentOrEmpty(path string) bool {
	st, err := os.Stat(path)
	if os.IsNotExist(err) {
		return true
	}
	return err == nil && st.Mode().IsRegular() && st.Size() == 0
}

// waitForFile waits until path exists and holds something, saying so on
// stderr; it gives up when stop is closed or receives (ctrl+c).
func (a *app) waitForFile(path string, every time.Duration, stop <-chan os.Signal) error {
	what := "to appear"
	if !os.IsNotExist(statErr(path)) {
		what = "to be written"
	}
	fmt.Fprintf(a.stderr, "inspect: waiting for %s %s (-f follows it as tail -F does; ctrl+c gives up)\n", path, what)
	t := time.NewTicker(every)
	defer t.Stop()
	for absentOrEmpty(path) {
		select {
		case <-stop:
			fmt.Fprintf(a.stderr, "inspect: gave up waiting for %s\n", path)
			return exitCode(exitFile)
		case <-t.C:
		}
	}
	return nil
}

func statErr(path string) error {
	_, err := os.Stat(path)
	return err
}

// waitToFollow is waitForFile on the terminal: ctrl+c gives up.
func (a *app) waitToFollow(path string) error {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	defer signal.Stop(stop)
	return a.waitForFile(path, 200*time.Millisecond, stop)
}
