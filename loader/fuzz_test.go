package loader

import (
	"bytes"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// checkReadInvariants is what must hold for any input: Read returns a
// recording or an error, never both or neither, and a recording is well
// formed (runs numbered from 1, every message with its own ID: below 0
// for those made for a call the input left open).
func checkReadInvariants(t *testing.T, data []byte) {
	rec, err := Read(bytes.NewReader(data), "fuzz")
	if (rec == nil) == (err == nil) {
		t.Fatalf("Read returned recording %v and error %v", rec != nil, err)
	}
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, "fuzz: ") {
			t.Fatalf("error %q does not name the input", msg)
		}
		return
	}
	seen := map[int]bool{}
	id := func(m *model.Message) {
		if m == nil || m.ID == 0 || seen[m.ID] {
			t.Fatalf("message %+v: missing, unnumbered or numbered twice", m)
		}
		seen[m.ID] = true
	}
	for i, r := range rec.Runs {
		if r.Index != i+1 {
			t.Fatalf("run %d has Index %d", i+1, r.Index)
		}
		if r.RequestMessage != nil {
			id(r.RequestMessage)
		}
		for _, c := range r.Calls {
			for _, m := range c.Appended {
				id(m)
			}
		}
	}
	if len(rec.Problems) > maxProblems+1 {
		t.Fatalf("%d problems kept", len(rec.Problems))
	}
}

func FuzzNDJSON(f *testing.F) {
	lines := s01Lines(f)
	f.Add([]byte(strings.Join(lines[:40], "\n") + "\n"))
	f.Add([]byte(strings.Join(lines[:17], "\n")))
	for _, odd := range []string{
		"",
		"\n\n",
		`{"type":"agentfootprint.stream.llm_end"}`,
		`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[{"role":"user","content":[1]}]}}`,
		`{"type":"agentfootprint.stream.llm_start","payload":{"messagesCount":-1}}` + "\n" +
			`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[{"toolCalls":[{"id":1}]}]}}`,
		`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"ffffffff","position":99999999}}`,
		`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"x","error":{"message":7}}}`,
		"{\"type\":\"agentfootprint.agent.turn_start\",\"payload\":{\"userPrompt\":\"\xff\"}}\r\n[]\r\n{",
	} {
		f.Add([]byte(odd))
	}
	f.Fuzz(checkReadInvariants)
}

const smallEnvelope = `{"format":"agentfootprint.recording.v1","producer":{"agentfootprintVersion":"9.62.0"},` +
	`"run":{"runId":"r1","complete":true,"droppedEvents":0},"configuration":{},"privacy":{"mode":"full"},` +
	`"recording":{"snapshot":{"sharedState":{"compactions":[{"strategy":"sliding-window","iteration":1,"keepRecentTurns":2,` +
	`"removedMessageCount":2,"windowCharsBefore":900,"windowCharsAfter":300,"turnsBefore":3,"turnsAfter":2,` +
	`"refusals":[{"reason":"current-request","turnIndex":0,"messageIndex":0}]}]},"executionTree":{"next":{"next":{"a":[1,"}"]}}}},` +
	`"events":[` +
	`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"hi"},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"be692eae","position":0},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.stream.llm_end","payload":{"content":"","usage":{"input":3,"output":4}},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"t","toolCallId":"c","args":{"q":1}},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c","result":{"ok":true}},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[{"role":"user","content":"hi"},` +
	`{"role":"assistant","content":"","toolCalls":[{"id":"c","name":"t","args":{"q":1}}]},{"role":"tool","content":"{\"ok\":true}","toolCallId":"c","toolName":"t"}]},"meta":{"runId":"r1"}},` +
	`{"type":"agentfootprint.agent.turn_end","payload":{},"meta":{"runId":"r1"}}` +
	`]},"structure":{}}`

func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(smallEnvelope))
	f.Add([]byte("[" + smallEnvelope + "," + strings.ReplaceAll(smallEnvelope, "r1", "r2") + "]"))
	f.Add([]byte(smallEnvelope[:len(smallEnvelope)/2]))
	f.Add(gz([]byte(smallEnvelope)))
	f.Add([]byte(`[{"format":"agentfootprint.recording.v1","recording":{"events":[{"type":"agentfootprint.x"}]}}]`))
	f.Fuzz(checkReadInvariants)
}

// TestSmallEnvelope pins what the fuzz seed loads to, so the seed is known
// to reach the envelope's events and records.
func TestSmallEnvelope(t *testing.T) {
	rec, err := Read(strings.NewReader(smallEnvelope), "small.json")
	if err != nil {
		t.Fatal(err)
	}
	r := rec.Runs[0]
	if rec.Format != model.FormatEnvelope || len(rec.Runs) != 1 || r.RunID != "r1" || !r.Complete || len(rec.Problems) != 0 {
		t.Fatalf("format %q, %d runs, problems %v", rec.Format, len(rec.Runs), rec.Problems)
	}
	if !r.HasRecords || len(r.Records) != 1 || r.Records[0].Iteration != 1 || len(r.Records[0].Refusals) != 1 {
		t.Errorf("records %+v", r.Records)
	}
	c := r.Calls[0]
	// The history's window wins over the injected one.
	if len(c.Recorded) != 1 || c.Recorded[0].Role != "user" || c.Recorded[0].Content != "hi" || len(c.Appended) != 2 ||
		c.Appended[1].Content != `{"ok":true}` || c.Usage.Output != 4 {
		t.Errorf("call %+v", c)
	}
}
