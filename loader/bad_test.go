package loader

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func s01Lines(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, "s01-basic-loop", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

const (
	turnStart = `{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":%q},"meta":{"runId":"r"}}`
	llmStart  = `{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r"}}`
	llmEnd    = `{"type":"agentfootprint.stream.llm_end","payload":{"content":"ok","usage":{"input":1,"output":1}},"meta":{"runId":"r"}}`
	toolStart = `{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"t","toolCallId":"c1","args":{}},"meta":{"runId":"r"}}`
	toolEnd   = `{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c1","result":%q},"meta":{"runId":"r"}}`
)

// TestUnusableFiles: each of these is an error, one line, naming the file.
func TestUnusableFiles(t *testing.T) {
	s01 := []byte(strings.Join(s01Lines(t), "\n"))
	cases := []struct {
		name string
		data []byte // nil: do not create the file
		dir  bool
		want string
	}{
		{name: "missing.jsonl", want: "no such file"},
		{name: "adir", dir: true, want: "is a directory"},
		{name: "empty.jsonl", data: []byte{}, want: "is empty"},
		{name: "spaces.jsonl", data: []byte("\n  \n\t\n"), want: "is empty"},
		{name: "zeros.bin", data: []byte("\x00\x00\x01\x02{"), want: "binary"},
		{name: "blob.bin", data: []byte("\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe"), want: "binary"},
		{name: "latin1.txt", data: []byte("caf\xe9 \xe0 la \xff\xfe\xfd cr\xe8me br\xfbl\xe9e"), want: "binary"},
		{name: "notlog.jsonl", data: []byte("{\"a\":1}\n{\"a\":2}\n"), want: "not an agentfootprint log"},
		{name: "events.jsonl", data: []byte(`{"type":"other.thing","payload":{}}` + "\n"), want: "not an agentfootprint log"},
		{name: "text.md", data: []byte("# notes\nhello\n"), want: "not an agentfootprint log"},
		{name: "other.json", data: []byte(`{"format":"other.v9","recording":{"events":[]}}`), want: `"other.v9"`},
		{name: "others.json", data: []byte(`[{"format":"other.v9"}]`), want: `"other.v9"`},
		{name: "numbers.json", data: []byte(`[1,2,3]`), want: "not an object"},
		{name: "noformat.json", data: []byte(`[{"run":{}}]`), want: `no "format"`},
		{name: "short.gz", data: gz(s01)[:20], want: "cut short"},
		{name: "header.gz", data: gz(s01)[:5], want: "gzip"},
		{name: "badenv.json", data: []byte(`{"format":"agentfootprint.recording.v1","recording":{"events":[`), want: "cut off"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			switch {
			case c.dir:
				os.Mkdir(path, 0o755)
			case c.data != nil:
				os.WriteFile(path, c.data, 0o644)
			}
			rec, err := Load(path)
			if err == nil {
				t.Fatalf("loaded %d runs, want an error with %q", len(rec.Runs), c.want)
			}
			msg := err.Error()
			if rec != nil || !strings.Contains(msg, path) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line naming %s and saying %q", msg, path, c.want)
			}
		})
	}
}

// TestCorruptLine: a bad line in the middle is one problem with its line
// number; the rest of the log loads as if it were not there.
func TestCorruptLine(t *testing.T) {
	lines := s01Lines(t)
	lines[2] = `{"type":"agentfootprint.context.evaluated","payload":{"iteration":1,` // line 3, cut
	lines[4] = ""                                                                     // a blank line still counts
	lines[6] = `{"payload":{}}`                                                       // line 7: no type
	path := filepath.Join(t.TempDir(), "corrupt.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644)
	rec := mustLoad(t, path)
	want := []struct {
		line int
		text string
	}{{3, "invalid JSON: unexpected end of line (cut off?)"}, {7, "no type"}}
	if len(rec.Problems) != len(want) {
		t.Fatalf("problems %v, want %d", rec.Problems, len(want))
	}
	for i, w := range want {
		p := rec.Problems[i]
		if p.Line != w.line || !strings.Contains(p.Message, fmt.Sprintf("%s:%d:", path, w.line)) || !strings.Contains(p.Message, w.text) {
			t.Errorf("problem %+v, want line %d saying %q", p, w.line, w.text)
		}
	}
	checkAgainstWire(t, rec, readWire(t, "s01-basic-loop"), 9)
}

// TestLongLine: a 5 MB tool result is one line and loads whole.
func TestLongLine(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 5<<20/16)
	log := strings.Join([]string{fmt.Sprintf(turnStart, "go"), llmStart, llmEnd, toolStart, fmt.Sprintf(toolEnd, big), llmStart}, "\n")
	rec, err := Read(strings.NewReader(log), "long.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	app := rec.Runs[0].Calls[0].Appended
	if len(rec.Problems) != 0 || len(app) != 2 || app[1].Content != big {
		t.Fatalf("problems %v, %d appended", rec.Problems, len(app))
	}
	if rec.Runs[0].Calls[1].Line != 6 {
		t.Errorf("the line after the long one is numbered %d, want 6", rec.Runs[0].Calls[1].Line)
	}
}

// TestInvalidUTF8: bad bytes inside a string load (as U+FFFD) and are
// reported with their line.
func TestInvalidUTF8(t *testing.T) {
	log := strings.Join([]string{llmStart, fmt.Sprintf(turnStart, "x") + "", llmEnd}, "\n")
	log = strings.Replace(log, `"userPrompt":"x"`, "\"userPrompt\":\"caf\xe9 ok\"", 1)
	rec, err := Read(strings.NewReader(log), "utf8.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if r := rec.Runs[0]; r.Request != "caf\uFFFD ok" || len(r.Calls) != 1 {
		t.Errorf("request %q, %d calls", r.Request, len(r.Calls))
	}
	if len(rec.Problems) != 1 || rec.Problems[0].Line != 2 || !strings.Contains(rec.Problems[0].Message, "utf8.jsonl:2: invalid UTF-8") {
		t.Errorf("problems %v, want one at line 2", rec.Problems)
	}
}

// TestGzipCutMidway: a gzip cut after some events keeps them.
func TestGzipCutMidway(t *testing.T) {
	z := gz([]byte(strings.Join(s01Lines(t), "\n")))
	path := filepath.Join(t.TempDir(), "half.jsonl.gz")
	os.WriteFile(path, z[:len(z)/2], 0o644)
	rec := mustLoad(t, path)
	if len(rec.Runs) != 1 || len(rec.Runs[0].Calls) == 0 || len(rec.Problems) == 0 {
		t.Fatalf("runs %d, problems %v", len(rec.Runs), rec.Problems)
	}
	last := rec.Problems[len(rec.Problems)-1]
	if !strings.Contains(last.Message, path) || !strings.Contains(last.Message, "cut short") {
		t.Errorf("last problem %q, want the cut named", last.Message)
	}
}

// TestOutOfOrder: events that cannot belong where they are become
// problems; the well-placed ones still load.
func TestOutOfOrder(t *testing.T) {
	log := strings.Join([]string{
		llmEnd,                    // 1: no llm_start yet
		fmt.Sprintf(toolEnd, "r"), // 2: a result before its tool_start (or a resumed run's): fine
		llmStart,                  // 3
		llmEnd,                    // 4
		llmEnd,                    // 5: a second llm_end
		fmt.Sprintf(toolEnd, "r"), // 6: a second tool_end for c1
		`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[]}}`,                                                         // 7: no runId: belongs to no run
		`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"xyz","position":0},"meta":{"runId":"r"}}`, // 8: no rawContent: an unknown message
		`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"1f","position":-3},"meta":{"runId":"r"}}`, // 9
		`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":"two"},"meta":{"runId":"r"}}`,                                  // 10
	}, "\n")
	rec, err := Read(strings.NewReader(log), "order.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range rec.Problems {
		lines = append(lines, p.Line)
	}
	if fmt.Sprint(lines) != "[1 5 6 9 10]" {
		t.Errorf("problem lines %v, want [1 5 6 9 10]: %v", lines, rec.Problems)
	}
	if len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 1 || !rec.Runs[0].Calls[0].Ended {
		t.Errorf("runs %d (the iteration_end has no runId: it belongs to no run)", len(rec.Runs))
	}
}

// TestEnvelopeProblems: in an envelope a problem has line 0 and names the
// event by its index in recording.events; an envelope cut after some
// events keeps them.
func TestEnvelopeProblems(t *testing.T) {
	env := strings.Replace(smallEnvelope, `"droppedEvents":0`, `"droppedEvents":3`, 1)
	env = strings.Replace(env, `{"type":"agentfootprint.stream.llm_end"`, `{"typo":"agentfootprint.stream.llm_end"`, 1)
	rec, err := Read(strings.NewReader(env), "env.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"env.json: recording.events[3]: event has no type",
		"env.json: envelope: the recording dropped its first 3 events",
	}
	if len(rec.Problems) != len(want) {
		t.Fatalf("problems %v, want %d", rec.Problems, len(want))
	}
	for i, w := range want {
		if p := rec.Problems[i]; p.Line != 0 || !strings.HasPrefix(p.Message, w) {
			t.Errorf("problem %+v, want line 0 and %q", p, w)
		}
	}
	if c := rec.Runs[0].Calls[0]; c.Ended || len(c.Appended) != 2 {
		t.Errorf("call without llm_end: ended %v, %d appended from history", c.Ended, len(c.Appended))
	}

	cut := smallEnvelope[:strings.Index(smallEnvelope, `{"type":"agentfootprint.stream.tool_start"`)+30]
	rec, err = Read(strings.NewReader(cut), "cut.json")
	if err != nil {
		t.Fatal(err)
	}
	if c := rec.Runs[0].Calls; len(c) != 1 || !c[0].Ended || len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Message, "cut.json: the envelope is cut short") {
		t.Errorf("calls %d, problems %v", len(c), rec.Problems)
	}
}

func TestMissingUnwraps(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.jsonl"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not unwrap to fs.ErrNotExist", err)
	}
}

// TestCorruptSkimmedLine: a line whose bad part lies in what the loader
// only skims (a context.injected rawContent, the window part of an
// iteration_end history, meta) is still a problem with its line number.
func TestCorruptSkimmedLine(t *testing.T) {
	cases := []struct {
		line     int    // 1-based, in s01
		from, to string // the first from in it becomes to
		want     string
	}{
		{6, `"rawContent":"Find`, `"rawContent":"Fi` + "\x01" + `nd`, "invalid JSON"},
		{6, `"rawContent":"Find`, `"rawContent":"Fi\qnd`, "invalid JSON"},
		{6, `"rawContent":"Find`, `"rawContent":"Fi\u00gnd`, "invalid JSON"},
		{6, `"rawContent":"Find`, `"rawContent":["Find"`, "invalid JSON"},
		{6, `"rawContent":"Find`, `"rawContent":"Fi` + "\xff" + `nd`, "invalid UTF-8"},
		{18, `"content":"Find`, `"content":"Find` + "\"\"", "invalid JSON"},
		{18, `"runId":"`, `"runId":-"`, "invalid JSON"},
		{18, `"role":"user"`, `"role":"user",,`, "invalid JSON"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			lines := s01Lines(t)
			if !strings.Contains(lines[c.line-1], c.from) {
				t.Fatalf("line %d has no %s", c.line, c.from)
			}
			lines[c.line-1] = strings.Replace(lines[c.line-1], c.from, c.to, 1)
			rec, err := Read(strings.NewReader(strings.Join(lines, "\n")), "s.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Problems) != 1 || rec.Problems[0].Line != c.line || !strings.Contains(rec.Problems[0].Message, c.want) {
				t.Fatalf("problems %v, want one at line %d saying %q", rec.Problems, c.line, c.want)
			}
			if n := len(rec.Runs[0].Calls); n != 9 {
				t.Errorf("%d calls, want all 9", n)
			}
			// Without its history, call 1's additions come from the stream.
			if first := rec.Runs[0].Calls[0]; len(first.Appended) != 2 {
				t.Errorf("call 1 appended %d messages", len(first.Appended))
			}
		})
	}
}
