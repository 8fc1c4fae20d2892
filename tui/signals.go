package tui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/afinspect/inspect/tui/external"
	tea "github.com/charmbracelet/bubbletea"
)

// bubbletea quits on SIGINT and SIGTERM, restoring the terminal; SIGHUP
// and SIGQUIT would end the process where it stands, the terminal left
// in the alternate screen with the mouse reported and the cursor hidden,
// and a pager's temporary file behind. They end the program the same
// orderly way here. Ctrl-Z, a key in raw mode, suspends (tea.Suspend);
// fg draws the screen again. A SIGTSTP sent from outside (kill -TSTP,
// a job control script) would stop the process with the terminal still
// raw and in the alternate screen: it suspends the same way as the key.

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
			external.Temps.End(s)
			p.Kill()
		case <-done:
		}
	})
	stopSuspends := suspendOnTSTP(p, done, &wg)
	return func() *SignalError {
		signal.Stop(ch)
		close(done)
		wg.Wait()
		stopSuspends()
		external.Temps.RemoveAll()
		return got
	}
}

// suspending is set while the program's own suspend runs: the SIGTSTP
// it then sends its process group is the one that should stop it.
var suspending atomic.Bool

// ownSuspend marks the suspend about to run as the program's own.
func ownSuspend() { suspending.Store(true) }

// suspendOnTSTP turns a SIGTSTP from outside into the program's own
// suspend, which gives the terminal back before it stops the process
// group with SIGTSTP. That second one, caught too, stops the process
// with SIGSTOP: once a Go program has caught SIGTSTP it never takes the
// default action again, even after signal.Reset.
func suspendOnTSTP(p *tea.Program, done <-chan struct{}, wg *sync.WaitGroup) (stop func()) {
	tstp := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	wg.Go(func() {
		for {
			select {
			case <-tstp:
				if suspending.CompareAndSwap(true, false) {
					_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
					continue
				}
				ownSuspend()
				p.Send(tea.SuspendMsg{})
			case <-done:
				return
			}
		}
	})
	return func() { signal.Stop(tstp) }
}
