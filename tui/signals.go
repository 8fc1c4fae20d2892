package tui

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
)

// bubbletea quits on SIGINT and SIGTERM, restoring the terminal; SIGHUP
// and SIGQUIT would end the process where it stands, the terminal left
// in the alternate screen with the mouse reported and the cursor hidden,
// and a pager's temporary file behind. They end the program the same
// orderly way here. Ctrl-Z, a key in raw mode, suspends (tea.Suspend);
// fg draws the screen again.

// SignalError is how Run ends on a signal: the command exits 128 + its
// number, as a shell reports a process the signal ended.
type SignalError struct{ Signal syscall.Signal }

func (e *SignalError) Error() string { return fmt.Sprintf("ended by %v", e.Signal) }

// endOnSignals kills p (which restores the terminal) on SIGHUP or
// SIGQUIT, after ending a pager it runs and removing the temporary
// files; the function it returns stops listening and says which signal
// ended p, nil for none.
func endOnSignals(p *tea.Program) func() *SignalError {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGQUIT)
	done := make(chan struct{})
	var got *SignalError
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case s := <-ch:
			got = &SignalError{Signal: s.(syscall.Signal)}
			temps.end(s)
			p.Kill()
		case <-done:
		}
	})
	return func() *SignalError {
		signal.Stop(ch)
		close(done)
		wg.Wait()
		temps.removeAll()
		return got
	}
}

// temps are the pager's temporary files not yet removed, and the pager
// running, if any: removed and ended on every way out.
var temps tempFiles

type tempFiles struct {
	mu    sync.Mutex
	paths map[string]bool
	pager *exec.Cmd
}

func (t *tempFiles) add(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paths == nil {
		t.paths = map[string]bool{}
	}
	t.paths[path] = true
}

func (t *tempFiles) remove(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	os.Remove(path)
	delete(t.paths, path)
}

func (t *tempFiles) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for p := range t.paths {
		os.Remove(p)
	}
	t.paths = nil
}

func (t *tempFiles) running(c *exec.Cmd) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pager = c
}

// end passes s on to a pager still running (the program waits for it
// before it can restore the terminal) and removes the files.
func (t *tempFiles) end(s os.Signal) {
	t.mu.Lock()
	c := t.pager
	t.mu.Unlock()
	if c != nil && c.Process != nil {
		_ = c.Process.Signal(s)
	}
	t.removeAll()
}
