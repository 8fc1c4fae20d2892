package loader

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// What §15 reads of compositions that run several agent runs in one
// runId, checked against the READMEs of testdata/n06 and n07: the agent
// key, path and step of each agent, one Run per pass, a Parallel's own
// merge calls kept as the composition's.
func TestCompositionAgentsAndPasses(t *testing.T) {
	for _, file := range []string{"run.jsonl", "recording.json.gz"} {
		t.Run(file, func(t *testing.T) {
			// n07: Loop 'refine' runs agent 'drafter' three passes in run 1
			// (15 calls, iterations 1-5 each); Conditional 'router' takes
			// 'urgent' in run 2 (calls 16-20) and 'normal' in run 3 (21-24).
			rec := mustLoad(t, filepath.Join(testdata, "n07-loop-conditional", file))
			if len(rec.Problems) != 0 {
				t.Errorf("n07: problems in a whole recording: %v", rec.Problems)
			}
			want := `[refine/body [Loop:refine body] "body" false router/urgent [Conditional:router urgent] "urgent" false router/normal [Conditional:router normal] "normal" false]`
			if got := agentList(rec); got != want {
				t.Errorf("n07 agents %s\nwant %s", got, want)
			}
			var runs []string
			for _, r := range rec.Runs {
				runs = append(runs, fmt.Sprintf("%d/%s/%d:%d-%d", r.RunNo, r.Step, r.Pass, r.Calls[0].Number, r.Calls[len(r.Calls)-1].Number))
			}
			if got := fmt.Sprint(runs); got != "[1/body/1:1-5 1/body/2:6-10 1/body/3:11-15 2/urgent/1:16-20 3/normal/1:21-24]" {
				t.Errorf("n07 runs %s", got)
			}
			for _, r := range rec.Runs[:3] {
				if r.Calls[0].Iteration != 1 || r.Calls[4].Iteration != 5 || !r.HasTurnStart || !r.Complete {
					t.Errorf("n07 pass %d: iterations %d-%d, turn_start %v, turn_end %v", r.Pass, r.Calls[0].Iteration, r.Calls[4].Iteration, r.HasTurnStart, r.Complete)
				}
			}

			// n06: Parallel 'triage', branches 'metrics' and 'logs', and after
			// them its own merge call (wire calls 12 and 21): iteration 1, one
			// message, with no turn_start and no window in the log.
			rec = mustLoad(t, filepath.Join(testdata, "n06-parallel-composition", file))
			if len(rec.Problems) != 0 {
				t.Errorf("n06: problems in a whole recording: %v", rec.Problems)
			}
			want = `[triage/metrics [Parallel:triage metrics] "metrics" false triage/logs [Parallel:triage logs] "logs" false triage [Parallel:triage] "" true]`
			if got := agentList(rec); got != want {
				t.Errorf("n06 agents %s\nwant %s", got, want)
			}
			var merges []string
			for _, r := range rec.Runs {
				if r.Composition {
					for _, c := range r.Calls {
						merges = append(merges, fmt.Sprintf("%d it%d n%d recorded %v", c.Number, c.Iteration, c.MessagesCount, c.Recorded != nil))
					}
				}
			}
			if got := fmt.Sprint(merges); got != "[12 it1 n1 recorded false 21 it1 n1 recorded false]" {
				t.Errorf("n06 merge calls %s", got)
			}
		})
	}
}

func agentList(rec *model.Recording) string {
	var got []string
	for _, a := range rec.Agents {
		got = append(got, fmt.Sprintf("%s %v %q %v", a.Key, a.Path, a.Step, a.Composition))
	}
	return fmt.Sprint(got)
}

// §15.4: pass k's records are those of the k-th subflowResults entry
// 'body#N' in increasing N (n07's README: body#2, body#113, body#224),
// read here from the envelope on its own.
func TestRecordsOfEachPass(t *testing.T) {
	path := filepath.Join(testdata, "n07-loop-conditional", "recording.json.gz")
	type envelope struct {
		Recording struct {
			Snapshot struct {
				SubflowResults map[string]struct {
					TreeContext struct {
						GlobalContext struct {
							Compactions []model.Record `json:"compactions"`
						} `json:"globalContext"`
					} `json:"treeContext"`
				} `json:"subflowResults"`
			} `json:"snapshot"`
		} `json:"recording"`
	}
	envs := envelopesAt[envelope](t, path)
	rec := mustLoad(t, path)
	for pass, key := range []string{"body#2", "body#113", "body#224"} {
		want := envs[0].Recording.Snapshot.SubflowResults[key].TreeContext.GlobalContext.Compactions
		r := rec.Runs[pass]
		if r.Step != "body" || r.Pass != pass+1 {
			t.Fatalf("run %d is %s pass %d", pass, r.Step, r.Pass)
		}
		got, _ := json.Marshal(r.Records)
		exp, _ := json.Marshal(want)
		if len(want) == 0 || !r.HasRecords || string(got) != string(exp) {
			t.Errorf("pass %d: records %s\nwant %s's %s", pass+1, got, key, exp)
		}
	}
}

// Shapes of §15 no recording here holds, from the spec's own examples: a
// swarm (a Loop around a Conditional, its agents named only by
// subflowPath[1], the same agent twice in one runId) and a Parallel with
// a merge call nested in a Sequence step (§15.1's amendment, §15.5).
func TestAgentPathTable(t *testing.T) {
	ev := func(typ, run, comp, sub, payload string) string {
		return fmt.Sprintf(`{"type":"agentfootprint.%s","payload":%s,"meta":{"runId":%q,"compositionPath":%s,"subflowPath":%s}}`,
			typ, payload, run, comp, sub)
	}
	agentRun := func(run, comp, sub, final, prompt string) []string {
		return []string{
			ev("agent.turn_start", run, comp, sub, fmt.Sprintf(`{"userPrompt":%q}`, prompt)),
			ev("stream.llm_start", run, comp, sub, `{"iteration":1,"messagesCount":1}`),
			ev("stream.llm_end", run, comp, sub, `{"content":"done","usage":{"input":1,"output":1}}`),
			ev("agent.turn_end", run, comp, final, `{"finalContent":"done"}`),
		}
	}
	swarm := `["Loop:oncall-swarm"]`
	var lines []string
	lines = append(lines, ev("composition.enter", "r1", swarm, `[]`, `{"kind":"Loop","id":"oncall-swarm"}`))
	for i, name := range []string{"triage", "metrics", "triage"} {
		lines = append(lines, ev("composition.enter", "r1", swarm, `["body"]`, `{"kind":"Conditional","id":"pick"}`),
			ev("composition.route_decided", "r1", swarm, `["body"]`, fmt.Sprintf(`{"chosen":%q}`, name)))
		lines = append(lines, agentRun("r1", swarm, fmt.Sprintf(`["body",%q]`, name), fmt.Sprintf(`["body",%q,"final"]`, name), fmt.Sprint("hand-off ", i))...)
	}
	seq := `["Sequence:pipeline"]`
	lines = append(lines, ev("composition.enter", "r2", seq, `[]`, `{"kind":"Sequence","id":"pipeline"}`),
		ev("composition.enter", "r2", seq, `["step-triage"]`, `{"kind":"Parallel","id":"triage"}`))
	lines = append(lines, agentRun("r2", seq, `["step-triage","metrics"]`, `["step-triage","metrics","final"]`, "q")...)
	lines = append(lines, agentRun("r2", seq, `["step-triage","logs"]`, `["step-triage","logs","final"]`, "q")...)
	lines = append(lines, ev("stream.llm_start", "r2", seq, `["step-triage"]`, `{"iteration":1,"messagesCount":1}`),
		ev("stream.llm_end", "r2", seq, `["step-triage"]`, `{"content":"merged","usage":{"input":1,"output":1}}`))
	rec, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "shapes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := `[oncall-swarm/body/triage [Loop:oncall-swarm body triage] "body/triage" false ` +
		`oncall-swarm/body/metrics [Loop:oncall-swarm body metrics] "body/metrics" false ` +
		`pipeline/step-triage/metrics [Sequence:pipeline step-triage metrics] "step-triage/metrics" false ` +
		`pipeline/step-triage/logs [Sequence:pipeline step-triage logs] "step-triage/logs" false ` +
		`pipeline/step-triage [Sequence:pipeline step-triage] "step-triage" true]`
	if got := agentList(rec); got != want {
		t.Errorf("agents %s\nwant %s", got, want)
	}
	var runs []string
	for _, r := range rec.Runs {
		runs = append(runs, fmt.Sprintf("%s#%d:%d", r.Agent.Key, r.Pass, len(r.Calls)))
	}
	if got := fmt.Sprint(runs); got != "[oncall-swarm/body/triage#1:1 oncall-swarm/body/metrics#1:1 oncall-swarm/body/triage#2:1 "+
		"pipeline/step-triage/metrics#1:1 pipeline/step-triage/logs#1:1 pipeline/step-triage#1:1]" {
		t.Errorf("runs %s", got)
	}
	if len(rec.Problems) != 0 {
		t.Errorf("problems %v", rec.Problems)
	}
}

// A compositionPath the loader did not understand lost every call of its
// agent with no problem said (a NUL inside an id split the path it joined
// with NUL; a last entry not Agent:<id> made every event the
// composition's own): `inspect evidence --fail-on …` then passed on no
// calls. Each variant keeps all 16 calls of demo-evidence, under the key
// its path makes, and says so with file and line where the path is not a
// plain agent's.
func TestUnknownCompositionPathLosesNoCall(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(testdata, "demo-evidence", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := Read(strings.NewReader(string(orig)), "demo-evidence.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := countCalls(base)
	if n != 16 {
		t.Fatalf("demo-evidence has %d calls, want 16", n)
	}
	cases := []struct {
		path, key string
		reported  bool
	}{
		{`["agent"]`, "agent", true},
		{`["Tool:agent"]`, "agent", true},
		{`["Agent:agent","x"]`, "agent/x", true},
		{`["Agent:agent\u0000"]`, "agent\x00", false}, // a plain agent whose id holds a NUL
		{`["Agent:a/b\u0000c"]`, "a/b\x00c", false},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			log := strings.ReplaceAll(string(orig), `"compositionPath":["Agent:agent"]`, `"compositionPath":`+c.path)
			rec, err := Read(strings.NewReader(log), "x.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if got := countCalls(rec); got != n {
				t.Fatalf("%d calls kept, want %d", got, n)
			}
			if len(rec.Agents) != 1 || rec.Agents[0].Key != c.key {
				t.Errorf("agents %v, want one, %q", agentList(rec), c.key)
			}
			for i, r := range rec.Runs {
				for k, call := range r.Calls {
					if !slices.Equal(call.Recorded, base.Runs[i].Calls[k].Recorded) && !sameTexts(call.Recorded, base.Runs[i].Calls[k].Recorded) {
						t.Fatalf("run %d call %d: recorded window differs from the original's", i+1, k+1)
					}
				}
			}
			reported := false
			for _, p := range rec.Problems {
				if p.Line > 0 && strings.Contains(p.Message, fmt.Sprintf("x.jsonl:%d: ", p.Line)) && strings.Contains(p.Message, "kept as agent") {
					reported = true
				}
			}
			if reported != c.reported {
				t.Errorf("reported %v, want %v: %v", reported, c.reported, rec.Problems)
			}
		})
	}
	// a call of no run is said, with its line
	lines := strings.Split(string(orig), "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "stream.llm_start") })
	lines[at] = strings.Replace(lines[at], `"runId":"`, `"notRunId":"`, 1)
	rec, err := Read(strings.NewReader(strings.Join(lines, "\n")), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	found := slices.ContainsFunc(rec.Problems, func(p model.Problem) bool {
		return p.Line == at+1 && strings.Contains(p.Message, "stream.llm_start belongs to no run")
	})
	if countCalls(rec) != n-1 || !found {
		t.Errorf("%d calls, problems %v: want %d and one at line %d", countCalls(rec), rec.Problems, n-1, at+1)
	}
}

func sameTexts(a, b []*model.Message) bool {
	return slices.EqualFunc(a, b, model.SameText)
}
