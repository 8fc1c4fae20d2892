package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/internal/rungen"
	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkFollowAppend1GB is a one-call append to a followed ~1 GB log
// (generated, 16,000 calls of one run): from the look that finds the
// file grown to the frame that shows the new call, read on from the
// last read and studied on from the last study, as the program does it
// (the look itself comes every followEvery). It reports the time and
// the CPU (the process's, user and system) per append. At most 50
// appends: the log's last 50 calls are held back and appended one by
// one.
func BenchmarkFollowAppend1GB(b *testing.B) {
	src, _, err := rungen.Cached(rungen.Default(16000))
	if err != nil {
		b.Fatal(err)
	}
	const held = 50
	path, ends := heldBack(b, src, held)
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	m := open(b, growingConfig(path, true), 120, 40)
	m = press(m, "G")
	// the first read on comes from a load whose reading can go on
	m.watch.more = nil
	m.watch.now, _ = os.Stat(path)
	m, again := m.readAgain()
	next, _ := m.Update(again())
	m = next.(Model)
	next, _ = m.Update(judgedOf(m)) // the judge pass that follows the first read
	m = next.(Model)
	calls := m.s.Calls()
	if prof := os.Getenv("FOLLOW_PROF"); prof != "" {
		f, _ := os.Create(prof)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var wall, cpu time.Duration
	n := min(b.N, held)
	b.ResetTimer()
	for i := range n {
		appendRange(b, in, path, ends[i], ends[i+1])
		began, cpu0 := time.Now(), cpuTime()
		m.watch.now, _ = os.Stat(path)
		var cmd tea.Cmd
		m, cmd = m.readAgain()
		next, _ := m.Update(cmd())
		m = next.(Model)
		_ = m.View()
		wall += time.Since(began)
		cpu += cpuTime() - cpu0
		if m.s.Calls() != calls+i+1 || m.s.Call != m.s.Calls()-1 {
			b.Fatalf("append %d: %d calls on screen, on call %d; want %d, the last", i+1, m.s.Calls(), m.s.Call+1, calls+i+1)
		}
		if j, ok := m.s.Judgements[m.s.Book]; !ok || len(j.Flags) != m.s.Calls() {
			b.Fatalf("append %d: the calls are not judged", i+1)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(wall.Microseconds())/1000/float64(n), "ms/append")
	b.ReportMetric(cpu.Seconds()/float64(n), "cpu-s/append")
}

// heldBack copies src, less its last n calls, to a file of its own, and
// returns it with the offsets in src at which each of those calls
// begins, and src's end: a call ends with its agent.iteration_end line.
func heldBack(b *testing.B, src string, n int) (string, []int64) {
	f, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	tailSize := min(st.Size(), int64(n+2)*256<<10)
	tail := make([]byte, tailSize)
	if _, err := f.ReadAt(tail, st.Size()-tailSize); err != nil {
		b.Fatal(err)
	}
	var ends []int64 // where each call after an iteration_end begins
	for at := 0; ; {
		i := bytes.Index(tail[at:], []byte(`"agentfootprint.agent.iteration_end"`))
		if i < 0 {
			break
		}
		at += i
		nl := bytes.IndexByte(tail[at:], '\n')
		at += nl + 1
		ends = append(ends, st.Size()-tailSize+int64(at))
	}
	if len(ends) < n+1 {
		b.Fatalf("only %d calls in the last %d bytes", len(ends), tailSize)
	}
	ends = ends[len(ends)-n-1:] // the last n calls, the last's end its iteration_end's
	path := filepath.Join(b.TempDir(), "live.jsonl")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, io.NewSectionReader(f, 0, ends[0])); err != nil {
		b.Fatal(err)
	}
	out.Close()
	return path, ends
}

// appendRange appends src's bytes from..to to the file at path.
func appendRange(b *testing.B, src *os.File, path string, from, to int64) {
	buf := make([]byte, to-from)
	if _, err := src.ReadAt(buf, from); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.Write(buf); err != nil || !strings.HasSuffix(string(buf), "\n") {
		b.Fatal("append", err)
	}
	f.Close()
}
