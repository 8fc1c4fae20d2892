package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const c02 = "../testdata/c02-interleaved-agents/run.jsonl"

type agentDoc struct {
	Policy struct {
		KeepRecentTurns int    `json:"keepRecentTurns"`
		Evidence        string `json:"evidence"`
	} `json:"policy"`
	Agents []struct {
		Agent   string  `json:"agent"`
		AgentID *string `json:"agentId"`
	} `json:"agents"`
	Conversations []struct {
		Conversation int      `json:"conversation"`
		Agent        string   `json:"agent"`
		Runs         []string `json:"runs"`
	} `json:"conversations"`
	Calls []struct {
		Call, Run, Conversation int
		RunID                   string `json:"runId"`
		Agent                   string `json:"agent"`
	} `json:"calls"`
}

func exportDocOf(t *testing.T, args ...string) agentDoc {
	t.Helper()
	code, out, errs := runCLI(append([]string{"export", "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d, %s", args, code, errs)
	}
	var d agentDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// --agent keeps one agent's calls, agents and conversations with the
// numbers of the whole file (§13.2), and its policy; flags then apply to
// it alone. c02's README: oncall (9 calls, K 2) and billing (a run and a
// follow-up, 12 calls, K 4, pins off), interleaved. (Billing's windows
// never tell its pins apart: every L reproduces them, and §10.10 then
// takes the library default and says so.)
func TestAgentRestriction(t *testing.T) {
	all := exportDocOf(t, c02)
	if len(all.Agents) != 2 || all.Agents[0].Agent != "oncall" || all.Agents[1].Agent != "billing" || len(all.Calls) != 21 {
		t.Fatalf("agents %+v, %d calls", all.Agents, len(all.Calls))
	}
	numbers := map[int]string{}
	for _, c := range all.Calls {
		numbers[c.Call] = fmt.Sprint(c.Run, c.RunID, c.Conversation, c.Agent)
	}
	billing := exportDocOf(t, "--agent", "billing", c02)
	if len(billing.Agents) != 1 || len(billing.Calls) != 12 || billing.Policy.KeepRecentTurns != 4 || !strings.Contains(billing.Policy.Evidence, "12/12") || !strings.Contains(billing.Policy.Evidence, "L 0–5") {
		t.Fatalf("--agent billing: agents %+v, %d calls, policy %+v", billing.Agents, len(billing.Calls), billing.Policy)
	}
	for _, c := range billing.Calls {
		if numbers[c.Call] != fmt.Sprint(c.Run, c.RunID, c.Conversation, c.Agent) || c.Agent != "billing" {
			t.Errorf("call %d: %v restricted, %s in the whole file", c.Call, c, numbers[c.Call])
		}
	}
	if len(billing.Conversations) != 1 || billing.Conversations[0].Conversation != 2 || len(billing.Conversations[0].Runs) != 2 {
		t.Errorf("billing's conversations %+v: want conversation 2, its run and follow-up", billing.Conversations)
	}
	// a flag applies to the chosen agent alone
	k1 := exportDocOf(t, "--agent", "oncall", "--keep-recent-turns", "1", c02)
	if k1.Policy.KeepRecentTurns != 1 || len(k1.Calls) != 9 {
		t.Errorf("--agent oncall --keep-recent-turns 1: policy %+v, %d calls", k1.Policy, len(k1.Calls))
	}
	code, out, errs := runCLI("export", "--agent", "payroll", c02)
	if code != 2 || out != "" || !strings.Contains(errs, "oncall") || !strings.Contains(errs, "billing") {
		t.Errorf("--agent payroll: exit %d, stderr %q; want 2 naming the agents", code, errs)
	}
}
