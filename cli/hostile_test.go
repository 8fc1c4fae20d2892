package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/afinspect/inspect/internal/hostile"
)

// hostileRun writes s01-basic-loop with the escapes an attacker would
// plant (internal/hostile) in the prompt, a tool name, the tool results and the strategy name.
func hostileRun(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/s01-basic-loop/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(p, hostile.Strategy(hostile.Recording(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func hasRaw(s string) bool {
	for _, r := range s {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e || r == 0x200b) {
			return true
		}
	}
	return false
}

func TestReportPinsColumnAndStderrShowEscapes(t *testing.T) {
	code, out, errOut := runCLI("report", hostileRun(t))
	if code != 0 {
		t.Fatalf("report exit %d: %s", code, errOut)
	}
	if hasRaw(out) || hasRaw(errOut) {
		t.Errorf("a control reached the terminal:\nstdout %q\nstderr %q", out, errOut)
	}
	if !strings.Contains(out, "read_file␛]0;PWNED␇") {
		t.Errorf("the PINS column does not show the tool name's escape:\n%s", out)
	}
	if !strings.Contains(errOut, "sliding-window␛]0;PWNED␇") {
		t.Errorf("stderr does not show the strategy name's escape:\n%s", errOut)
	}
}

func TestFileNameEscapesInErrorMessages(t *testing.T) {
	name := filepath.Join(t.TempDir(), "no\x1b]0;NAME\x07such\u202e.jsonl")
	for _, cmd := range [][]string{{"report", name}, {"export", name}, {name}} {
		code, _, errOut := runCLI(cmd...)
		if code == 0 || hasRaw(errOut) || !strings.Contains(errOut, "no␛]0;NAME␇such<U+202E>.jsonl") {
			t.Errorf("%v: exit %d, stderr %q", cmd[0], code, errOut)
		}
	}
}

func TestExportEscapesC1AndBidiAndStaysExact(t *testing.T) {
	code, out, errOut := runCLI("export", hostileRun(t))
	if code != 0 {
		t.Fatalf("export exit %d: %s", code, errOut)
	}
	if strings.ContainsAny(out, "\x1b\x7f\u009b\u202e\u2028") {
		t.Fatal("raw control characters in the exported JSON")
	}
	for _, esc := range []string{`\u009b`, `\u202e`, `\u001b`, `\u007f`} {
		if !strings.Contains(out, esc) {
			t.Errorf("export has no %s", esc)
		}
	}
	var doc struct {
		Calls []struct {
			Window []struct{ Content string } `json:"window"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Calls[0].Window[0].Content; !strings.Contains(got, "Find out why"+hostile.Escapes) {
		t.Errorf("the prompt does not read back exactly: %q", got)
	}
}

type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestFailedStderrWriteExitsNonZero(t *testing.T) {
	var out strings.Builder
	if code := run([]string{"report", hostileRun(t)}, &out, brokenPipe{}); code == 0 {
		t.Error("exit 0 although nothing could be written to stderr")
	}
}

// "-" was not standard input.
func TestDashReadsStandardInput(t *testing.T) {
	f, err := os.Open("../testdata/s01-basic-loop/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	code, out, errOut := runCLI("export", "-")
	var doc struct {
		Source string `json:"source"`
		Calls  []any  `json:"calls"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Calls) != 9 {
		t.Errorf("export - : exit %d, %d calls, stderr %q", code, len(doc.Calls), errOut)
	}
}

func TestMaxLineFlagRaisesTheLineLimit(t *testing.T) {
	b, _ := os.ReadFile("../testdata/s01-basic-loop/run.jsonl")
	long := append([]byte(`{"type":"agentfootprint.x","payload":{"blob":"`+strings.Repeat("a", 2<<20)+`"}}`+"\n"), b...)
	p := filepath.Join(t.TempDir(), "long.jsonl")
	os.WriteFile(p, long, 0o644)
	_, _, errOut := runCLI("report", "--max-line-mb", "1", p)
	if !strings.Contains(errOut, ":1: too long: 2 MB, over the 1 MB line limit (--max-line-mb raises it); skipped") {
		t.Errorf("with --max-line-mb 1, stderr %q", errOut)
	}
	_, _, errOut = runCLI("report", "--max-line-mb", "3", p)
	if strings.Contains(errOut, "too long") {
		t.Errorf("with --max-line-mb 3, stderr %q", errOut)
	}
}

// A FIFO was "empty file", and its writer was left blocked.
func TestFIFOIsStreamedAndItsWriterFinishes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	b, _ := os.ReadFile("../testdata/s01-basic-loop/run.jsonl")
	wrote := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.Write(b)
			f.Close()
		}
		wrote <- err
	}()
	code, out, errOut := runCLI("report", p)
	if code != 0 || strings.Count(out, "\n") < 9 {
		t.Errorf("report on a FIFO: exit %d, stderr %q", code, errOut)
	}
	select {
	case err := <-wrote:
		if err != nil {
			t.Errorf("the writer: %v", err)
		}
	case <-time.After(60 * time.Second): // a bound on a wait for the state, never the test's verdict when it comes
		t.Error("the writer is still blocked")
	}
}

// writeLines writes lines as a log in a temporary folder.
func writeLines(t *testing.T, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func s01Lines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../testdata/s01-basic-loop/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// "problems 1001" for 200,000 bad lines: the count is the true one.
func TestProblemCountIsTheTrueCount(t *testing.T) {
	lines := s01Lines(t)
	for range 5000 {
		lines = append(lines, "not json")
	}
	_, out, _ := runCLI("report", writeLines(t, lines))
	if !strings.Contains(out, "problems (5000):") || !strings.Contains(out, "4000 more problems not listed") {
		t.Errorf("report does not count 5000 problems:\n%s", out[strings.Index(out, "problems"):][:200])
	}
}

// "reproduces 0/0" when nothing could be compared.
func TestNothingToCompareIsSaidNotZeroOfZero(t *testing.T) {
	var lines []string
	for _, l := range s01Lines(t) {
		if !strings.Contains(l, "context.injected") && !strings.Contains(l, "iteration_end") {
			lines = append(lines, l)
		}
	}
	_, out, errOut := runCLI("report", writeLines(t, lines))
	if strings.Contains(out+errOut, "reproduced: 0/0") || strings.Contains(out+errOut, "reproduces 0/0") || !strings.Contains(out, "none to compare") {
		t.Errorf("report:\n%s\nstderr %s", out, errOut)
	}
}

// A lone surrogate (JavaScript's slice can cut an emoji in half) made a
// good window read as "differs": the loader hashed U+FFFD where the
// library hashed the UTF-16 unit. Windows are now compared message by
// message as the loader decoded them, so every s01 window still matches.
func TestLoneSurrogateKeepsWindowsMatching(t *testing.T) {
	var lines []string
	for _, l := range s01Lines(t) {
		lines = append(lines, strings.ReplaceAll(l, "alpha bravo", `alpha \ud83d bravo`))
	}
	code, out, errOut := runCLI("report", writeLines(t, lines))
	if code != 0 || !strings.Contains(out, "recorded windows reproduced: 9/9") || strings.Contains(out, "differs") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
}

func TestEvidenceCommandShowsEscapes(t *testing.T) {
	code, out, errOut := runCLI("evidence", hostileRun(t))
	if code != 0 && code != 3 {
		t.Fatalf("evidence exit %d: %s", code, errOut)
	}
	if hasRaw(out) || hasRaw(errOut) {
		t.Errorf("a control reached the terminal:\nstdout %q\nstderr %q", out, errOut)
	}
}
