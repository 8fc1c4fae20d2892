package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/hostile"
)

// hostileRun writes s01-basic-loop with the escapes of issue 7 in the
// prompt, a tool name, the tool results and the strategy name.
func hostileRun(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/s01-basic-loop/run.jsonl")
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
