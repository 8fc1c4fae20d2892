package window_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// deliveryLog is a run of three calls (sliding-window K=1): at iteration 2
// an injection delivers a user message "NOTE" after the visit (§10.6): it
// ends call 2's recorded window, its history keeps injectedBy, and the
// next visit sees it. Call 2's visit does not: it sees [q a1] and keeps
// both (a1 is the one recent turn); had NOTE been there, a1 would have
// left. Call 3's visit drops a1 and NOTE (no notice fits: the span is
// shorter than any), keeping the request and the newest turn.
func deliveryLog() string {
	var b strings.Builder
	ev := func(typ, payload string) {
		fmt.Fprintf(&b, `{"type":"agentfootprint.%s","payload":%s,"meta":{"runId":"r1","compositionPath":["Agent:a"]}}`+"\n", typ, payload)
	}
	inject := func(pos int, role, content, reason string) {
		ev("context.injected", fmt.Sprintf(`{"slot":"messages","asRole":%q,"rawContent":%q,"position":%d,"reason":%q}`, role, content, pos, reason))
	}
	ev("agent.run_configured", `{"agentId":"a","window":"sliding-window"}`)
	ev("agent.turn_start", `{"userPrompt":"q"}`)
	inject(0, "user", "q", "conversation history [0]")
	ev("stream.llm_start", `{"iteration":1,"messagesCount":1}`)
	ev("stream.llm_end", `{"content":"a1","usage":{"input":1,"output":1}}`)
	ev("agent.iteration_end", `{"iterIndex":1,"history":[{"role":"user","content":"q"},{"role":"assistant","content":"a1"}]}`)
	inject(0, "user", "q", "conversation history [0]")
	inject(1, "assistant", "a1", "conversation history [1]")
	inject(2, "user", "NOTE", "rag")
	ev("stream.llm_start", `{"iteration":2,"messagesCount":3}`)
	ev("stream.llm_end", `{"content":"a2","usage":{"input":1,"output":1}}`)
	ev("agent.iteration_end", `{"iterIndex":2,"history":[{"role":"user","content":"q"},{"role":"assistant","content":"a1"},{"role":"user","content":"NOTE","injectedBy":{"iteration":2,"source":"rag"}},{"role":"assistant","content":"a2"}]}`)
	inject(0, "user", "q", "conversation history [0]")
	inject(1, "assistant", "a2", "conversation history [1]")
	ev("stream.llm_start", `{"iteration":3,"messagesCount":2}`)
	ev("stream.llm_end", `{"content":"done","usage":{"input":1,"output":1}}`)
	ev("agent.turn_end", `{"finalContent":"done"}`)
	return b.String()
}

func TestDeliveries(t *testing.T) {
	rec, err := loader.StartReader(strings.NewReader(deliveryLog()), "deliver.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	calls := rec.Runs[0].Calls
	if calls[0].Deliveries != 0 || calls[1].Deliveries != 1 || calls[2].Deliveries != 0 {
		t.Fatalf("deliveries %d %d %d, want 0 1 0", calls[0].Deliveries, calls[1].Deliveries, calls[2].Deliveries)
	}
	r := window.Run(rec, model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 1, KeepLastToolResults: 2})
	texts := func(w []*model.Message) string {
		var s []string
		for _, m := range w {
			s = append(s, m.Content)
		}
		return strings.Join(s, " ")
	}
	for i, want := range []string{"q", "q a1 NOTE", "q a2"} {
		if got := texts(r.Calls[i].Window()); got != want {
			t.Errorf("call %d: window %q, want %q", i+1, got, want)
		}
	}
	for i := range r.Calls {
		if got := r.Calls[i].Recorded(); got != window.Match {
			t.Errorf("call %d: %s", i+1, got)
		}
	}
}
