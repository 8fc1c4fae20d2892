package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// The fast decoder must agree with the reference decoder (encoding/json)
// on everything it builds, and the block pipeline with the one-block
// path, however the blocks fall.

func readWith(data []byte, opts options) (*model.Recording, error) {
	return startReader(bytes.NewReader(data), "in", int64(len(data)), opts).Wait()
}

// ways are the ways one input is read; all must give the same recording.
var ways = []struct {
	name string
	opts options
}{
	{"reference", options{reference: true}},
	{"fast", options{}},
	{"fast, 61-byte blocks", options{blockSize: 61}},
	{"reference, 1 KB blocks, 1 worker", options{reference: true, blockSize: 1 << 10, workers: 1}},
}

func checkSameWays(t testing.TB, data []byte) {
	t.Helper()
	want, wantErr := readWith(data, ways[0].opts)
	for _, w := range ways[1:] {
		got, err := readWith(data, w.opts)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: error %v, reference %v", w.name, err, wantErr)
		}
		if d := recordingDiff(got, want); d != "" {
			t.Fatalf("%s differs from the reference: %s", w.name, d)
		}
	}
}

// recordingDiff names the first difference between two recordings.
func recordingDiff(a, b *model.Recording) string {
	if (a == nil) != (b == nil) {
		return fmt.Sprintf("recording %v vs %v", a != nil, b != nil)
	}
	if a == nil {
		return ""
	}
	if !reflect.DeepEqual(a.Problems, b.Problems) {
		return fmt.Sprintf("problems\n%v\nvs\n%v", a.Problems, b.Problems)
	}
	if ra, rb := repeatedByID(a), repeatedByID(b); !reflect.DeepEqual(ra, rb) {
		return fmt.Sprintf("repeated results %v vs %v", ra, rb)
	}
	if a.Format != b.Format || len(a.Runs) != len(b.Runs) {
		return fmt.Sprintf("format %s/%s, %d/%d runs", a.Format, b.Format, len(a.Runs), len(b.Runs))
	}
	for i, r := range a.Runs {
		s := b.Runs[i]
		if len(r.Calls) != len(s.Calls) {
			return fmt.Sprintf("run %d: %d/%d calls", i+1, len(r.Calls), len(s.Calls))
		}
		for k, c := range r.Calls {
			if !reflect.DeepEqual(c, s.Calls[k]) {
				return fmt.Sprintf("run %d call %d:\n%s\nvs\n%s", i+1, k+1, dump(c), dump(s.Calls[k]))
			}
		}
		if !reflect.DeepEqual(r, s) {
			return fmt.Sprintf("run %d:\n%s\nvs\n%s", i+1, dump(r), dump(s))
		}
	}
	return ""
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFastMatchesReference reads every recording here each way.
func TestFastMatchesReference(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testdata, "*", "run.jsonl"))
	envs, _ := filepath.Glob(filepath.Join(testdata, "*", "recording.json.gz"))
	paths = append(paths, envs...) // and s08's: BenchmarkLongRunAgainstWire
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(path, func(t *testing.T) { checkSameWays(t, data) })
	}
}

// oddLines are shapes the fast decoder leaves to the reference one, or
// reads itself though the library never writes them.
var oddLines = []string{
	`{"TYPE":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"Iteration":2,"messagesCount":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1e0,"messagesCount":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"iteration":3,"messagesCount":1},"meta":{"runId":"r"}}`,
	`{"payload":{"iteration":4,"messagesCount":0},"meta":{"runId":"r"},"type":"agentfootprint.stream.llm_start"}`,
	`{"type":"agentfootprint.stream.llm_end","payload":{"content":"a\"b\\u00e9\ud83d\ude00\ud800x","usage":{"input":2,"output":null}},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_end","payload":null,"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.tool_start","payload":{"toolName":"t","toolCallId":"c","args":[1, 2 ,{"x":null}]},"meta":{"r\u0075nId":"r"}}`,
	`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c","result":{"a": [1, 2.5e3]}, "error":{"message":"m\n"}},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"00000000FF","position":null},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","contentHash":"1ffffffff","position":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"mess\u0061ges","contentHash":"Ab","position":2},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[{"content":"x\u2028","role":"user"},{"role":"assistant","content":null,"toolCalls":[null,{"id":"c","name":null,"args":null}],"toolChars":3.5,"ephemeral":true}]},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[{"role":"tool","content":{"b":1}},null]},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.run_configured","payload":{"window":""},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.run_configured","payload":{"window":7},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.budget_pressure","payload":{"unit":"tokens","cap":1.5e3},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.turn_end","meta":null}`,
	// §10: composition and subflow paths, a window named nowhere, deliveries
	`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"s"},"meta":{"runId":"r","compositionPath":["Sequence:p\u0069pe","x"],"subflowPath":["step-a","sf-messages"]}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r","compositionPath":["Sequence:pipe",7],"subflowPath":null}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r","compositionPath":["Agent:a"],"subflowPath":[null]}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r","CompositionPath":["Sequence:q"],"subflowPath":["step-b"]}}`,
	`{"type":"agentfootprint.composition.enter","payload":{},"meta":{"runId":"consumer-scope","compositionPath":[]}}`,
	`{"type":"agentfootprint.agent.run_configured","payload":{"agentId":"a"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.run_configured","payload":{"agentId":"a","window":null},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.turn_end","payload":{"finalContent":{"not":"text"}},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","asRole":"tool","rawContent":"a\n\u00e9","sourceId":"c1","position":0,"reason":"rag"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","asRole":"user","rawContent":7,"position":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"system-prompt","rawContent":null,"contentSummary":"sum\u00e9"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":2,"history":[{"role":"user","content":"d","injectedBy":{"iteration":2,"source":"x"}},{"role":"user","content":"e","injectedBy":null}]},"meta":{"runId":"r"}}`,
	`{"type":"elsewhere.event","payload":{"x":[[[[]]]]}}`,
	`  {"type" : "agentfootprint.x" , "payload" : { } , "meta" : { "runId" : "r2" } }  `,
	`{"type":"agentfootprint.x","payload":{"a":01}}`,
	`{"type":"agentfootprint.x","payload":{"a":"\x"}}`,
	`{"type":"agentfootprint.x","payload":{"a":"tab	in string"}}`,
	`{"type":"agentfootprint.x","payload":{"a":-}}`,
	`{"type":"agentfootprint.x"} trailing`,
	"{\"type\":\"agentfootprint.x\",\"payload\":{\"a\":\"caf\xe9\"}}",
	`{"type":"agentfootprint.x","payload":{"a":"\ud800"}}`,
	"\f\u00a0",
	`[]`,
	`"agentfootprint.x"`,
	// a newline is a line's end, never white space or string text
	"{\"type\":\"agentfootprint.x\",\n\"payload\":{}}",
	"{\"type\":\"agentfootprint.x\",\"payload\":{\"a\":\"" + strings.Repeat("x", 300) + "\n" + strings.Repeat("y", 300) + "\"}}",
	"{\"type\":\"agentfootprint.x\",\"payload\":{\"a\":\"" + strings.Repeat("x", 300) + "\n\"}}",
	"{\"type\":\"agentfootprint.x\",\"payload\":{}} \t\r",
	"{\"type\":\"agentfootprint.x\",\"payload\":{}}\r\r",
}

// alikeLines hold long strings that start alike, where the decoder's
// memory of checked strings (skipSeen) reads them: found by their start,
// each must still be read as itself.
func alikeLines() []string {
	x := strings.Repeat("x", 298)
	texts := []string{x + "xx", x + "xy", x + `xx\"y`, x + `\\`, x + `\\\"`, x + "xxx", x + `xx\u0001`, x + `xx\u00e9`}
	var out []string
	for i, t := range texts {
		out = append(out,
			fmt.Sprintf(`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","asRole":"tool","rawContent":"%s","sourceId":"c%d","position":%d},"meta":{"runId":"r"}}`, t, i, i),
			fmt.Sprintf(`{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c%d","result":"%s"},"meta":{"runId":"r"}}`, i, t))
	}
	hist := `{"type":"agentfootprint.agent.iteration_end","payload":{"history":[`
	for i, t := range texts {
		if i > 0 {
			hist += ","
		}
		hist += fmt.Sprintf(`{"role":"tool","content":"%s","toolCallId":"c%d"}`, t, i)
	}
	out = append(out, hist+`]},"meta":{"runId":"r"}}`)
	out = append(out, `{"type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"c9","result":"`+x+`xx`)
	return out
}

// TestAlikeStrings reads alikeLines each way, twice over (the second time
// from the decoder's memory).
func TestAlikeStrings(t *testing.T) {
	base := []string{fmt.Sprintf(turnStart, "go"), llmStart}
	lines := append(append(base, alikeLines()...), alikeLines()...)
	checkSameWays(t, []byte(strings.Join(lines, "\n")))
}

// TestOddLines reads lines of unusual shape each way, together and one
// at a time after the start of a call.
func TestOddLines(t *testing.T) {
	base := []string{fmt.Sprintf(turnStart, "go"), llmStart}
	checkSameWays(t, []byte(strings.Join(append(base, oddLines...), "\n")))
	for i, l := range oddLines {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkSameWays(t, []byte(strings.Join(append(base, l, llmEnd), "\r\n")))
		})
	}
}

func FuzzDifferential(f *testing.F) {
	lines := s01Lines(f)
	f.Add([]byte(strings.Join(lines[:40], "\n") + "\n"))
	f.Add([]byte(surrogatesEverywhere(strings.Join(lines[:40], "\n") + "\n")))
	for _, l := range oddLines {
		f.Add([]byte(llmStart + "\n" + l))
	}
	f.Add([]byte(smallEnvelope))
	f.Add([]byte(strings.Join(append(append([]string{llmStart}, alikeLines()...), alikeLines()...), "\n")))
	f.Fuzz(func(t *testing.T, data []byte) { checkSameWays(t, data) })
}

// repeatedByID is RepeatedResults keyed by message number, comparable
// across two loads.
func repeatedByID(r *model.Recording) map[int]string {
	out := map[int]string{}
	for m, text := range r.RepeatedResults {
		out[m.ID] = text
	}
	return out
}

// A line read in place ends at its newline, whatever follows it: an
// event cut over two lines that would be one event joined is two bad
// lines, two events on one line one bad line, and spaces and carriage
// returns before the newline are the line's. Each way of reading gives
// the reference's recording, and the problems are at the lines a person
// counts (checked by hand: lines 3 and 4 are the halves, 6 the pair).
func TestLinesReadInPlaceEndAtTheirNewline(t *testing.T) {
	start := fmt.Sprintf(turnStart, "go")
	half := strings.Index(llmStart, `"messagesCount"`)
	lines := []string{
		start,
		llmStart + "  \r",
		llmStart[:half], // line 3: the first half of an event
		llmStart[half:], // line 4: its second half
		llmEnd + " \t",
		llmStart + llmStart, // line 6: two events on one line
		llmStart,
		llmEnd,
	}
	for _, end := range []string{"", "\n"} {
		data := []byte(strings.Join(lines, "\n") + end)
		checkSameWays(t, data)
		rec, err := readWith(data, options{})
		if err != nil {
			t.Fatal(err)
		}
		var at []int
		for _, p := range rec.Problems {
			at = append(at, p.Line)
		}
		if !slices.Equal(at, []int{3, 4, 6}) {
			t.Errorf("problems at lines %v, want 3, 4 and 6: %v", at, rec.Problems)
		}
		if n := len(rec.Runs); n != 1 || len(rec.Runs[0].Calls) != 2 {
			t.Errorf("%d runs, want one of 2 calls", n)
		}
	}
}
