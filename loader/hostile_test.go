package loader

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/afinspect/inspect/model"
)

const s01Log = "../testdata/s01-basic-loop/run.jsonl"

// joined is lines as a log: each ends with a line end.
func joined(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// shortReads hands out at most n bytes a read, like a pipe or gzip.
type shortReads struct {
	r io.Reader
	n int
}

func (s shortReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// slowStart makes the first read wait past blockWait, so the block
// reader treats the source as slow from then on (as a pipe is).
type slowStart struct {
	r     io.Reader
	slept bool
}

func (s *slowStart) Read(p []byte) (int, error) {
	if !s.slept {
		time.Sleep(2 * blockWait)
		s.slept = true
	}
	return s.r.Read(p)
}

func loadWith(t *testing.T, r io.Reader, opts options) (*model.Recording, error) {
	t.Helper()
	return startReader(r, "in.jsonl", 0, opts).Wait()
}

func calls(rec *model.Recording) int {
	n := 0
	for _, r := range rec.Runs {
		n += len(r.Calls)
	}
	return n
}

// A quadratic read once seen: a 64 MB line from a slow source in
// 4 KB reads looked for its line end in the whole buffer after every
// read (minutes); each byte is now looked at once.
func TestLongLineFromAPipeIsReadInLinearTime(t *testing.T) {
	lines := s01Lines(t)
	long := `{"type":"agentfootprint.x","payload":{"blob":"` + strings.Repeat("a", 64<<20) + `"}}` + "\n"
	in := joined(lines[:3]) + long + joined(lines[3:])
	// the process's CPU time, not the clock: other work on a loaded
	// machine does not count, and the quadratic read took minutes of it
	start := cpuTime(t)
	rec, err := loadWith(t, shortReads{&slowStart{r: strings.NewReader(in)}, 4 << 10}, options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cpuTime(t) - start; d > 20*time.Second {
		t.Errorf("a 64 MB line in 4 KB reads took %v of CPU", d)
	}
	if calls(rec) != 9 {
		t.Errorf("%d calls around the long line, want s01's 9", calls(rec))
	}
}

// A line over the limit is skipped and said, with its line number; the
// lines after it still load.
func TestLineOverTheLimitIsSkippedAndReported(t *testing.T) {
	lines := s01Lines(t)
	in := joined(lines[:1]) + strings.Repeat("x", 3<<20) + "\n" + joined(lines[1:])
	rec, err := loadWith(t, shortReads{strings.NewReader(in), 64 << 10}, options{maxLine: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if calls(rec) != 9 {
		t.Errorf("%d calls, want s01's 9", calls(rec))
	}
	if len(rec.Problems) != 1 || rec.Problems[0].Line != 2 || !strings.Contains(rec.Problems[0].Message, "too long: 3 MB, over the 1 MB line limit") {
		t.Errorf("problems %+v, want line 2 too long", rec.Problems)
	}
}

// The memory finding: a line with no end, longer than the limit, was
// read whole (6.3 GB for 2 GB) and then called "no event type". It is
// now read past, never held, and said to be cut off or too long.
func TestEndlessLineIsReportedCutOffNotNoEventType(t *testing.T) {
	in := io.MultiReader(strings.NewReader(`{"type":"agentfootprint.stream.llm_start","payload":{"x":"`), io.LimitReader(repeatReader('a'), 8<<20))
	_, err := loadWith(t, in, options{maxLine: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "line 1 is cut off or too long: 8 MB with no line end, over the 1 MB line limit") {
		t.Errorf("err = %v", err)
	}
}

type repeatReader byte

func (c repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

func TestDevZeroIsBinaryNotEmpty(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Load("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("err = %v", err)
	}
}

func TestPipeIsStreamed(t *testing.T) {
	b, _ := os.ReadFile(s01Log)
	pr, pw := io.Pipe()
	go func() {
		for _, chunk := range bytes.SplitAfter(b, []byte("\n")) {
			pw.Write(chunk)
		}
		pw.Close()
	}()
	rec, err := Read(pr, "-")
	if err != nil || calls(rec) != 9 {
		t.Errorf("from a pipe: %v, %d calls", err, calls(rec))
	}
}

// A UTF-8 BOM before line 1 lost run_configured (a token-budget run was
// then replayed as sliding-window); before an envelope it rejected the
// envelope whole.
func TestBOMBeforeLineOneIsStripped(t *testing.T) {
	for _, path := range []string{s01Log, "../testdata/s09-token-budget/run.jsonl", "../testdata/s09-token-budget/recording.json.gz"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			b, _ = io.ReadAll(zr)
		}
		plain, err := Read(bytes.NewReader(b), "plain")
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Read(bytes.NewReader(append([]byte("\xef\xbb\xbf"), b...)), "bom")
		if err != nil {
			t.Fatalf("%s with a BOM: %v", path, err)
		}
		if len(rec.Problems) != len(plain.Problems) || calls(rec) != calls(plain) || rec.Runs[0].Strategy != plain.Runs[0].Strategy {
			t.Errorf("%s with a BOM: %d problems, %d calls, strategy %q; without: %d, %d, %q", path,
				len(rec.Problems), calls(rec), rec.Runs[0].Strategy, len(plain.Problems), calls(plain), plain.Runs[0].Strategy)
		}
	}
}

// A first line of garbage made the whole file "a binary file".
func TestBadFirstLineIsSkippedNotBinary(t *testing.T) {
	for _, garbage := range []string{"\xff\xfe", "\x00\x01\x02garbage", "\xff\xfe{\"type\":"} {
		in := garbage + "\n" + joined(s01Lines(t))
		rec, err := Read(strings.NewReader(in), "in")
		if err != nil {
			t.Errorf("%q: %v", garbage, err)
			continue
		}
		if calls(rec) != 9 || len(rec.Problems) != 1 || rec.Problems[0].Line != 1 {
			t.Errorf("%q: %d calls, problems %+v; want 9 calls and line 1 reported", garbage, calls(rec), rec.Problems)
		}
	}
}

// cpuTime is the CPU time the process has used, user and system, on
// every thread (the collector's too).
func cpuTime(t testing.TB) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
