package window_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A Loop, Conditional, Parallel or swarm agent is replayed with a meter,
// as a plain agent (§15.6); a Sequence step has none (§7). Each row is a
// hand-made log of one agent run at the row's place in a composition:
//
//	call 1 (iteration 1): [q]                       → get_metrics, 2,000 chars; usage in 100
//	call 2 (iteration 2): [q, a1, t1]               → read_logs, 300 chars;   usage in 900
//	call 3 (iteration 3): [q, a1, t1, a2, t2]       → the answer
//
// under token-budget, thresholdTokens 500, keepRecentTurns 1, no pins.
// Worked out from §5–§7 by hand:
//   - visit 1: a fresh run's first visit has no reading: nothing engages;
//   - visit 2: the reading is call 1's (iteration 1 ≥ 2−1), 100 ≤ 500:
//     nothing engages;
//   - visit 3: the reading is call 2's, 900 > 500: it engages. Turns: 0
//     [q], 1 [a1 t1], 2 [a2 t2]; candidates 3−1 = 2; turn 0 is refused
//     current-request, turn 1 is the span (2 messages, from 1). The
//     request was kept at the head, so a notice may take the front; the
//     span holds a get_metrics result, and the rich notice (about 430
//     chars) is shorter than the span (2,000 and more): window = [q,
//     rich notice, a2, t2], record measuredTokens 900, 2 removed.
//
// In the Sequence step the visits read no meter: no record, and call 3
// is sent the five messages.
//
// The Loop's second pass (a second turn_start in its segment, §15.2) is
// a fresh run: its first visit has no reading, although pass 1's last
// call measured 950 at iteration 3: no record.
func TestCompositionAgentsHaveAMeter(t *testing.T) {
	const notice = "[dropped history — 2 earlier message(s) were dropped from this window at iteration 3 by the 'token-budget' window strategy. " +
		"Your current request is kept — it is still in this window, above this line, and no window strategy may drop it. " +
		"Tool results are among them (get_metrics) — call the tool again if you need its output; do not reconstruct ids or values from memory. " +
		"Nothing was summarized: those turns are simply not being re-sent. They are retained verbatim in this run's commit log.]"
	p := model.Policy{Strategy: model.TokenBudget, ThresholdTokens: 500, KeepRecentTurns: 1}
	for _, c := range []struct {
		name      string
		comp, sub []string
		metered   bool
	}{
		{"plain agent", []string{"Agent:solo"}, nil, true},
		{"Loop body", []string{"Loop:refine"}, []string{"body"}, true},
		{"swarm agent", []string{"Loop:oncall-swarm"}, []string{"body", "triage"}, true},
		{"Conditional branch", []string{"Conditional:router"}, []string{"urgent"}, true},
		{"Parallel branch", []string{"Parallel:triage"}, []string{"metrics"}, true},
		{"Sequence step", []string{"Sequence:pipeline"}, []string{"step-a"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := loadLog(t, compositionLog(c.comp, c.sub, c.name == "Loop body"))
			r := window.Run(rec, p)
			if len(r.Calls) < 3 {
				t.Fatalf("%d calls", len(r.Calls))
			}
			for i := range 2 {
				if v := r.Calls[i].Visit; v.Record != nil {
					t.Errorf("call %d engaged (record %+v): no reading over 500 yet", i+1, *v.Record)
				}
			}
			v := r.Calls[2].Visit
			if !c.metered {
				if v.Record != nil || len(v.After) != 5 {
					t.Errorf("call 3: record %v, %d messages; want no record, 5 messages (no meter)", v.Record, len(v.After))
				}
				return
			}
			if v.Record == nil {
				t.Fatalf("call 3 did not engage on a reading of 900 over 500")
			}
			if v.Record.MeasuredTokens != 900 || v.Record.RemovedMessageCount != 2 {
				t.Errorf("call 3 record: measured %d, removed %d; want 900, 2", v.Record.MeasuredTokens, v.Record.RemovedMessageCount)
			}
			want := []string{"q", notice, "a2", strings.Repeat("l", 300)}
			if got := contents(v.After); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("call 3 window:\n%q\nwant\n%q", got, want)
			}
			if c.name == "Loop body" {
				if len(r.Calls) != 4 || r.Calls[3].Run.Pass != 2 {
					t.Fatalf("the second pass's call is not there: %d calls", len(r.Calls))
				}
				if v := r.Calls[3].Visit; v.Record != nil {
					t.Errorf("pass 2's first visit engaged (record %+v): a pass starts with no reading", *v.Record)
				}
			}
		})
	}
}

// The evidence of a token strategy inferred for a composition agent says
// its meter is not recorded and how it is replayed (§15.6); a plain
// agent's says nothing of it.
func TestCompositionMeterNote(t *testing.T) {
	for _, c := range []struct {
		comp, sub []string
		want      string
	}{
		{[]string{"Loop:refine"}, []string{"body"}, "whether an agent in a Loop has a meter is not recorded: replayed with one, as a plain agent"},
		{[]string{"Parallel:triage"}, []string{"metrics"}, "whether an agent in a Parallel has a meter is not recorded: replayed with one, as a plain agent"},
		{[]string{"Agent:solo"}, nil, ""},
	} {
		rec := loadLog(t, compositionLog(c.comp, c.sub, false))
		infs := window.InferAgents(rec, lineage.Decide(rec))
		if len(infs) != 1 {
			t.Fatalf("%v: %d agents", c.comp, len(infs))
		}
		ev := infs[0].Evidence
		if !strings.Contains(ev, "strategy 'token-budget' from its budget_pressure events") {
			t.Errorf("%v: %q: not token-budget from budget_pressure", c.comp, ev)
		}
		if c.want == "" && strings.Contains(ev, "meter") || c.want != "" && !strings.Contains(ev, c.want) {
			t.Errorf("%v: evidence %q, want %q", c.comp, ev, c.want)
		}
	}
}

func contents(w []*model.Message) []string {
	out := make([]string, len(w))
	for i, m := range w {
		out[i] = m.Content
	}
	return out
}

// loadLog loads log, written to a file, and fails on any problem.
func loadLog(t *testing.T, log string) *model.Recording {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := load(t, path)
	if len(rec.Problems) > 0 {
		t.Fatalf("problems: %v", rec.Problems)
	}
	return rec
}

// compositionLog is one agent run at compositionPath comp, agent root
// subflowPath sub, as the table above describes; with a budget_pressure
// event at its third visit (cap 500), and, when pass2, a second pass of
// the agent in the same segment, whose request is the first's answer.
func compositionLog(comp, sub []string, pass2 bool) string {
	var b strings.Builder
	emit := func(typ string, payload any) {
		if sub == nil {
			sub = []string{}
		}
		ev := map[string]any{"type": "agentfootprint." + typ, "payload": payload,
			"meta": map[string]any{"runId": "run-1-1", "compositionPath": comp, "subflowPath": sub}}
		line, _ := json.Marshal(ev)
		b.Write(line)
		b.WriteByte('\n')
	}
	type msg = map[string]any
	user := func(s string) msg { return msg{"role": "user", "content": s} }
	call := func(s, id, tool string) msg {
		return msg{"role": "assistant", "content": s, "toolCalls": []msg{{"id": id, "name": tool, "args": msg{}}}}
	}
	result := func(s, id, tool string) msg {
		return msg{"role": "tool", "content": s, "toolCallId": id, "toolName": tool}
	}
	emit("agent.turn_start", msg{"turnIndex": 0, "userPrompt": "q"})
	history := []msg{user("q")}
	for i, step := range []struct {
		answer, id, tool, result string
		input                    int
	}{
		{"a1", "call_1", "get_metrics", strings.Repeat("m", 2000), 100},
		{"a2", "call_2", "read_logs", strings.Repeat("l", 300), 900},
	} {
		it := i + 1
		emit("stream.llm_start", msg{"iteration": it, "messagesCount": len(history)})
		emit("stream.llm_end", msg{"iteration": it, "content": step.answer, "toolCallCount": 1,
			"usage": msg{"input": step.input, "output": 10}, "stopReason": "tool_use"})
		emit("stream.tool_start", msg{"toolName": step.tool, "toolCallId": step.id, "args": msg{}})
		emit("stream.tool_end", msg{"toolCallId": step.id, "result": step.result})
		history = append(history, call(step.answer, step.id, step.tool), result(step.result, step.id, step.tool))
		emit("agent.iteration_end", msg{"turnIndex": 0, "iterIndex": it, "toolCallCount": 1, "history": history})
	}
	emit("context.budget_pressure", msg{"slot": "messages", "unit": "tokens", "cap": 500, "projected": 900, "overflowBy": 400, "planAction": "evict"})
	emit("stream.llm_start", msg{"iteration": 3, "messagesCount": 4})
	emit("stream.llm_end", msg{"iteration": 3, "content": "done", "toolCallCount": 0, "usage": msg{"input": 950, "output": 5}, "stopReason": "stop"})
	emit("agent.iteration_end", msg{"turnIndex": 0, "iterIndex": 3, "toolCallCount": 0})
	emit("agent.turn_end", msg{"turnIndex": 0, "finalContent": "done"})
	if pass2 {
		emit("agent.turn_start", msg{"turnIndex": 0, "userPrompt": "done"})
		emit("stream.llm_start", msg{"iteration": 1, "messagesCount": 1})
		emit("stream.llm_end", msg{"iteration": 1, "content": "again", "toolCallCount": 0, "usage": msg{"input": 50, "output": 5}, "stopReason": "stop"})
		emit("agent.iteration_end", msg{"turnIndex": 0, "iterIndex": 1, "toolCallCount": 0})
		emit("agent.turn_end", msg{"turnIndex": 0, "finalContent": "again"})
	}
	return b.String()
}
