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

// The tier of a log (docs/rules/versions-and-tiers.md §16.2), told from the event types
// it holds.
func TestTierOfLog(t *testing.T) {
	const (
		start   = `{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"q"},"meta":{"runId":"r1"}}`
		iterEnd = `{"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":1,"toolCallCount":0,"history":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]},"meta":{"runId":"r1"}}`
		llm     = `{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1},"meta":{"runId":"r1"}}`
		token   = `{"type":"agentfootprint.stream.token","payload":{"iteration":1,"tokenIndex":0,"content":"a"},"meta":{"runId":"r1"}}`
		evicted = `{"type":"agentfootprint.context.evicted","payload":{"slot":"messages"},"meta":{"runId":"r1"}}`
		end     = `{"type":"agentfootprint.agent.turn_end","payload":{"finalContent":"a"},"meta":{"runId":"r1"}}`
	)
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"agent events with iteration_end only", []string{start, iterEnd, end}, model.TierMinimal},
		{"a stream event", []string{start, llm, iterEnd, end}, model.TierStandard},
		{"a context event alone", []string{start, evicted, iterEnd, end}, model.TierStandard},
		{"a stream.token", []string{start, llm, token, iterEnd, end}, model.TierFirehose},
		{"no iteration_end and no stream", []string{start, end}, model.TierStandard},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range ways {
				rec, err := readWith([]byte(joined(c.lines)), w.opts)
				if err != nil {
					t.Fatal(err)
				}
				if rec.Tier != c.want {
					t.Errorf("%s: tier %q, want %q", w.name, rec.Tier, c.want)
				}
			}
		})
	}
}

// n09wire is what the test reads of n09's wire.json: the messages of
// every call, the model's answer, and the library's verdicts.
type n09wire struct {
	Calls []struct {
		Run       int `json:"run"`
		Iteration int `json:"iteration"`
		Messages  []struct {
			Role, Content string
		} `json:"messages"`
		Response struct {
			Content string `json:"content"`
		} `json:"response"`
	} `json:"calls"`
	Evidence []struct {
		Call int `json:"call"`
	} `json:"evidence"`
}

// At tier minimal every iteration_end stands for its call (§16.3): the
// window is the history but its last 1 + toolCallCount messages, each
// run's last call has no window in the log, and the answers come from the
// history or from turn_end (docs/rules/evidence.md §9.6). The expected values
// are the library's wire capture.
func TestMinimalCallsFromIterationEnd(t *testing.T) {
	dir := filepath.Join(testdata, "n09-tier-minimal")
	b, err := os.ReadFile(filepath.Join(dir, "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var wire n09wire
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Tier != model.TierMinimal || len(rec.Runs) != 2 {
		t.Fatalf("tier %q, %d runs; want minimal, 2", rec.Tier, len(rec.Runs))
	}
	var calls []*model.Call
	for _, r := range rec.Runs {
		calls = append(calls, r.Calls...)
	}
	if len(calls) != len(wire.Calls) {
		t.Fatalf("%d calls, the library made %d", len(calls), len(wire.Calls))
	}
	judged := map[int]bool{}
	for _, e := range wire.Evidence {
		judged[e.Call] = true
	}
	for i, c := range calls {
		w := wire.Calls[i]
		last := i == len(calls)-1 || wire.Calls[i+1].Run != w.Run
		if c.Number != i+1 || c.Iteration != w.Iteration {
			t.Fatalf("call %d: number %d iteration %d, wire iteration %d", i+1, c.Number, c.Iteration, w.Iteration)
		}
		if last != (c.Recorded == nil) {
			t.Errorf("call %d: window recorded %v, want %v (each run's last window is not in the log)", i+1, c.Recorded != nil, !last)
		}
		if c.Recorded != nil {
			if len(c.Recorded) != len(w.Messages) {
				t.Fatalf("call %d: %d messages recorded, the library sent %d", i+1, len(c.Recorded), len(w.Messages))
			}
			for j, m := range c.Recorded {
				if m.Role != w.Messages[j].Role || m.Content != w.Messages[j].Content {
					t.Fatalf("call %d message %d differs from the wire", i+1, j)
				}
			}
		}
		if c.Facts.Response.Content != w.Response.Content {
			t.Errorf("call %d: answer %.40q, the model said %.40q", i+1, c.Facts.Response.Content, w.Response.Content)
		}
		if judged[i+1] != (c.Facts.EvidenceChecked != nil) {
			t.Errorf("call %d: evidence_checked filed %v, the library judged it %v", i+1, c.Facts.EvidenceChecked != nil, judged[i+1])
		}
	}
	for _, p := range rec.Problems {
		if strings.Contains(p.Message, "evidence_checked") {
			t.Errorf("problem: %s", p.Message)
		}
	}
}

// A log that turns out not to be of one tier (stream events after calls
// were rebuilt from iteration_end) says so.
func TestMixedTierIsAProblem(t *testing.T) {
	lines := []string{
		`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"q"},"meta":{"runId":"r1"}}`,
		`{"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":1,"toolCallCount":0,"history":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]},"meta":{"runId":"r1"}}`,
		`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":2,"messagesCount":1},"meta":{"runId":"r1"}}`,
	}
	rec, err := Read(strings.NewReader(joined(lines)), "mixed")
	if err != nil {
		t.Fatal(err)
	}
	if !hasProblem(rec, 3, "not of one tier") {
		t.Errorf("no problem at line 3: %s", problemsOf(rec))
	}
}

// Tier firehose adds a stream.token per streamed chunk between llm_start
// and llm_end (§16.1); the calls are the same as without them.
func TestStreamTokensChangeNoCall(t *testing.T) {
	lines := s01Lines(t)
	var fire []string
	for _, l := range lines {
		fire = append(fire, l)
		if strings.Contains(l, `"agentfootprint.stream.llm_start"`) {
			meta := l[strings.LastIndex(l, `"meta":`):]
			for i := range 3 {
				fire = append(fire, `{"type":"agentfootprint.stream.token","payload":{"iteration":1,"tokenIndex":`+string(rune('0'+i))+`,"content":"chunk"},`+meta)
			}
		}
	}
	plain, err := Read(strings.NewReader(joined(lines)), "s01")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ways {
		got, err := readWith([]byte(joined(fire)), w.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got.Tier != model.TierFirehose || len(got.Problems) != 0 {
			t.Fatalf("%s: tier %s, problems %v", w.name, got.Tier, got.Problems)
		}
		a, b := flatten(plain), flatten(got)
		if len(a) != len(b) {
			t.Fatalf("%s: %d calls with tokens, %d without", w.name, len(b), len(a))
		}
		for i := range a {
			x, y := a[i].call, b[i].call
			if x.Iteration != y.Iteration || x.Usage != y.Usage || !slices.EqualFunc(x.Recorded, y.Recorded, model.SameText) ||
				!sameMessages(x.Appended, y.Appended) || x.Facts.Response.Content != y.Facts.Response.Content {
				t.Errorf("%s: call %d differs with stream.token events", w.name, i+1)
			}
		}
	}
}
