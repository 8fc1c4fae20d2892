package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// exportedSource is one source of a value as the export writes it
// (docs/rules/evidence.md §6.2).
type exportedSource struct {
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
	Run        int     `json:"run"`
	SentOn     [2]int  `json:"sentOn"`
	EvictedAt  int     `json:"evictedAt"`
	Rule       string  `json:"rule"`
}

type exportedValue struct {
	Value   string           `json:"value"`
	Verdict string           `json:"verdict"`
	Sources []exportedSource `json:"sources"`
}

// valuesOfExport is each call's evidence values, by call number.
func valuesOfExport(t *testing.T, args ...string) map[int][]exportedValue {
	t.Helper()
	code, out, errs := runCLI(append([]string{"export", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("export exited %d: %s", code, errs)
	}
	var doc struct {
		Calls []struct {
			Call           int    `json:"call"`
			RecordedWindow string `json:"recordedWindow"`
			Evidence       struct {
				Values []exportedValue `json:"values"`
			} `json:"evidence"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("export printed no JSON: %v", err)
	}
	got := map[int][]exportedValue{}
	for _, c := range doc.Calls {
		if c.RecordedWindow != "match" {
			t.Errorf("call %d: recordedWindow %s, want match (the windows below are worked out by hand)", c.Call, c.RecordedWindow)
		}
		got[c.Call] = c.Evidence.Values
	}
	return got
}

// Two conversations of one file that are delivered the same text are
// delivered two messages (docs/rules/evidence.md §6 "A message across
// calls"): a value that left one conversation's window has its sources in
// that conversation, sent on its calls, evicted by its visit. The loader
// keeps recorded messages once per text, so both deliveries are one
// message in memory; the evidence must still tell them apart. No
// recording has a delivery, so the log is written by hand; every window
// worked out by hand from docs/rules/window.md §2–§6, keepRecentTurns 1, pins
// off. Each run R (prompt P) makes three calls:
//
//	iteration 1: [P]                                   one turn: no visit acts
//	iteration 2: [P A1 T1] + [NOTE]                    turn 0 is the request; nothing leaves
//	iteration 3: [P A1 T1 NOTE A2 T2] → turns 1–2 (A1 T1, NOTE) leave; the
//	   request is kept at the head, which is a user message, and neither
//	   notice is shorter than the span: dropped silently, [P A2 T2]
//
// and its answer on iteration 3 quotes the ticket only NOTE held: left,
// its one source NOTE (user text: not-pinnable), sent on the run's call 2,
// evicted at its call 3. Run r1 is calls 1–3, run r2 calls 4–6.
func TestSharedDeliveryTextTwoConversations(t *testing.T) {
	const note = "Reminder: ticket TCK-4411 is still open."
	var l logLines
	for _, run := range []struct{ id, prompt string }{{"r1", "Check the first queue."}, {"r2", "Check the second queue."}} {
		p := msg{"user", run.prompt, "", nil, nil}
		a1 := msg{"assistant", "", "", []call{{"c1", "t1"}}, nil}
		t1 := msg{"tool", "ok", "c1", nil, nil}
		n := msg{"user", note, "", nil, map[string]any{"iteration": 2, "source": "rag"}}
		a2 := msg{"assistant", "", "", []call{{"c2", "t2"}}, nil}
		t2 := msg{"tool", "ok", "c2", nil, nil}
		l.ev(run.id, "agentfootprint.agent.run_configured", `{"agentId":"agent","window":"sliding-window"}`)
		l.ev(run.id, "agentfootprint.agent.turn_start", js(map[string]any{"turnIndex": 0, "userPrompt": run.prompt}))
		l.call(run.id, 1, []msg{p}, 0)
		l.tool(run.id, "c1", "t1", "ok")
		l.history(run.id, 1, []msg{p, a1, t1})
		l.call(run.id, 2, []msg{p, a1, t1, n}, 1)
		l.tool(run.id, "c2", "t2", "ok")
		l.history(run.id, 2, []msg{p, a1, t1, n, a2, t2})
		l.call(run.id, 3, []msg{p, a2, t2}, 0)
		l.final(run.id, "Ticket TCK-4411 is open.")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := valuesOfExport(t, "-q", "--strategy", "sliding-window", "--keep-recent-turns", "1", "--keep-last-tool-results", "0", path)
	for _, want := range []struct{ call, run, sent, evicted int }{{3, 1, 2, 3}, {6, 2, 5, 6}} {
		vs := got[want.call]
		if len(vs) != 1 || vs[0].Value != "tck-4411" || vs[0].Verdict != "left" {
			t.Errorf("call %d: values %+v, want tck-4411 left", want.call, vs)
			continue
		}
		w := exportedSource{Run: want.run, SentOn: [2]int{want.sent, want.sent}, EvictedAt: want.evicted, Rule: "not-pinnable"}
		if s := vs[0].Sources; len(s) != 1 || s[0] != w {
			t.Errorf("call %d: sources %+v, want %+v (run %d's own delivery)", want.call, s, w, want.run)
		}
	}
}

// evidenceOf is each call's evidence values and its run, by call number.
func evidenceOf(t *testing.T, path string) (map[int][]exportedValue, map[int]int) {
	t.Helper()
	code, out, errs := runCLI("export", "--format", "json", "-q", path)
	if code != 0 {
		t.Fatalf("export %s exited %d: %s", path, code, errs)
	}
	var doc struct {
		Calls []struct {
			Call, Run int
			Evidence  struct {
				Values []exportedValue `json:"values"`
			} `json:"evidence"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("export %s printed no JSON: %v", path, err)
	}
	values, runs := map[int][]exportedValue{}, map[int]int{}
	for _, c := range doc.Calls {
		values[c.Call], runs[c.Call] = c.Evidence.Values, c.Run
	}
	return values, runs
}

// A twin (scripts/mutate/mutate.py's twin-demo): two copies A and B of
// demo-incident in one file, B's runIds renamed, interleaved run by run
// A1 B1 A2 B2 (file runs 1–4, calls 1–12, 13–24, 25–28, 29–32). Their
// carried histories are byte-identical, so docs/rules/runs-and-conversations.md §10.7's tie
// rule (among equal scores, a run not yet continued, then the latest
// turn_end) pairs them {A1, B2} and {B1, A2} (§10.7 "Where it can be
// wrong" (a)); every window is the same either way. Each call's evidence
// is the recording's for the same call, its sources named in the file's
// numbers along its own run chain: a source never comes from the other
// chain, though the other chain sent the same texts.
func TestTwinEvidenceFollowsItsChain(t *testing.T) {
	src := filepath.Join("../testdata", "demo-incident", "run.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var runs []string // runIds in order of first line
	spans := map[string][2]int{}
	for i, l := range lines {
		var e struct {
			Meta struct{ RunID string } `json:"meta"`
		}
		if json.Unmarshal([]byte(l), &e) != nil || e.Meta.RunID == "" {
			t.Fatalf("%s:%d: no runId", src, i+1)
		}
		sp, ok := spans[e.Meta.RunID]
		if !ok {
			runs, sp = append(runs, e.Meta.RunID), [2]int{i, i}
		}
		sp[1] = i
		spans[e.Meta.RunID] = sp
	}
	if len(runs) != 2 {
		t.Fatalf("%s: %d runs, want 2", src, len(runs))
	}
	var twin []string
	for k, id := range runs {
		a := lines[spans[id][0] : spans[id][1]+1]
		twin = append(twin, a...)
		for _, l := range a {
			twin = append(twin, strings.ReplaceAll(l, `"`+id+`"`, fmt.Sprintf(`"run-1796000744998-%d"`, k+1)))
		}
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(twin, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	want, wantRuns := evidenceOf(t, src)
	got, gotRuns := evidenceOf(t, path)
	if len(want) != 16 || len(got) != 32 {
		t.Fatalf("%d calls in the recording, %d in the twin; want 16 and 32", len(want), len(got))
	}
	// the two chains, as the recording's call and run numbers map into the file
	type chain struct{ calls, runs map[int]int }
	x, y := chain{map[int]int{}, map[int]int{1: 1, 2: 4}}, chain{map[int]int{}, map[int]int{1: 2, 2: 3}}
	for k := 1; k <= 16; k++ {
		x.calls[k], y.calls[k] = k, k+12 // A1 then B2; B1 then A2
		if k > 12 {
			x.calls[k] = k + 16
		}
	}
	for _, ch := range []chain{x, y} {
		for k, n := range ch.calls {
			if gotRuns[n] != ch.runs[wantRuns[k]] {
				t.Fatalf("twin call %d is in run %d, want %d", n, gotRuns[n], ch.runs[wantRuns[k]])
			}
			w := []exportedValue{}
			for _, v := range want[k] {
				v.Sources = slices.Clone(v.Sources)
				for s := range v.Sources {
					src := &v.Sources[s]
					src.Run, src.EvictedAt = ch.runs[src.Run], ch.calls[src.EvictedAt]
					src.SentOn = [2]int{ch.calls[src.SentOn[0]], ch.calls[src.SentOn[1]]}
				}
				w = append(w, v)
			}
			if !reflect.DeepEqual(got[n], w) {
				t.Errorf("twin call %d (the recording's call %d):\n got %+v\nwant %+v", n, k, got[n], w)
			}
		}
	}
}

// A conversation that branches (docs/rules/runs-and-conversations.md §10.8): runs r2 and r3
// both follow up r1, so both carry r1's list_hosts result, and each
// drops it on its own second call. A value of r2 names r2's calls only:
// sent on calls 2 (r1) and 3 (r2's first), evicted at 4; r3's are 2 and
// 5, evicted at 6 (docs/rules/evidence.md §6: never a sibling branch). The
// windows, worked out by hand with keepRecentTurns 2 and pins off (§2–§6):
//
//	r1 (calls 1–2): [P], then [P A1 T1]; it answers D1
//	r2 (calls 3–4) and r3 (5–6), request Q:
//	   [P A1 T1 D1 Q]  four turns, two may leave, at the front, but the new
//	                   head D1 is not a user message and no notice is
//	                   shorter than the span: nothing leaves
//	   [P A1 T1 D1 Q A2 T2] → turns 0–2 leave; the new head Q is a user
//	                   message and no notice is shorter: dropped silently,
//	                   [Q A2 T2]
//
// r3's first window is r1's carried history exactly (score 5); r2's
// carried history does not explain it, so both continue r1.
func TestBranchedConversationSources(t *testing.T) {
	p := msg{"user", "Find the host that is down.", "", nil, nil}
	a1 := msg{"assistant", "", "", []call{{"c1", "list_hosts"}}, nil}
	t1 := msg{"tool", "web-42 is down", "c1", nil, nil}
	d1 := msg{"assistant", "It is web-42.", "", nil, nil}
	var l logLines
	l.ev("r1", "agentfootprint.agent.run_configured", `{"agentId":"agent","window":"sliding-window"}`)
	l.ev("r1", "agentfootprint.agent.turn_start", js(map[string]any{"turnIndex": 0, "userPrompt": p.content}))
	l.call("r1", 1, []msg{p}, 0)
	l.tool("r1", "c1", "list_hosts", t1.content)
	l.history("r1", 1, []msg{p, a1, t1})
	l.call("r1", 2, []msg{p, a1, t1}, 0)
	l.final("r1", d1.content)
	for k, run := range []string{"r2", "r3"} {
		q := msg{"user", []string{"Restart it.", "Restart it once more."}[k], "", nil, nil}
		a2 := msg{"assistant", "", "", []call{{"c9", "restart"}}, nil}
		t2 := msg{"tool", "restarted", "c9", nil, nil}
		l.ev(run, "agentfootprint.agent.run_configured", `{"agentId":"agent","window":"sliding-window"}`)
		l.ev(run, "agentfootprint.agent.turn_start", js(map[string]any{"turnIndex": 0, "userPrompt": q.content}))
		l.call(run, 1, []msg{p, a1, t1, d1, q}, 0)
		l.tool(run, "c9", "restart", t2.content)
		l.history(run, 1, []msg{p, a1, t1, d1, q, a2, t2})
		l.call(run, 2, []msg{q, a2, t2}, 0)
		l.final(run, "Restarted web-42.")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := exportOf(t, "-q", "--strategy", "sliding-window", "--keep-recent-turns", "2", "--keep-last-tool-results", "0", path)
	if len(doc.Conversations) != 1 || len(doc.Conversations[0].Runs) != 3 {
		t.Fatalf("conversations %+v, want one of r1, r2, r3", doc.Conversations)
	}
	got := valuesOfExport(t, "-q", "--strategy", "sliding-window", "--keep-recent-turns", "2", "--keep-last-tool-results", "0", path)
	name, id := "list_hosts", "c1"
	for _, want := range []struct{ call, second, evicted int }{{4, 3, 4}, {6, 5, 6}} {
		vs := got[want.call]
		if len(vs) != 1 || vs[0].Value != "web-42" || vs[0].Verdict != "left" {
			t.Errorf("call %d: values %+v, want web-42 left", want.call, vs)
			continue
		}
		w := exportedSource{ToolName: &name, ToolCallID: &id, Run: 1, SentOn: [2]int{2, want.second}, EvictedAt: want.evicted, Rule: "pins-off"}
		if s := vs[0].Sources; len(s) != 1 || !reflect.DeepEqual(s[0], w) {
			t.Errorf("call %d: sources %+v, want sent on 2–%d, evicted at %d", want.call, s, want.second, want.evicted)
		}
	}
}
