package loader

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// factsWire is what wire.json says the scripted provider returned on each
// call, and the system prompt the library sent with it.
type factsWire struct {
	Calls []struct {
		SystemPrompt *string `json:"systemPrompt"`
		Response     *struct {
			Content    string         `json:"content"`
			ToolCalls  []wireToolCall `json:"toolCalls"`
			Usage      *model.Usage   `json:"usage"`
			StopReason *string        `json:"stopReason"`
		} `json:"response"`
	} `json:"calls"`
	Evidence []struct {
		Call int `json:"call"`
	} `json:"evidence"`
}

// Every call's response and system prompt (docs/rules/evidence.md §6.1, §3)
// as the scripted provider saw them, in every recording that has them.
func TestCallFactsFromWire(t *testing.T) {
	for _, name := range scenarios(t) {
		raw, err := os.ReadFile(filepath.Join(testdata, name, "wire.json"))
		if err != nil {
			t.Fatal(err)
		}
		var w factsWire
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatal(err)
		}
		calls := flatten(mustLoad(t, filepath.Join(testdata, name, "run.jsonl")))
		if len(calls) > len(w.Calls) || len(calls) < len(w.Calls) && !strings.Contains(name, "truncated") {
			t.Errorf("%s: %d calls, wire %d", name, len(calls), len(w.Calls))
			continue
		}
		judged := map[int]bool{}
		for _, e := range w.Evidence {
			judged[e.Call] = true
		}
		for i, wc := range w.Calls[:len(calls)] {
			if !calls[i].call.Ended {
				continue // a log cut off in the middle of the call
			}
			f := calls[i].call.Facts
			if wc.SystemPrompt != nil && *wc.SystemPrompt != strings.Join(f.SystemPrompt, "\n\n") {
				t.Errorf("%s call %d: system prompt %q, wire %q", name, i+1, f.SystemPrompt, *wc.SystemPrompt)
			}
			if (f.EvidenceChecked != nil) != judged[i+1] {
				t.Errorf("%s call %d: evidence_checked %s, wire says judged %v", name, i+1, f.EvidenceChecked, judged[i+1])
			}
			r := wc.Response
			if r == nil {
				continue
			}
			if f.Response.Content != r.Content || !sameToolCalls(f.Response.ToolCalls, r.ToolCalls) {
				t.Errorf("%s call %d: response %q %v, wire %q %v", name, i+1, f.Response.Content, f.Response.ToolCalls, r.Content, r.ToolCalls)
			}
			if r.Usage != nil && (f.Response.Usage == nil || *f.Response.Usage != *r.Usage) {
				t.Errorf("%s call %d: usage %v, wire %v", name, i+1, f.Response.Usage, r.Usage)
			}
			if r.StopReason != nil && (f.Response.StopReason == nil || *f.Response.StopReason != *r.StopReason) {
				t.Errorf("%s call %d: stop reason %v, wire %q", name, i+1, f.Response.StopReason, *r.StopReason)
			}
		}
	}
}

// A repeated call's tool_end text is its message's own bytes; the event
// may come before or after iteration_end. (Lines written after the shape
// of c02-interleaved-agents' log.)
func TestRepeatedCall(t *testing.T) {
	meta := `,"meta":{"runId":"r1"}}`
	content := `{\"a\":1}\n\n[identical call: 'get' has now returned exactly this result 2 times this turn]`
	base := []string{
		`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"go"}` + meta,
		`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1}` + meta,
		`{"type":"agentfootprint.stream.llm_end","payload":{"content":"","usage":{"input":1,"output":1},"stopReason":"tool_use"}` + meta,
		`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"get","toolCallId":"c1","args":{}}` + meta,
		`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c1","result":{"a":1}}` + meta,
	}
	repeated := `{"type":"agentfootprint.tools.repeated_call","payload":{"toolName":"get","toolCallId":"c1","iteration":1,"occurrences":2}` + meta
	iterEnd := `{"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":1,"history":[{"role":"user","content":"go"},{"role":"assistant","content":"","toolCalls":[{"id":"c1","name":"get","args":{}}]},{"role":"tool","content":"` + content + `","toolCallId":"c1","toolName":"get"}]}` + meta
	for _, order := range [][]string{{repeated, iterEnd}, {iterEnd, repeated}, {repeated}} {
		data := []byte(strings.Join(slices.Concat(base, order), "\n") + "\n")
		checkSameWays(t, data)
		rec, err := readWith(data, options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for m, text := range rec.RepeatedResults {
			got[m.Role] = text
		}
		if len(got) != 1 || got[model.RoleTool] != `{"a":1}` {
			t.Errorf("order %d lines: repeated results %q (problems %v)", len(order), got, rec.Problems)
		}
	}
}
