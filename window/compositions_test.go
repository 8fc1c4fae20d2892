package window_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Recordings of §14 and §15: a follow-up of an aborted run (n02), a
// Parallel with its own merge calls (n06), a Loop of three passes and a
// Conditional (n07). Each is replayed under the wire's policy and the
// inferred one, from the log and from the envelope, and compared with the
// wire: every window, the merge calls present with no window (the log
// does not hold it), each pass's records with the envelope's
// subflowResults['<path>#N'], the conversations.
var compositionScenarios = []string{"n02-abort-then-followup", "n06-parallel-composition", "n07-loop-conditional"}

func TestCompositionsAndContinuationsMatchWire(t *testing.T) {
	eachWireFile(t, compositionScenarios, func(t *testing.T, dir string, w chainWire) func(t *testing.T, file string, rec *model.Recording, lin *lineage.Lineage) {
		own := compositionCalls(t, w)
		records := passRecords(t, filepath.Join(dir, "recording.json.gz"))
		return func(t *testing.T, file string, rec *model.Recording, lin *lineage.Lineage) {
			t.Run(file+"/given", func(t *testing.T) {
				r := window.RunAgents(rec, lin, w.policies(t, rec), nil)
				checkWithOwnCalls(t, r, w, own)
				checkConversations(t, r, w)
				checkPassRecords(t, r, records)
			})
			t.Run(file+"/inferred", func(t *testing.T) {
				r, infs := inferredReplay(t, rec, lin)
				for _, inf := range infs {
					if inf.Agent.Composition && inf.Policy.Strategy != model.StrategyNone {
						t.Errorf("composition %s inferred %s, want none", inf.Agent.Key, inf.Policy.Strategy)
					}
				}
				checkWithOwnCalls(t, r, w, own)
				checkPassRecords(t, r, records)
			})
		}
	})
}

// compositionCalls are the wire calls of agents the wire gives no policy:
// a composition's own (n06's 'merge').
func compositionCalls(t *testing.T, w chainWire) map[int]bool {
	t.Helper()
	var byKey map[string]json.RawMessage
	if w.PolicyKeyedBy == "" || json.Unmarshal(w.Policy, &byKey) != nil {
		return nil
	}
	out := map[int]bool{}
	for _, c := range w.Calls {
		if _, ok := byKey[c.AgentID]; !ok {
			out[c.Call] = true
		}
	}
	return out
}

// checkWithOwnCalls is checkChainWindows, where a composition's own call
// must be there with no window and its window said unknown.
func checkWithOwnCalls(t *testing.T, r *window.Replay, w chainWire, own map[int]bool) {
	t.Helper()
	have := byIdentity(r.Calls, func(c window.CallReplay) (string, int) { return c.Run.RunID, c.Call.Iteration })
	rest := w
	rest.Calls = nil
	for _, wc := range w.Calls {
		if !own[wc.Call] {
			rest.Calls = append(rest.Calls, wc)
		}
	}
	want := byIdentity(w.Calls, func(c chainCall) (string, int) { return c.RunID, *c.Iteration })
	for id, wc := range want {
		if !own[wc.Call] {
			continue
		}
		got, ok := have[id]
		switch {
		case !ok:
			t.Fatalf("wire call %d, the composition's own, not replayed", wc.Call)
		case !got.Run.Composition || got.Window() != nil || got.Recorded() != window.Unknown || got.Conversation != 0:
			t.Errorf("wire call %d: composition %v, window %d messages, %s, conversation %d; want the composition's, no window, unknown, none",
				wc.Call, got.Run.Composition, len(got.Window()), got.Recorded(), got.Conversation)
		}
	}
	mine := r.Calls[:0:0]
	for _, c := range r.Calls {
		if !c.Run.Composition {
			mine = append(mine, c)
		}
	}
	checkChainWindows(t, &window.Replay{Calls: mine}, rest)
}

// passRecords reads the envelope's records on its own, keyed (runId,
// agent path, pass, iteration) (§15.4): per envelope, sharedState for a
// plain agent; for an agent path P inside a composition, pass k's are
// those of the k-th subflowResults['P#N'] in increasing N, or of
// subflowResults[P] when there is no numbered one. A record whose
// (path, pass, iteration) is no llm_start of the envelope's events is a
// copy restored across a resume (§12.1), not filed again.
func passRecords(t *testing.T, path string) map[string]model.Record {
	t.Helper()
	envs := readEnvelopes(t, path)
	out := map[string]model.Record{}
	for _, e := range envs {
		calls, passes := map[string]bool{}, map[string]int{}
		for _, ev := range e.Recording.Events {
			cp, sp := ev.Meta.CompositionPath, ev.Meta.SubflowPath
			inside := len(cp) > 0 && !strings.HasPrefix(cp[len(cp)-1], "Agent:")
			at := ""
			if inside {
				at = strings.Join(sp, "/")
			}
			switch ev.Type {
			case "agentfootprint.agent.turn_start":
				passes[at]++
			case "agentfootprint.stream.llm_start":
				if !inside || len(sp) > 0 {
					calls[fmt.Sprint(at, "#", max(passes[at], 1), "/", ev.Payload.Iteration)] = true
				}
			}
		}
		file := func(at string, pass int, rs []model.Record) {
			for _, r := range rs {
				if k := fmt.Sprint(at, "#", pass, "/", r.Iteration); calls[k] {
					out[e.Run.RunID+"/"+k] = r
				}
			}
		}
		file("", 1, e.Recording.Snapshot.SharedState.Compactions)
		numbered := map[string][]int{}
		for key := range e.Recording.Snapshot.SubflowResults {
			if i := strings.LastIndexByte(key, '#'); i > 0 {
				var n int
				if _, err := fmt.Sscanf(key[i+1:], "%d", &n); err == nil {
					numbered[key[:i]] = append(numbered[key[:i]], n)
				}
			}
		}
		for key, sf := range e.Recording.Snapshot.SubflowResults {
			if _, ok := numbered[key]; !ok && !strings.Contains(key, "#") {
				file(key, 1, sf.TreeContext.GlobalContext.Compactions)
			}
		}
		for at, ns := range numbered {
			sort.Ints(ns)
			for k, n := range ns {
				file(at, k+1, e.Recording.Snapshot.SubflowResults[fmt.Sprint(at, "#", n)].TreeContext.GlobalContext.Compactions)
			}
		}
	}
	return out
}

func checkPassRecords(t *testing.T, r *window.Replay, want map[string]model.Record) {
	t.Helper()
	have := map[string]model.Record{}
	for _, c := range r.Calls {
		if c.Visit.Record != nil {
			have[fmt.Sprint(c.Run.RunID, "/", c.Run.Step, "#", c.Run.Pass, "/", c.Call.Iteration)] = *c.Visit.Record
		}
	}
	if len(want) == 0 || len(have) != len(want) {
		t.Errorf("%d records replayed, the library filed %d", len(have), len(want))
	}
	for k, w := range want {
		if h, ok := have[k]; !ok || !sameRecord(w, h) {
			t.Errorf("%s:\n library %+v\n replay  %+v", k, w, h)
		}
	}
}

// §14.5's resumeOnError door (its recording is held out), by hand under
// strategy none, so that no visit changes a window: run 1 fails in its
// third call, whose window also holds a message delivered at iteration 3;
// run 2 re-enters with run 1's request and its last iteration_end
// history [q a1 t1 a2 t2]. The replay must send exactly that: not the
// failed call's window (with the delivery), not with the request appended.
func TestResumeOnErrorStartsFromTheLastIterationEnd(t *testing.T) {
	var lines []string
	ev := func(run, typ, payload string) {
		lines = append(lines, fmt.Sprintf(`{"type":"agentfootprint.%s","payload":%s,"meta":{"runId":%q,"compositionPath":["Agent:agent"],"subflowPath":[]}}`,
			typ, payload, run))
	}
	msgs := map[string]string{"q": `{"role":"user","content":"q"}`,
		"a1": `{"role":"assistant","content":"a1","toolCalls":[{"id":"c1","name":"get","args":{}}]}`,
		"t1": `{"role":"tool","content":"t1","toolCallId":"c1","toolName":"get"}`,
		"a2": `{"role":"assistant","content":"a2","toolCalls":[{"id":"c2","name":"get","args":{}}]}`,
		"t2": `{"role":"tool","content":"t2","toolCallId":"c2","toolName":"get"}`}
	inject := func(run string, names ...string) {
		for i, n := range names {
			var m struct{ Role, Content, ToolCallID string }
			json.Unmarshal([]byte(msgs[n]), &m)
			ev(run, "context.injected", fmt.Sprintf(`{"slot":"messages","position":%d,"asRole":%q,"rawContent":%q,"sourceId":%q,"reason":"conversation history [%d]"}`,
				i, m.Role, m.Content, m.ToolCallID, i))
		}
	}
	history := func(names ...string) string {
		var out []string
		for _, n := range names {
			out = append(out, msgs[n])
		}
		return "[" + strings.Join(out, ",") + "]"
	}
	ev("r1", "agent.run_configured", `{"agentId":"agent","window":"none"}`)
	ev("r1", "agent.turn_start", `{"userPrompt":"q"}`)
	inject("r1", "q")
	ev("r1", "stream.llm_start", `{"iteration":1,"messagesCount":1}`)
	ev("r1", "stream.llm_end", `{"content":"a1","usage":{"input":1,"output":1}}`)
	ev("r1", "agent.iteration_end", `{"iterIndex":1,"history":`+history("q", "a1", "t1")+`}`)
	inject("r1", "q", "a1", "t1")
	ev("r1", "stream.llm_start", `{"iteration":2,"messagesCount":3}`)
	ev("r1", "stream.llm_end", `{"content":"a2","usage":{"input":1,"output":1}}`)
	ev("r1", "agent.iteration_end", `{"iterIndex":2,"history":`+history("q", "a1", "t1", "a2", "t2")+`}`)
	inject("r1", "q", "a1", "t1", "a2", "t2")
	ev("r1", "context.injected", `{"slot":"messages","position":5,"asRole":"user","rawContent":"d","reason":"delivered by a hook"}`)
	ev("r1", "stream.llm_start", `{"iteration":3,"messagesCount":6}`)
	ev("r1", "error.fatal", `{"error":"The AI call failed: This operation was aborted"}`)
	ev("r2", "agent.run_configured", `{"agentId":"agent","window":"none"}`)
	ev("r2", "agent.turn_start", `{"userPrompt":"q"}`)
	inject("r2", "q", "a1", "t1", "a2", "t2")
	ev("r2", "stream.llm_start", `{"iteration":1,"messagesCount":5}`)
	ev("r2", "stream.llm_end", `{"content":"done","usage":{"input":1,"output":1}}`)
	ev("r2", "agent.turn_end", `{"finalContent":"done"}`)
	rec, err := loader.StartReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "resumed.jsonl", 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 0 || len(rec.Runs) != 2 || !rec.Runs[0].Failed || rec.Runs[0].Calls[2].Deliveries != 1 {
		t.Fatalf("the log: %d runs, problems %v", len(rec.Runs), rec.Problems)
	}
	lin := lineage.Decide(rec)
	if l := lin.Links[1]; l.Kind != lineage.FollowUp || l.Form != lineage.Reentered || l.Pred != 0 || l.Conversation != 1 {
		t.Fatalf("run 2 links %+v, want resumeOnError's form of run 1", l)
	}
	r := window.RunAgents(rec, lin, map[string]model.Policy{"agent": {Strategy: model.StrategyNone}}, nil)
	for _, c := range r.Calls {
		if c.Recorded() != window.Match {
			t.Errorf("call %d (run %s): %d messages replayed, %s", c.Call.Number, c.Run.RunID, len(c.Window()), c.Recorded())
		}
	}
	// docs/rules/evidence.md §9.6: run 2's first call continues the call
	// before the failed one (iteration 2, call 2); the failed call is a
	// sibling
	if p := r.Preds(); len(p) != 4 || p[3] != 1 || p[2] != 1 {
		t.Errorf("predecessors %v, want call 4's the second call (index 1), as the failed call's", p)
	}
}
