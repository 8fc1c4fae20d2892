package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Deliveries (docs/rules/runs-and-conversations.md §10.6, docs/rules/window.md §7): a `slot: 'messages'` injection
// appends its message at the END of the window after the visit; the next
// visit sees it; a system-role one refuses `system-envelope` from then on;
// the last call of a run (no iteration_end history) tells its deliveries
// by their `reason`; a follow-up carries them. No recording has one, so
// this log is written by hand, and every window in it was worked out by
// hand from §3–§6 with keepRecentTurns 1 and pins off:
//
//	call 1 (iteration 1): [go]                      1 turn: no visit acts
//	call 2 (iteration 2): [go A1 T1] + [SYS]        turn 0 is the request; nothing leaves
//	call 3 (iteration 3): [go A1 T1 SYS A2 T2] → turn 1 (A1 T1) leaves, SYS stops the
//	   span; the request is kept at the head, so the rich notice (it names t1, 2
//	   messages) replaces them: [go N SYS A2 T2] + [LATE]
//	call 4 (follow-up "more", iteration 1): [go N SYS A2 T2 LATE done more] → turns 0–1
//	   (go, N) leave, SYS stops the span; the new head would be SYS, not a user
//	   message, so a notice is needed: no tool in the span, so the plain one:
//	   [P SYS A2 T2 LATE done more] + [NOTE] (a delivery on the follow-up's
//	   first call: its first window less its deliveries is what continues run 1)
func TestDeliveriesEndToEnd(t *testing.T) {
	const (
		sys  = "Policy: answer in one line."
		late = "Operator: the ticket was escalated."
	)
	t1 := strings.Repeat("x", 2000)
	rich := "[dropped history — 2 earlier message(s) were dropped from this window at iteration 3 by the 'sliding-window' window strategy. " +
		"Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. " +
		"Tool results are among them (t1) — call the tool again if you need its output; do not reconstruct ids or values from memory. " +
		"Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	plain := "[dropped history — 2 earlier message(s) were dropped from this window at iteration 1 by the 'sliding-window' window strategy. " +
		"Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	a1 := msg{"assistant", "", "", []call{{"c1", "t1"}}, nil}
	tr1 := msg{"tool", t1, "c1", nil, nil}
	a2 := msg{"assistant", "", "", []call{{"c2", "t2"}}, nil}
	tr2 := msg{"tool", "ok2", "c2", nil, nil}
	sysMsg := msg{"system", sys, "", nil, map[string]any{"iteration": 2, "source": "steering"}}
	lateMsg := msg{"user", late, "", nil, nil}
	go1 := msg{"user", "go", "", nil, nil}
	n := msg{"user", rich, "", nil, nil}
	done := msg{"assistant", "done", "", nil, nil}

	var l logLines
	l.ev("r1", "agentfootprint.agent.run_configured", `{"agentId":"agent","window":"sliding-window"}`)
	l.ev("r1", "agentfootprint.agent.turn_start", `{"turnIndex":0,"userPrompt":"go"}`)
	l.call("r1", 1, []msg{go1}, 0)
	l.tool("r1", "c1", "t1", t1)
	l.history("r1", 1, []msg{go1, a1, tr1})
	l.call("r1", 2, []msg{go1, a1, tr1, sysMsg}, 1)
	l.tool("r1", "c2", "t2", "ok2")
	l.history("r1", 2, []msg{go1, a1, tr1, sysMsg, a2, tr2})
	l.call("r1", 3, []msg{go1, n, sysMsg, a2, tr2, lateMsg}, 1)
	l.final("r1", "done")
	l.ev("r2", "agentfootprint.agent.run_configured", `{"agentId":"agent","window":"sliding-window"}`)
	l.ev("r2", "agentfootprint.agent.turn_start", `{"turnIndex":0,"userPrompt":"more"}`)
	more := msg{"user", "more", "", nil, nil}
	note := msg{"user", "Reminder: the customer is on the phone.", "", nil, nil}
	l.call("r2", 1, []msg{{"user", plain, "", nil, nil}, sysMsg, a2, tr2, lateMsg, done, more, note}, 1)
	l.final("r2", "ok")
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	wantLen := []int{1, 4, 6, 8}
	for _, flags := range [][]string{{"--strategy", "sliding-window", "--keep-recent-turns", "1", "--keep-last-tool-results", "0"}, nil} {
		doc := exportOf(t, append(append([]string{"-q"}, flags...), path)...)
		if len(doc.Conversations) != 1 {
			t.Errorf("%v: conversations %+v, want one: the follow-up continues run 1", flags, doc.Conversations)
		}
		if len(doc.Problems) != 0 {
			t.Errorf("%v: problems %+v", flags, doc.Problems)
		}
		if len(doc.Calls) != 4 {
			t.Fatalf("%v: %d calls, want 4", flags, len(doc.Calls))
		}
		for i, c := range doc.Calls {
			if c.RecordedWindow != "match" || len(c.Window) != wantLen[i] {
				t.Errorf("%v: call %d: %s with %d messages, want match with %d", flags, c.Call, c.RecordedWindow, len(c.Window), wantLen[i])
			}
			for _, raw := range c.Window {
				if strings.Contains(string(raw), "injectedBy") {
					t.Errorf("%v: call %d sends an injectedBy marker: %s", flags, c.Call, raw)
				}
			}
		}
		if r := doc.Calls[2].Record; r == nil || r.RemovedMessageCount != 2 {
			t.Errorf("%v: call 3 record %+v, want 2 removed", flags, r)
		}
		if r := doc.Calls[3].Record; r == nil || r.RemovedMessageCount != 2 {
			t.Errorf("%v: call 4 record %+v, want 2 removed", flags, r)
		}
	}
}

type call struct{ id, name string }

type msg struct {
	role, content, toolCallID string
	calls                     []call
	injectedBy                map[string]any
}

func (m msg) history() map[string]any {
	out := map[string]any{"role": m.role, "content": m.content}
	if m.toolCallID != "" {
		out["toolCallId"] = m.toolCallID
	}
	if m.calls != nil {
		var cs []map[string]any
		for _, c := range m.calls {
			cs = append(cs, map[string]any{"id": c.id, "name": c.name, "args": map[string]any{}})
		}
		out["toolCalls"] = cs
	}
	if m.injectedBy != nil {
		out["injectedBy"] = m.injectedBy
	}
	return out
}

// logLines is a hand-written log, one event a line.
type logLines []string

func (l *logLines) ev(run, typ, payload string) {
	*l = append(*l, fmt.Sprintf(`{"type":%q,"payload":%s,"meta":{"subflowPath":[],"compositionPath":["Agent:agent"],"runId":%q}}`, typ, payload, run))
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// call composes the window w (its last delivered messages delivered by an
// injection, the rest history) and makes the call.
func (l *logLines) call(run string, iteration int, w []msg, delivered int) {
	for i, m := range w {
		reason, source := fmt.Sprintf("conversation history [%d]", i), m.role
		if i >= len(w)-delivered {
			reason, source = "operator steer", "injection"
		}
		p := map[string]any{"slot": "messages", "source": source, "reason": reason, "rawContent": m.content, "asRole": m.role, "position": i}
		if m.toolCallID != "" {
			p["sourceId"] = m.toolCallID
		}
		l.ev(run, "agentfootprint.context.injected", js(p))
	}
	l.ev(run, "agentfootprint.stream.llm_start", js(map[string]any{"iteration": iteration, "messagesCount": len(w)}))
}

func (l *logLines) tool(run, id, name, result string) {
	l.ev(run, "agentfootprint.stream.llm_end", `{"content":"","toolCallCount":1,"usage":{"input":100,"output":5},"stopReason":"tool_use"}`)
	l.ev(run, "agentfootprint.stream.tool_start", js(map[string]any{"toolName": name, "toolCallId": id, "args": map[string]any{}}))
	l.ev(run, "agentfootprint.stream.tool_end", js(map[string]any{"toolCallId": id, "result": result}))
}

func (l *logLines) history(run string, iteration int, h []msg) {
	var hs []map[string]any
	for _, m := range h {
		hs = append(hs, m.history())
	}
	l.ev(run, "agentfootprint.agent.iteration_end", js(map[string]any{"turnIndex": 0, "iterIndex": iteration, "history": hs}))
}

func (l *logLines) final(run, answer string) {
	l.ev(run, "agentfootprint.stream.llm_end", js(map[string]any{"content": answer, "toolCallCount": 0, "usage": map[string]int{"input": 100, "output": 5}, "stopReason": "stop"}))
	l.ev(run, "agentfootprint.agent.turn_end", js(map[string]any{"turnIndex": 0, "finalContent": answer}))
}
