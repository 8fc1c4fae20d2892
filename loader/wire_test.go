package loader

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// The expected values in these tests come from the recordings themselves:
// wire.json is what the scripted model received on every call, captured
// outside the library, and README.txt describes each scenario.

const testdata = "../testdata"

type wireFile struct {
	Library string `json:"library"`
	Policy  struct {
		Strategy string `json:"strategy"`
	} `json:"policy"`
	Calls []wireCall `json:"calls"`
	Runs  []struct {
		Run     int    `json:"run"`
		Message string `json:"message"`
	} `json:"runs"` // only in scenarios with several runs

	// derived is set for a wire.json computed by the reference rules
	// rather than sent by the library (t01-toolchars): it has no model
	// responses, and the log's context.injected hashes are those of the
	// recording it was derived from.
	derived bool
}

type wireCall struct {
	Call         int           `json:"call"`
	Run          int           `json:"run"`
	Iteration    int           `json:"iteration"`
	MessageCount int           `json:"messageCount"`
	Messages     []wireMessage `json:"messages"`
	Response     *struct {
		Content   string         `json:"content"`
		ToolCalls []wireToolCall `json:"toolCalls"`
		Usage     model.Usage    `json:"usage"`
	} `json:"response"` // absent in a derived wire.json
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"toolCallId"`
	ToolName   string         `json:"toolName"`
	ToolCalls  []wireToolCall `json:"toolCalls"`
}

type wireToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// scenarios lists the folders of ../testdata that hold a run.jsonl.
func scenarios(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(testdata, "*", "run.jsonl"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios under %s (%v)", testdata, err)
	}
	var out []string
	for _, d := range dirs {
		if name := filepath.Base(filepath.Dir(d)); !manyChains[name] {
			out = append(out, name)
		}
	}
	return out
}

// manyChains are the recordings of several conversations, agents or a
// resumed run in one file, or of a run that continues one with no final
// answer: their runs are not one chain of answered runs in file order, so
// the checks above, which walk runs in order, do not apply. They are
// checked by TestSegmentsAndAgents and TestCompositionAgentsAndPasses here
// and replayed against their wire by window's TestChainsMatchWire and
// TestCompositionsAndContinuationsMatchWire.
var manyChains = map[string]bool{
	"c01-two-conversations": true, "c02-interleaved-agents": true,
	"c06b-composition-sequence": true, "c07-paused-tool": true,
	"n02-abort-then-followup": true, "n06-parallel-composition": true, "n07-loop-conditional": true,
}

// minimalLogs are the recordings whose run.jsonl was written at tier
// minimal: no stream events, no window for each run's last call. Their
// logs are checked by TestMinimalCallsFromIterationEnd; their envelopes,
// which hold every event, like any other.
var minimalLogs = map[string]bool{"n09-tier-minimal": true}

func readWire(t *testing.T, scenario string) *wireFile {
	t.Helper()
	return readWireAt(t, filepath.Join(testdata, scenario, "wire.json"))
}

func readWireAt(t testing.TB, path string) *wireFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var w wireFile
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	w.derived = strings.HasPrefix(w.Library, "DERIVED")
	return &w
}

func mustLoad(t testing.TB, path string) *model.Recording {
	t.Helper()
	rec, err := Load(path)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	return rec
}

// flatCall is a call with the index of its run.
type flatCall struct {
	run  int
	call *model.Call
	r    *model.Run
}

func flatten(rec *model.Recording) []flatCall {
	var out []flatCall
	for _, r := range rec.Runs {
		for _, c := range r.Calls {
			out = append(out, flatCall{r.Index, c, r})
		}
	}
	return out
}

func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

func sameToolCalls(got []model.ToolCall, want []wireToolCall) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].ID != want[i].ID || got[i].Name != want[i].Name || !sameJSON(got[i].Args, want[i].Args) {
			return false
		}
	}
	return true
}

// sameMessage compares what reaches the wire: role, content, tool call id
// and name, tool calls (args as JSON values).
func sameMessage(got *model.Message, want wireMessage) bool {
	return got.Role == want.Role && got.Content == want.Content &&
		got.ToolCallID == want.ToolCallID && got.ToolName == want.ToolName &&
		sameToolCalls(got.ToolCalls, want.ToolCalls)
}

// checkAgainstWire compares the calls of a loaded recording with the wire
// capture. want is how many calls the input covers.
func checkAgainstWire(t testing.TB, rec *model.Recording, w *wireFile, want int) {
	t.Helper()
	calls := flatten(rec)
	if len(calls) != want {
		t.Fatalf("%d calls loaded, want %d (wire.json has %d)", len(calls), want, len(w.Calls))
	}
	for i, fc := range calls {
		c, wc := fc.call, w.Calls[i]
		if fc.run != wc.Run || c.Iteration != wc.Iteration || c.MessagesCount != wc.MessageCount {
			t.Errorf("call %d: run/iteration/messagesCount %d/%d/%d, wire %d/%d/%d",
				wc.Call, fc.run, c.Iteration, c.MessagesCount, wc.Run, wc.Iteration, wc.MessageCount)
		}
		if wc.Response != nil && c.Ended && c.Usage != wc.Response.Usage {
			t.Errorf("call %d: usage %+v, wire %+v", wc.Call, c.Usage, wc.Response.Usage)
		}
		checkHashes(t, calls, i, wc, w.derived)
		checkAppended(t, calls, i, w)
	}
}

// checkHashes: every call's Recorded window is the wire window, role and
// content, message by message, including a run's last call. It comes
// from the call's iteration_end history (the window as sent) and, on a
// run's last call, which has none, from context.injected. In a derived
// recording (t01) the injected messages are those of the recording it
// came from, so a run's last call is not compared.
func checkHashes(t testing.TB, calls []flatCall, i int, wc wireCall, derived bool) {
	t.Helper()
	c := calls[i].call
	lastOfRun := i+1 == len(calls) || calls[i+1].run != calls[i].run
	if derived && lastOfRun {
		return
	}
	if len(c.Recorded) != len(wc.Messages) {
		t.Errorf("call %d: %d recorded messages, wire window has %d", wc.Call, len(c.Recorded), len(wc.Messages))
		return
	}
	for k, m := range wc.Messages {
		if r := c.Recorded[k]; r.Role != m.Role || r.Content != m.Content {
			t.Errorf("call %d message %d: recorded %s %.60q, wire %s %.60q", wc.Call, k, r.Role, r.Content, m.Role, m.Content)
		}
	}
}

// checkAppended: a call's first appended message is the model's response;
// each appended message is in the next call's window when that call is in
// the same run (the newest turn is never dropped).
func checkAppended(t testing.TB, calls []flatCall, i int, w *wireFile) {
	t.Helper()
	c, wc := calls[i].call, w.Calls[i]
	if !c.Ended {
		if c.Appended != nil {
			t.Errorf("call %d never ended but has %d appended messages", wc.Call, len(c.Appended))
		}
		return
	}
	if len(c.Appended) == 0 {
		// a final answer: the run's, appended at turn_end
		r := calls[i].r
		if r.FinalMessage != nil && (wc.Response == nil || len(wc.Response.ToolCalls) == 0 && r.FinalMessage.Content == wc.Response.Content) {
			return
		}
		t.Fatalf("call %d ended but appended nothing, and is no final answer", wc.Call)
	}
	if a := c.Appended[0]; a.Role != model.RoleAssistant {
		t.Errorf("call %d: first appended message is %s, not the assistant's", wc.Call, a.Role)
	}
	if a := c.Appended[0]; wc.Response != nil && (a.Content != wc.Response.Content || !sameToolCalls(a.ToolCalls, wc.Response.ToolCalls)) {
		t.Errorf("call %d: first appended %s %.60q with %d tool calls, wire response %.60q with %d",
			wc.Call, a.Role, a.Content, len(a.ToolCalls), wc.Response.Content, len(wc.Response.ToolCalls))
	}
	if i+1 >= len(w.Calls) || w.Calls[i+1].Run != wc.Run {
		return
	}
	next := w.Calls[i+1].Messages
	for _, m := range c.Appended {
		found := false
		for _, n := range next {
			found = found || sameMessage(m, n)
		}
		if !found {
			t.Errorf("call %d: appended %s %.60q is not in call %d's window", wc.Call, m.Role, m.Content, wc.Call+1)
		}
	}
}

// firstCall is the wire call that opened run r, nil if none did.
func (w *wireFile) firstCall(r int) *wireCall {
	for k := range w.Calls {
		if w.Calls[k].Run == r {
			return &w.Calls[k]
		}
	}
	return nil
}

// checkRuns: requests, strategy, and each finished run's final answer as
// the next run's first window carries it (right before the new request).
func checkRuns(t testing.TB, rec *model.Recording, w *wireFile) {
	t.Helper()
	for _, r := range rec.Runs {
		first := w.firstCall(r.Index)
		if first == nil {
			t.Fatalf("run %d loaded, wire.json has no call in it", r.Index)
		}
		// A run's first window ends with its request.
		want := first.Messages[len(first.Messages)-1].Content
		if r.Index <= len(w.Runs) && w.Runs[r.Index-1].Message != want {
			t.Fatalf("wire.json: run %d message %.60q is not its first window's last", r.Index, w.Runs[r.Index-1].Message)
		}
		if r.Request != want || r.RequestMessage == nil || r.RequestMessage.Content != want || r.RequestMessage.Role != model.RoleUser {
			t.Errorf("run %d: request %.60q, wire %.60q", r.Index, r.Request, want)
		}
		if r.Strategy != w.Policy.Strategy {
			t.Errorf("run %d: strategy %q, wire policy %q", r.Index, r.Strategy, w.Policy.Strategy)
		}
		if r.Index == len(rec.Runs) {
			continue
		}
		if !r.Complete {
			t.Errorf("run %d is followed by another but not complete", r.Index)
		}
		next := w.firstCall(r.Index + 1)
		if next == nil {
			t.Fatalf("wire.json has no call in run %d", r.Index+1)
		}
		msgs := next.Messages
		if n := len(msgs); n < 2 || msgs[n-1].Role != model.RoleUser || msgs[n-2].Role != model.RoleAssistant || msgs[n-2].Content != r.FinalAnswer {
			t.Errorf("run %d: final answer %.60q is not right before run %d's request in call %d", r.Index, r.FinalAnswer, r.Index+1, next.Call)
		}
	}
}
