//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/afinspect/inspect/advise"
)

// openPty is a pseudo-terminal: its controller, and the terminal a
// program writes to.
func openPty(t *testing.T) (ctl, term *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal here: %v", err)
	}
	var n, unlock uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	size := [4]uint16{50, 200} // rows, columns: room for the whole line
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, term.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&size))); e != 0 {
		t.Fatal(e)
	}
	t.Cleanup(func() { term.Close(); ctl.Close() })
	return ctl, term
}

// adviseOn runs `inspect advise FILE` with stderr on a pseudo-terminal
// and gives what the terminal was sent.
func adviseOn(t *testing.T, args ...string) string {
	ctl, term := openPty(t)
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ctl) // until the terminal side is closed (EIO)
		got <- b
	}()
	var out bytes.Buffer
	if code := run(append([]string{"advise"}, args...), &out, term); code != 0 {
		t.Fatalf("advise %v: exit %d", args, code)
	}
	term.Close()
	return string(<-got)
}

// On a terminal, `inspect advise` says how far it has got in the words
// the UI's advisor view uses (advise.Progress): first that it reads the
// calls, then the policies replayed, each on the line the next one
// erases, and the line erased at the end; nothing with -q, and nothing
// when stderr is no terminal.
func TestAdviseProgressOnATerminal(t *testing.T) {
	const file = "../testdata/demo-evidence/run.jsonl"
	code, stdout, _ := runCLI("advise", "--format", "json", file)
	if code != 0 {
		t.Fatalf("advise: exit %d", code)
	}
	policies := strings.Count(stdout, `"frontier":`) // one a row of the one agent
	if policies < 10 {
		t.Fatalf("%d policies in the advice", policies)
	}
	screen := adviseOn(t, file)
	doing, reading := advise.Progress("", 0, 0)
	_, last := advise.Progress("", policies, policies)
	for _, want := range []string{
		"\r\x1b[Kinspect: " + doing + " " + reading,
		"\r\x1b[Kinspect: " + doing + " " + last,
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal was not sent %q:\n%q", want, screen)
		}
	}
	if !strings.HasSuffix(screen, last+"\r\x1b[K") {
		t.Errorf("the progress is not erased at the end: %q", screen[max(0, len(screen)-120):])
	}
	if quiet := adviseOn(t, "-q", file); strings.Contains(quiet, "inspect:") {
		t.Errorf("-q on a terminal drew %q", quiet)
	}
	if _, _, stderr := runCLI("advise", file); stderr != "" {
		t.Errorf("stderr no terminal: %q", stderr)
	}
}

// A terminal too narrow for the whole line shortens what is being done,
// not the count, and never writes past the last column.
func TestAdviseProgressNarrow(t *testing.T) {
	var b bytes.Buffer
	adviseProgress(&b, "", 40)(80, 80) // the last policy is always drawn
	lines := strings.Split(b.String(), "\r\x1b[K")
	last := lines[len(lines)-1]
	if !strings.HasSuffix(last, " 80/80 policies") || len([]rune(last)) > 39 || !strings.HasPrefix(last, "inspect: Replaying") {
		t.Errorf("on 40 columns: %q", last)
	}
}
