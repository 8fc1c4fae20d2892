package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run is the command line as main runs it, without the demo run.
func run(args []string, stdout, stderr io.Writer) int {
	return Run(args, stdout, stderr, Build{Version: "test"})
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

type exported struct {
	Format string `json:"format"`
	Policy struct {
		Strategy            string `json:"strategy"`
		KeepRecentTurns     int    `json:"keepRecentTurns"`
		KeepLastToolResults int    `json:"keepLastToolResults"`
		Inferred            bool   `json:"inferred"`
		Evidence            string `json:"evidence"`
	} `json:"policy"`
	Problems []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"problems"`
	Conversations []struct {
		Conversation int      `json:"conversation"`
		Runs         []string `json:"runs"`
	} `json:"conversations"`
	Calls []struct {
		Call           int               `json:"call"`
		Run            int               `json:"run"`
		Iteration      int               `json:"iteration"`
		Window         []json.RawMessage `json:"window"`
		Evicted        []json.RawMessage `json:"evicted"`
		RecordedWindow string            `json:"recordedWindow"`
		Record         *struct {
			RemovedMessageCount int `json:"removedMessageCount"`
		} `json:"record"`
	} `json:"calls"`
}

// wireWindows reads the messages the library sent on each call, as
// normalised JSON values.
func wireWindows(t *testing.T, scenario string) [][]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../testdata", scenario, "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Calls []struct {
			Messages []map[string]any `json:"messages"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	out := make([][]any, len(w.Calls))
	for i, c := range w.Calls {
		for _, m := range c.Messages {
			out[i] = append(out[i], normalise(m))
		}
	}
	return out
}

// normalise keeps the keys the wire compares, dropping empty ones.
func normalise(m map[string]any) any {
	keep := map[string]any{}
	for _, k := range []string{"role", "content", "toolCallId", "toolName", "toolCalls"} {
		if v, ok := m[k]; ok && v != nil && v != "" {
			if l, isList := v.([]any); isList && len(l) == 0 {
				continue
			}
			keep[k] = v
		}
	}
	b, _ := json.Marshal(keep)
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

func exportOf(t *testing.T, args ...string) exported {
	t.Helper()
	code, out, errs := runCLI(append([]string{"export", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("export exited %d: %s", code, errs)
	}
	var doc exported
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("export printed no JSON: %v", err)
	}
	return doc
}

func sameWindows(t *testing.T, doc exported, want [][]any) {
	t.Helper()
	if len(doc.Calls) != len(want) {
		t.Fatalf("%d calls exported, the library made %d", len(doc.Calls), len(want))
	}
	for i, c := range doc.Calls {
		var got []any
		for _, raw := range c.Window {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			got = append(got, normalise(m))
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			t.Fatalf("call %d: window differs from the library's\n got %.300s\nwant %.300s", i+1, g, w)
		}
	}
}

func TestExportInfersAndMatchesWire(t *testing.T) {
	doc := exportOf(t, "../testdata/s01-basic-loop/run.jsonl")
	if doc.Format != "inspect.export.v1" {
		t.Fatalf("format %q", doc.Format)
	}
	if !doc.Policy.Inferred || doc.Policy.KeepRecentTurns != 2 || doc.Policy.KeepLastToolResults != 2 || doc.Policy.Evidence == "" {
		t.Fatalf("policy %+v, want inferred keepRecentTurns=2 keepLastToolResults=2 with evidence", doc.Policy)
	}
	sameWindows(t, doc, wireWindows(t, "s01-basic-loop"))
	for _, c := range doc.Calls {
		if c.RecordedWindow != "match" {
			t.Fatalf("call %d: recordedWindow %q", c.Call, c.RecordedWindow)
		}
	}
}

// s02 is s01's script run by the library with pins off: switching pins
// off on s01 must give exactly s02's windows.
func TestExportPinsOffIsS02(t *testing.T) {
	doc := exportOf(t, "--keep-last-tool-results", "0", "../testdata/s01-basic-loop/run.jsonl")
	if doc.Policy.KeepLastToolResults != 0 || doc.Policy.KeepRecentTurns != 2 {
		t.Fatalf("policy %+v", doc.Policy)
	}
	sameWindows(t, doc, wireWindows(t, "s02-pins-off"))
	differs := 0
	for _, c := range doc.Calls {
		if c.RecordedWindow == "differs" {
			differs++
		}
	}
	if differs == 0 {
		t.Fatal("pins off changes s01's windows; some call should differ from the recording")
	}
}

func TestExportTruncatedReportsLine(t *testing.T) {
	code, out, errs := runCLI("export", "../testdata/s90-truncated/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "s90-truncated/run.jsonl:126:") {
		t.Fatalf("stderr should name the cut-off line 126:\n%s", errs)
	}
	var doc exported
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Calls) != 6 {
		t.Fatalf("want 6 calls from the truncated log, got %d (%v)", len(doc.Calls), err)
	}
}

func TestReport(t *testing.T) {
	code, out, errs := runCLI("report", "../testdata/s05-multi-turn/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"CALL", "RECORDED", "recorded windows reproduced: 14/14", "keepRecentTurns=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("report to a pipe must carry no colour")
	}
}

func TestCLIErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"export", filepath.Join(dir, "missing.jsonl")}, 1, "missing.jsonl"},
		{[]string{"export", dir}, 1, dir},
		{[]string{"report", empty}, 1, "empty.jsonl"},
		{[]string{"export"}, 2, "which file"},
		{[]string{"export", "--strategy", "nope", "x"}, 2, "unknown --strategy"},
		{[]string{"export", "--format", "xml", "x"}, 2, "json is the only one"},
		{[]string{"export", "--keep-recent-turns", "-3", "x"}, 2, "0 or more"},
		{[]string{"--bogus"}, 2, "bogus"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.inStderr) {
			t.Errorf("inspect %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errs, c.code, c.inStderr)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	if code, out, _ := runCLI("--help"); code != 0 || !strings.Contains(out, "inspect export") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
	if code, out, _ := runCLI("--version"); code != 0 || !strings.HasPrefix(out, "inspect ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}
