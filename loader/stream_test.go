package loader

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/toolbytes"
)

// withoutHistory rewrites a log with every iteration_end stripped of its
// history, the way a run's last iteration always is.
func withoutHistory(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.Contains(line, []byte(`"type":"`+evIterationEnd+`"`)) {
			var ev map[string]json.RawMessage
			var p map[string]json.RawMessage
			if json.Unmarshal(line, &ev) != nil || json.Unmarshal(ev["payload"], &p) != nil {
				t.Fatalf("%s: cannot rewrite %.80s", path, line)
			}
			delete(p, "history")
			ev["payload"], _ = json.Marshal(p)
			line, _ = json.Marshal(ev)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestAppendedFromStream: without history, a call's appended messages are
// rebuilt from llm_end and the tool events, and equal what the library put
// in history: the assistant message with its tool calls, then each tool's
// result as the model got it. A library note after toolChars is not in the
// tool's own result (t01-toolchars).
func TestAppendedFromStream(t *testing.T) {
	for _, sc := range scenarios(t) {
		if minimalLogs[sc] {
			continue // no stream to rebuild from
		}
		t.Run(sc, func(t *testing.T) {
			path := filepath.Join(testdata, sc, "run.jsonl")
			full := mustLoad(t, path)
			bare, err := Read(bytes.NewReader(withoutHistory(t, path)), "bare")
			if err != nil {
				t.Fatal(err)
			}
			fc, bc := flatten(full), flatten(bare)
			if len(fc) != len(bc) {
				t.Fatalf("%d calls with history, %d without", len(fc), len(bc))
			}
			tools := 0
			for i := range fc {
				f, b := fc[i].call, bc[i].call
				if !f.Ended || slices.ContainsFunc(f.Appended, (*model.Message).IsCorrection) {
					// an answer the check sent back (e01-guard, e02-rails):
					// its history appends the answer and the library's
					// correction, which llm_end and the tool events do not
					// carry (the next call's context.injected does)
					continue
				}
				if len(f.Appended) != len(b.Appended) {
					t.Errorf("call %d: %d appended from history, %d from the stream", i+1, len(f.Appended), len(b.Appended))
					continue
				}
				for k, h := range f.Appended {
					want := *h
					if want.ToolChars != nil {
						want.Content, _ = toolbytes.Split(want.Content, want.ToolChars)
						want.ToolChars = nil
					}
					want.ID = b.Appended[k].ID
					if !sameMessageJSON(&want, b.Appended[k]) {
						t.Errorf("call %d appended %d: history %s %.60q, stream %s %.60q", i+1, k, want.Role, want.Content, b.Appended[k].Role, b.Appended[k].Content)
					}
					if h.Role == model.RoleTool {
						tools++
					}
				}
			}
			if tools == 0 {
				t.Error("no tool message compared")
			}
		})
	}
}

// TestToolContent: a tool_end result as the model gets it (JavaScript: a
// string as is, anything else JSON.stringify'd; a thrown error's message).
func TestToolContent(t *testing.T) {
	cases := []struct{ result, err, want string }{
		{`"plain text"`, ``, `plain text`},
		{`"with \"quotes\" and \u00e9"`, ``, `with "quotes" and é`},
		{"\"caf\xe9\"", ``, "caf\uFFFD"},
		{`{"b": 1, "a": [1, 2.50, "x"]}`, ``, `{"b":1,"a":[1,2.50,"x"]}`},
		{`42`, ``, `42`},
		{`null`, ``, `null`},
		{``, ``, ``},
		{`"timeout after 30s"`, `true`, `timeout after 30s`},
		{`null`, `"connection refused"`, `connection refused`},
		{`null`, `{"name":"Error","message":"no such host"}`, `no such host`},
		{`null`, `{"code":7}`, `{"code":7}`},
		{`"fine"`, `false`, `fine`},
	}
	for _, c := range cases {
		if got := toolContent(json.RawMessage(c.result), json.RawMessage(c.err)); got != c.want {
			t.Errorf("toolContent(%s, %s) = %q, want %q", c.result, c.err, got, c.want)
		}
	}
}

// TestToolEndError: an errored tool in a log with no history becomes a
// tool message holding the error text.
func TestToolEndError(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"go"},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.llm_end","payload":{"iteration":1,"content":"try","usage":{"input":5,"output":2}},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"fetch","toolCallId":"c1","args":{"url":"x","n":1}},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"fetch","toolCallId":"c2","args":{}},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c2","result":{"ok":true}},"meta":{"runId":"r"}}`,
		`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c1","result":"boom: refused","error":true},"meta":{"runId":"r"}}`,
	}, "\n")
	rec, err := Read(strings.NewReader(log), "errors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got := rec.Runs[0].Calls[0].Appended
	want := []model.Message{
		{Role: "assistant", Content: "try", ToolCalls: []model.ToolCall{
			{ID: "c1", Name: "fetch", Args: json.RawMessage(`{"url":"x","n":1}`)},
			{ID: "c2", Name: "fetch", Args: json.RawMessage(`{}`)},
		}},
		{Role: "tool", Content: "boom: refused", ToolCallID: "c1", ToolName: "fetch"},
		{Role: "tool", Content: `{"ok":true}`, ToolCallID: "c2", ToolName: "fetch"},
	}
	if len(got) != len(want) {
		t.Fatalf("appended %d messages, want %d", len(got), len(want))
	}
	for i := range want {
		want[i].ID = got[i].ID
		if !sameMessageJSON(got[i], &want[i]) {
			t.Errorf("appended %d = %+v, want %+v", i, *got[i], want[i])
		}
	}
	if len(rec.Problems) != 0 || rec.Runs[0].FinalAnswer != "try" {
		t.Errorf("problems %v, final answer %q", rec.Problems, rec.Runs[0].FinalAnswer)
	}
}
