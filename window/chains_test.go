package window_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Recordings of real logs (docs/rules/runs-and-conversations.md §10): several conversations,
// interleaved agents, a Sequence, a paused and resumed run, token-budget
// follow-ups. Each is replayed per agent — under the policy its README
// states (wire.json, keyed by agent where the agents differ) and under the
// inferred one, from the log and from the envelope — and compared with
// the wire message for message, calls matched by (runId, iteration,
// occurrence) (§13.4); records with the envelope's own; conversations
// with the wire's.
var chainScenarios = []string{
	"c01-two-conversations", "c02-interleaved-agents", "c06b-composition-sequence",
	"c07-paused-tool", "c09-token-budget-followups",
}

// chainWire is wire.json of these recordings: calls carry their runId,
// agentId, conversation or step ("for"); the policy is one, or a map by
// agentId.
type chainWire struct {
	PolicyKeyedBy string          `json:"policyKeyedBy"`
	Policy        json.RawMessage `json:"policy"`
	Calls         []chainCall     `json:"calls"`
}

type chainCall struct {
	Call         int           `json:"call"`
	RunID        string        `json:"runId"`
	AgentID      string        `json:"agentId"`
	For          string        `json:"for"`
	Conversation *int          `json:"conversation"`
	Iteration    *int          `json:"iteration"`
	Messages     []wireMessage `json:"messages"`
}

type wirePolicy struct {
	Strategy            string `json:"strategy"`
	KeepRecentTurns     int    `json:"keepRecentTurns"`
	KeepLastToolResults any    `json:"keepLastToolResults"`
	ThresholdTokens     int    `json:"thresholdTokens"`
}

func (w wirePolicy) policy() model.Policy {
	p := model.Policy{Strategy: w.Strategy, KeepRecentTurns: w.KeepRecentTurns, KeepLastToolResults: 2, ThresholdTokens: w.ThresholdTokens}
	switch l := w.KeepLastToolResults.(type) {
	case bool:
		if !l {
			p.KeepLastToolResults = 0
		}
	case float64:
		p.KeepLastToolResults = int(l)
	}
	return p
}

func readChainWire(t *testing.T, dir string) chainWire {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w chainWire
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// policies are the stated policies by agent key: a wire key is the agent
// with that agentId, else the Sequence step its calls were for.
func (w chainWire) policies(t *testing.T, rec *model.Recording) map[string]model.Policy {
	t.Helper()
	out := map[string]model.Policy{}
	if w.PolicyKeyedBy == "" {
		var p wirePolicy
		if err := json.Unmarshal(w.Policy, &p); err != nil {
			t.Fatal(err)
		}
		for _, a := range rec.Agents {
			out[a.Key] = p.policy()
		}
		return out
	}
	var byKey map[string]wirePolicy
	if err := json.Unmarshal(w.Policy, &byKey); err != nil {
		t.Fatal(err)
	}
	for key, p := range byKey {
		step := ""
		for _, c := range w.Calls {
			if c.AgentID == key {
				step = c.For
			}
		}
		found := false
		for _, a := range rec.Agents {
			if a.HasID && a.AgentID == key || !a.HasID && step != "" && a.Step == step {
				out[a.Key], found = p.policy(), true
			}
		}
		if !found {
			t.Fatalf("no agent of the log for wire agent %q (step %q)", key, step)
		}
	}
	return out
}

type callID struct {
	runID     string
	iteration int
	occ       int
}

// byIdentity keys calls by (runId, iteration, occurrence) (§13.4).
func byIdentity[C any](calls []C, id func(C) (string, int)) map[callID]C {
	out := map[callID]C{}
	seen := map[[2]any]int{}
	for _, c := range calls {
		r, it := id(c)
		k := [2]any{r, it}
		out[callID{r, it, seen[k]}] = c
		seen[k]++
	}
	return out
}

func checkChainWindows(t *testing.T, r *window.Replay, w chainWire) {
	t.Helper()
	have := byIdentity(r.Calls, func(c window.CallReplay) (string, int) { return c.Run.RunID, c.Call.Iteration })
	want := byIdentity(w.Calls, func(c chainCall) (string, int) { return c.RunID, *c.Iteration })
	if len(have) != len(want) {
		t.Fatalf("%d calls replayed, the library made %d", len(have), len(want))
	}
	for id, wc := range want {
		c, ok := have[id]
		if !ok {
			t.Fatalf("wire call %d (%v) not replayed", wc.Call, id)
		}
		got := c.Window()
		for j := 0; j < len(got) || j < len(wc.Messages); j++ {
			if j >= len(got) || j >= len(wc.Messages) || !sameAsWire(got[j], wc.Messages[j]) {
				t.Fatalf("wire call %d (%v): window differs at message %d (%d vs %d messages)", wc.Call, id, j, len(got), len(wc.Messages))
			}
		}
		if c.Recorded() != window.Match {
			t.Errorf("wire call %d: reproduced, yet said %s", wc.Call, c.Recorded())
		}
	}
}

// checkConversations: the replay's conversation of every call is the
// wire's, numbered in order of first appearance.
func checkConversations(t *testing.T, r *window.Replay, w chainWire) {
	t.Helper()
	have := byIdentity(r.Calls, func(c window.CallReplay) (string, int) { return c.Run.RunID, c.Call.Iteration })
	relabel := map[int]int{}
	for _, wc := range w.Calls { // wire calls are in call order
		if wc.Conversation == nil {
			return
		}
		if _, ok := relabel[*wc.Conversation]; !ok {
			relabel[*wc.Conversation] = len(relabel) + 1
		}
	}
	want := byIdentity(w.Calls, func(c chainCall) (string, int) { return c.RunID, *c.Iteration })
	for id, wc := range want {
		if got := have[id].Conversation; got != relabel[*wc.Conversation] {
			t.Errorf("wire call %d: conversation %d, the wire's %d is %d in order of first appearance", wc.Call, got, *wc.Conversation, relabel[*wc.Conversation])
		}
	}
}

// libraryRecords reads the envelope's records on its own: per envelope,
// sharedState.compactions (step "") and each step's
// subflowResults[step].treeContext.globalContext.compactions, keyed
// (runId, step, iteration); a record whose iteration is not a call of
// that envelope's events is a copy restored across a resume, not filed
// again (§12.1).
func libraryRecords(t *testing.T, path string) map[string]model.Record {
	t.Helper()
	envs := readEnvelopes(t, path)
	out := map[string]model.Record{}
	for _, e := range envs {
		calls := map[string]bool{}
		for _, ev := range e.Recording.Events {
			if ev.Type != "agentfootprint.stream.llm_start" {
				continue
			}
			step, m := "", ev.Meta
			if n := len(m.CompositionPath); n > 0 && len(m.SubflowPath) > 0 && len(m.CompositionPath[n-1]) >= 6 && m.CompositionPath[n-1][:6] != "Agent:" {
				step = m.SubflowPath[0]
			}
			calls[fmt.Sprint(step, "/", ev.Payload.Iteration)] = true
		}
		file := func(step string, rs []model.Record) {
			for _, r := range rs {
				if calls[fmt.Sprint(step, "/", r.Iteration)] {
					out[fmt.Sprint(e.Run.RunID, "/", step, "/", r.Iteration)] = r
				}
			}
		}
		file("", e.Recording.Snapshot.SharedState.Compactions)
		for step, sf := range e.Recording.Snapshot.SubflowResults {
			file(step, sf.TreeContext.GlobalContext.Compactions)
		}
	}
	return out
}

// envelope is what the record tests read of one of a recording.json's
// envelopes: its events' places and its snapshot's records.
type envelope struct {
	Run struct {
		RunID string `json:"runId"`
	} `json:"run"`
	Recording struct {
		Events []struct {
			Type    string `json:"type"`
			Payload struct {
				Iteration int `json:"iteration"`
			} `json:"payload"`
			Meta struct {
				CompositionPath []string `json:"compositionPath"`
				SubflowPath     []string `json:"subflowPath"`
			} `json:"meta"`
		} `json:"events"`
		Snapshot struct {
			SharedState    compactions `json:"sharedState"`
			SubflowResults map[string]struct {
				TreeContext struct {
					GlobalContext compactions `json:"globalContext"`
				} `json:"treeContext"`
			} `json:"subflowResults"`
		} `json:"snapshot"`
	} `json:"recording"`
}

type compactions struct {
	Compactions []model.Record `json:"compactions"`
}

// readEnvelopes reads a gzipped recording.json: one envelope or an array
// of them.
func readEnvelopes(t *testing.T, path string) []envelope {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if raw[0] != '[' {
		raw = append(append(json.RawMessage("["), raw...), ']')
	}
	var envs []envelope
	if err := json.Unmarshal(raw, &envs); err != nil {
		t.Fatal(err)
	}
	return envs
}

func checkChainRecords(t *testing.T, r *window.Replay, want map[string]model.Record) {
	t.Helper()
	have := map[string]model.Record{}
	for _, c := range r.Calls {
		if c.Visit.Record != nil {
			have[fmt.Sprint(c.Run.RunID, "/", c.Run.Step, "/", c.Call.Iteration)] = *c.Visit.Record
		}
	}
	if len(have) != len(want) {
		t.Errorf("%d records replayed, the library filed %d", len(have), len(want))
	}
	for k, w := range want {
		if h, ok := have[k]; !ok || !sameRecord(w, h) {
			t.Errorf("%s:\n library %+v\n replay  %+v", k, w, h)
		}
	}
}

func TestChainsMatchWire(t *testing.T) {
	eachWireFile(t, chainScenarios, func(t *testing.T, dir string, w chainWire) func(t *testing.T, file string, rec *model.Recording, lin *lineage.Lineage) {
		records := libraryRecords(t, filepath.Join(dir, "recording.json.gz"))
		return func(t *testing.T, file string, rec *model.Recording, lin *lineage.Lineage) {
			t.Run(file+"/given", func(t *testing.T) {
				r := window.RunAgents(rec, lin, w.policies(t, rec), nil)
				checkChainWindows(t, r, w)
				checkConversations(t, r, w)
				if file != "run.jsonl" {
					checkChainRecords(t, r, records)
				}
			})
			t.Run(file+"/inferred", func(t *testing.T) {
				r, _ := inferredReplay(t, rec, lin)
				checkChainWindows(t, r, w)
				checkConversations(t, r, w)
			})
		}
	})
}

// eachWireFile reads each scenario's wire.json, lets open read what
// else it needs from the folder, then hands its check the log and the
// envelope, each loaded and its lineage decided.
func eachWireFile(t *testing.T, names []string, open func(t *testing.T, dir string, w chainWire) func(t *testing.T, file string, rec *model.Recording, lin *lineage.Lineage)) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", name)
			check := open(t, dir, readChainWire(t, dir))
			for _, file := range []string{"run.jsonl", "recording.json.gz"} {
				rec, err := loader.StartLimited(filepath.Join(dir, file), 0).Wait()
				if err != nil {
					t.Fatal(err)
				}
				check(t, file, rec, lineage.Decide(rec))
			}
		})
	}
}

// inferredReplay replays every agent under the policy inferred for it,
// an error for each agent whose policy does not reproduce all its
// recorded windows.
func inferredReplay(t *testing.T, rec *model.Recording, lin *lineage.Lineage) (*window.Replay, []window.Inference) {
	t.Helper()
	infs := window.InferAgents(rec, lin)
	policies := map[string]model.Policy{}
	for _, inf := range infs {
		if inf.Matched != inf.Compared {
			t.Errorf("agent %s: inferred %v reproduces %d/%d", inf.Agent.Key, inf.Policy, inf.Matched, inf.Compared)
		}
		policies[inf.Agent.Key] = inf.Policy
	}
	return window.Merge(rec, lin, infs, policies), infs
}
