// Package tui is the inspector's terminal interface: it opens a recorded
// agentfootprint run and lets a person step through it call by call,
// seeing which turns the model was sent, which left, and why each stayed.
//
// It asks study for the policies and the replays, reads the replays and
// draws the answer; it never settles a policy or decides a window
// itself. Loading and replays run in tea.Cmds, so input never waits on
// them.
package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/keys"
)

//go:generate go run ./keydoc -o ../docs/keys.md

// Config is what the program opens.
type Config struct {
	Name string                           // file path or "demo", shown in the header
	Load func() (*model.Recording, error) // runs in a tea.Cmd; a spinner shows meanwhile
	// Knobs are the policy knobs given on the command line: study settles
	// each agent's policy from them and the recording, as the commands
	// do, and the screen opens with the agent's settled policy. Changes
	// are still marked against the recorded policy.
	Knobs model.Knobs
	// Library is the library version X.Y.Z whose window rules the replay
	// follows (--library-version, valid); "" tells it from the file.
	Library string
	// Open, when set, is used instead of Load: it starts reading in the
	// background, and the screen shows what has loaded while the rest
	// arrives, with a progress bar.
	Open func() *session.Stream
	// Reopen, when set, is Open for a file followed as it is written: a
	// last line still being written is waited for, not reported (-f, F).
	Reopen func() *session.Stream
	// Path is the file on disk, "" for the demo or standard input: only
	// a file can be followed or read again.
	Path string
	// Follow reads the file again whenever it grows (-f).
	Follow bool
	// View is the conversation on screen, by its number in the file
	// (docs/rules/runs-and-conversations.md §10.8); 0 is the first. The picker (w) sets it.
	View int
	// Clipboard is where y writes its OSC 52 sequence: the terminal
	// (nil means standard output, which is the terminal).
	Clipboard io.Writer
	// Keys, when set, are the keys the screen answers (a config file's);
	// nil is DefaultKeyMap.
	Keys *keys.KeyMap
}

// Run runs the inspector full screen with the mouse on, until the user
// quits. The terminal is restored on every way out, a panic inside
// Update or View included: the panic comes back as an error.
func Run(cfg Config) error {
	spareProc()
	g := &guard{m: New(cfg)}
	// 120 frames a second, bubbletea's most: a frame is written at most
	// 8 ms after the work that made it, not 16
	p := tea.NewProgram(g, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithFPS(120))
	g.quit = func() { go p.Quit() }
	ended := endOnSignals(p)
	final, err := p.Run()
	if sig := ended(); sig != nil {
		return sig
	}
	if g.failure != nil {
		return g.failure
	}
	if err != nil {
		return err
	}
	if fg, ok := final.(*guard); ok {
		if m, ok := fg.m.(Model); ok && m.err != nil {
			return m.err
		}
	}
	return nil
}

// guard turns a panic in Update or View into an orderly quit, so the
// program's shutdown restores the terminal, and keeps it for Run.
type guard struct {
	m       tea.Model
	quit    func()
	failure error
}

func (g *guard) Init() tea.Cmd { return g.m.Init() }

func (g *guard) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	if g.failure != nil {
		return g, tea.Quit
	}
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyCtrlZ {
		ownSuspend()          // the program stops itself with SIGTSTP: not to be caught as one from outside
		return g, tea.Suspend // raw mode makes it a key: the shell's job control, as in cooked mode
	}
	defer func() {
		if r := recover(); r != nil {
			g.failure = panicError("Update", r)
			cmd = tea.Quit
		}
	}()
	g.m, cmd = g.m.Update(msg)
	return g, cmd
}

func (g *guard) View() (s string) {
	if g.failure != nil {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			g.failure = panicError("View", r)
			s = ""
			if g.quit != nil {
				g.quit()
			}
		}
	}()
	return g.m.View()
}

// spareProc runs Go code on one more thread than the runtime would (the
// cores it may use: a container's CPU limit included), unless GOMAXPROCS
// says otherwise. bubbletea's input reader waits for keys in a
// blocking system call, and a thread in a system call keeps its
// processor until the runtime's monitor takes it back, up to 10 ms later
// when the program has been idle: on 2 cores, the second half of a knob's
// replay (a long run's is replayed in two halves at once) waited that long
// for a processor after each key, while the frame of the key took the
// other.
func spareProc() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
}

// errPanic is wrapped by the error Run returns after a recovered panic.
var errPanic = errors.New("inspect: internal error")

func panicError(where string, r any) error {
	return fmt.Errorf("%w: panic in %s: %v\n%s", errPanic, where, r, debug.Stack())
}

// source is where cfg's recording comes from, as the jobs that read it
// are given it.
func (cfg Config) source() session.Source {
	return session.Source{Load: cfg.Load, Open: cfg.Open, Reopen: cfg.Reopen, Path: cfg.Path, Knobs: cfg.Knobs, Library: cfg.Library, View: cfg.View}
}
