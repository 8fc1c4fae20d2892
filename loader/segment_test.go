package loader

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// What §10.3–§10.6 read of each segment, checked against the READMEs of
// the recordings (testdata/c02, c06b, c07).
func TestSegmentsAndAgents(t *testing.T) {
	for _, file := range []string{"run.jsonl", "recording.json.gz"} {
		t.Run(file, func(t *testing.T) {
			// c06b: a Sequence of two agents in ONE runId; steps from
			// subflowPath; no run_configured; the step agents are named by
			// no agent id; iterations restart at 1 in the second step.
			rec := mustLoad(t, filepath.Join(testdata, "c06b-composition-sequence", file))
			var got []string
			for _, a := range rec.Agents {
				got = append(got, fmt.Sprintf("%s %v %q %v", a.Key, a.Path, a.Step, a.HasID))
			}
			want := `[pipeline/step-research [Sequence:pipeline step-research] "step-research" false pipeline/step-write [Sequence:pipeline step-write] "step-write" false]`
			if fmt.Sprint(got) != want {
				t.Errorf("c06b agents %v, want %s", got, want)
			}
			if len(rec.Runs) != 2 || rec.Runs[0].RunID != rec.Runs[1].RunID || rec.Runs[1].RunNo != 1 ||
				rec.Runs[0].Configured || len(rec.Runs[1].Calls) != 6 || rec.Runs[1].Calls[0].Iteration != 1 || rec.Runs[1].Calls[0].Number != 7 {
				t.Errorf("c06b segments: %d, %+v", len(rec.Runs), rec.Runs[1])
			}
			if file != "run.jsonl" && (len(rec.Runs[0].Records) == 0 || len(rec.Runs[1].Records) == 0) {
				t.Errorf("c06b: the steps' records (subflowResults) not read")
			}

			// c07: paused at iteration 5 on call_0005 and at 7 on call_0007
			// (a check-in); each resume mints a runId with no turn_start,
			// its first tool_end answers the paused call, and its first
			// iteration_end completes the paused call (history of 11).
			rec = mustLoad(t, filepath.Join(testdata, "c07-paused-tool", file))
			if len(rec.Runs) != 3 || len(rec.Agents) != 1 || rec.Agents[0].Key != "agent" || rec.Agents[0].AgentID != "agent" {
				t.Fatalf("c07: %d segments, agents %+v", len(rec.Runs), rec.Agents)
			}
			r1, r2, r3 := rec.Runs[0], rec.Runs[1], rec.Runs[2]
			if fmt.Sprint(r1.Unanswered) != "[call_0005]" || r1.Complete || !r1.HasTurnStart {
				t.Errorf("c07 run 1: unanswered %v, complete %v", r1.Unanswered, r1.Complete)
			}
			if r2.HasTurnStart || r2.FirstToolEnd != "call_0005" || r2.FirstOpened || fmt.Sprint(r2.Unanswered) != "[call_0007]" ||
				r2.Calls[0].Iteration != 6 || r2.LeadIteration != 5 || len(r2.LeadHistory) != 11 {
				t.Errorf("c07 run 2: %+v", r2)
			}
			if r3.HasTurnStart || r3.FirstToolEnd != "call_0007" || r3.FirstOpened || !r3.Complete || r3.Calls[0].Iteration != 8 {
				t.Errorf("c07 run 3: %+v", r3)
			}
			if file != "run.jsonl" && (len(r2.Records) == 0 || r2.Records[0].Iteration < 6) {
				t.Errorf("c07 run 2 files the records restored from run 1 again: %+v", r2.Records)
			}

			// c02: two agents, their lines interleaved one by one.
			rec = mustLoad(t, filepath.Join(testdata, "c02-interleaved-agents", file))
			got = nil
			for _, a := range rec.Agents {
				got = append(got, a.Key+"="+a.AgentID)
			}
			if fmt.Sprint(got) != "[oncall=oncall billing=billing]" || len(rec.Runs) != 3 {
				t.Errorf("c02 agents %v, %d segments", got, len(rec.Runs))
			}
		})
	}
}

// §10.5: a segment with no composition path is named by its
// run_configured agentId, else "agent".
func TestAgentKeyWithoutPath(t *testing.T) {
	log := `{"type":"agentfootprint.agent.run_configured","payload":{"agentId":"support"},"meta":{"runId":"r1"}}
{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"q"},"meta":{"runId":"r1"}}
{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"q"},"meta":{"runId":"r2"}}
`
	rec, err := Read(strings.NewReader(log), "nopath.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range rec.Agents {
		got = append(got, fmt.Sprintf("%s %q %v", a.Key, a.AgentID, a.HasID))
	}
	if fmt.Sprint(got) != `[support "support" true agent "" false]` {
		t.Errorf("agents %v", got)
	}
}
