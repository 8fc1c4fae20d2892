package loader

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// linesUpTo is data cut after the line that holds the n-th match of
// what (n from 1), with its newline.
func linesUpTo(t *testing.T, data []byte, what string, n int) []byte {
	t.Helper()
	at := 0
	for range n {
		i := bytes.Index(data[at:], []byte(what))
		if i < 0 {
			t.Fatalf("fewer than %d %q", n, what)
		}
		at += i + len(what)
	}
	return data[:at+bytes.IndexByte(data[at:], '\n')+1]
}

// TestPipeShowsWhatHasArrived: a writer that sends a whole log through a
// pipe and then falls quiet (`(cat run.jsonl; sleep 25) | inspect -`)
// has every call of it on screen while it is quiet, not only the blocks
// that filled up; so has one that sends only its first two calls, less
// than the 64 KB the format is looked for in.
func TestPipeShowsWhatHasArrived(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "s01-basic-loop", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	whole := countCalls(mustLoad(t, filepath.Join(testdata, "s01-basic-loop", "run.jsonl")))
	for _, tc := range []struct {
		name  string
		sent  []byte
		calls int
	}{
		{"whole log", data, whole},
		{"its first call", linesUpTo(t, data, `"agentfootprint.stream.llm_start"`, 2), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.sent) >= 64<<10 && tc.calls == 1 {
				t.Fatalf("the first call is %d bytes: not short", len(tc.sent))
			}
			pr, pw := io.Pipe()
			defer pw.Close()
			l := StartReader(pr, "pipe", 0)
			if _, err := pw.Write(tc.sent); err != nil {
				t.Fatal(err)
			}
			// the writer is quiet from here on, and the pipe still open
			waitFor(t, "the calls sent", func() bool { return countCalls(l.Snapshot()) >= tc.calls })
			waitFor(t, "the input to say it waits", func() bool { return l.Progress().Waiting })
			if p := l.Progress(); p.Done || p.Calls != countCalls(l.Snapshot()) {
				t.Errorf("progress %+v while the writer is quiet", p)
			}
		})
	}
}

// TestFIFOShowsWhatHasArrived is TestPipeShowsWhatHasArrived through a
// named pipe, opened as a file.
func TestFIFOShowsWhatHasArrived(t *testing.T) {
	path := filepath.Join(testdata, "s01-basic-loop", "run.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "live.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	l := Start(fifo)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	whole := countCalls(mustLoad(t, path))
	waitFor(t, "every call written", func() bool { return countCalls(l.Snapshot()) == whole })
}
