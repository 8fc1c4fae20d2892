package window_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Logs in the shapes of §10 that no recording here has, made from the
// recordings without changing what the library sent (scripts/mutate does
// the same at scale): every line is a line of a recording, only the order
// changes, and where a shape needs it a runId or an agent's id is renamed.
// Each window must still be the one the library sent (matched by runId,
// iteration and occurrence, §13.4) under the inferred policies, and each
// conversation the recording's.
func TestMutatedLogsMatchWire(t *testing.T) {
	for _, m := range []struct {
		name  string
		build func(t *testing.T) ([]string, []*mutSource)
	}{
		{"batches of two sinks (c01, c09 as billing)", func(t *testing.T) ([]string, []*mutSource) {
			a, b := loadMut(t, "c01-two-conversations", 0), loadMut(t, "c09-token-budget-followups", 1)
			b.renameAgent("billing")
			return batchLines([]int{3, 17, 8, 20, 5, 11}, a.lines, b.lines), []*mutSource{a, b}
		}},
		{"agent-as-tool child (s01 inside demo-incident's third tool call)", func(t *testing.T) ([]string, []*mutSource) {
			p, c := loadMut(t, "demo-incident", 0), loadMut(t, "s01-basic-loop", 1)
			c.renameAgent("child")
			c.renameRuns("run-1796000000001")
			at := nthLine(p.lines, `"agentfootprint.stream.tool_start"`, 3)
			return concat(p.lines[:at+1], c.lines, p.lines[at+1:]), []*mutSource{p, c}
		}},
		{"follow-up after another conversation (s05 run 1, s01, s05 runs 2-3)", func(t *testing.T) ([]string, []*mutSource) {
			a, b := loadMut(t, "s05-multi-turn", 0), loadMut(t, "s01-basic-loop", 1)
			end := a.lastLineOf(a.runs[0])
			return concat(a.lines[:end+1], b.lines, a.lines[end+1:]), []*mutSource{a, b}
		}},
	} {
		t.Run(m.name, func(t *testing.T) {
			lines, sources := m.build(t)
			rec, lin := loadLines(t, lines)
			r, _ := inferredReplay(t, rec, lin)
			if len(rec.Problems) > 0 || len(lin.Problems) > 0 {
				t.Errorf("problems: %v %v", rec.Problems, lin.Problems)
			}
			w := mutWire(t, lines, sources)
			checkChainWindows(t, r, w)
			checkConversations(t, r, w)
		})
	}
}

// mutSource is one recording's lines and calls, renamed as a shape needs.
type mutSource struct {
	index int
	lines []string
	runs  []string // runIds in order of first event
	calls []chainCall
}

func loadMut(t *testing.T, name string, index int) *mutSource {
	t.Helper()
	dir := filepath.Join("..", "testdata", name)
	data, err := os.ReadFile(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s := &mutSource{index: index}
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		s.lines = append(s.lines, l)
		if r := runIDOf(l); r != "" && !contains(s.runs, r) {
			s.runs = append(s.runs, r)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "wire.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Calls []struct {
			chainCall
			Run int `json:"run"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	for _, c := range w.Calls {
		if c.RunID == "" { // the older wires number the runs only
			c.RunID = s.runs[c.Run-1]
		}
		conv := 1000 * (index + 1) // one conversation, unless the wire says
		if c.Conversation != nil {
			conv += *c.Conversation
		}
		c.Conversation = &conv
		s.calls = append(s.calls, c.chainCall)
	}
	return s
}

func runIDOf(line string) string {
	var e struct {
		Meta struct {
			RunID string `json:"runId"`
		} `json:"meta"`
	}
	if json.Unmarshal([]byte(line), &e) != nil || e.Meta.RunID == "consumer-scope" {
		return ""
	}
	return e.Meta.RunID
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (s *mutSource) replace(old, new string) {
	for i := range s.lines {
		s.lines[i] = strings.ReplaceAll(s.lines[i], old, new)
	}
}

// renameAgent gives the agent another id: its composition path and
// run_configured say so (the windows do not name it).
func (s *mutSource) renameAgent(id string) {
	s.replace(`"Agent:agent"`, fmt.Sprintf("%q", "Agent:"+id))
	s.replace(`"agentId":"agent"`, fmt.Sprintf(`"agentId":%q`, id))
}

// renameRuns gives every run a fresh runId, prefix-1, prefix-2, …
func (s *mutSource) renameRuns(prefix string) {
	for i, old := range s.runs {
		new := fmt.Sprintf("%s-%d", prefix, i+1)
		s.replace(fmt.Sprintf("%q", old), fmt.Sprintf("%q", new))
		for k := range s.calls {
			if s.calls[k].RunID == old {
				s.calls[k].RunID = new
			}
		}
		s.runs[i] = new
	}
}

func (s *mutSource) lastLineOf(run string) int {
	last := -1
	for i, l := range s.lines {
		if runIDOf(l) == run {
			last = i
		}
	}
	return last
}

func nthLine(lines []string, has string, n int) int {
	for i, l := range lines {
		if strings.Contains(l, has) {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// batchLines takes each stream's lines in order, batch after batch (sizes
// cycling through sizes), alternating between the streams.
func batchLines(sizes []int, streams ...[]string) []string {
	var out []string
	pos := make([]int, len(streams))
	for k, left := 0, true; left; k++ {
		left = false
		for i, s := range streams {
			n := min(sizes[(k+i)%len(sizes)], len(s)-pos[i])
			out = append(out, s[pos[i]:pos[i]+n]...)
			pos[i] += n
			left = left || pos[i] < len(s)
		}
	}
	return out
}

// mutWire is the sources' wire calls in the new file's llm_start order.
func mutWire(t *testing.T, lines []string, sources []*mutSource) chainWire {
	t.Helper()
	byID := map[callID]chainCall{}
	for _, s := range sources {
		for id, c := range byIdentity(s.calls, func(c chainCall) (string, int) { return c.RunID, *c.Iteration }) {
			byID[id] = c
		}
	}
	var w chainWire
	seen := map[[2]any]int{}
	for _, l := range lines {
		if !strings.Contains(l, `"agentfootprint.stream.llm_start"`) {
			continue
		}
		var e struct {
			Payload struct {
				Iteration int `json:"iteration"`
			} `json:"payload"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		k := [2]any{runIDOf(l), e.Payload.Iteration}
		c, ok := byID[callID{runIDOf(l), e.Payload.Iteration, seen[k]}]
		if !ok {
			t.Fatalf("no wire call for %v", k)
		}
		seen[k]++
		c.Call = len(w.Calls) + 1
		w.Calls = append(w.Calls, c)
	}
	if len(w.Calls) != len(byID) {
		t.Fatalf("%d llm_start lines, %d wire calls", len(w.Calls), len(byID))
	}
	// conversations are numbered by the first event of their first run
	// (§10.8), which may come before an earlier-numbered call's: the calls
	// in that order, each run's in call order (identity is per runId)
	first := map[string]int{}
	for i, l := range lines {
		if r := runIDOf(l); r != "" {
			if _, ok := first[r]; !ok {
				first[r] = i
			}
		}
	}
	slices.SortStableFunc(w.Calls, func(a, b chainCall) int { return first[a.RunID] - first[b.RunID] })
	return w
}

// Two summarize-oldest agents in one file (c04, and s10 renamed digest,
// in batches): each keeps the refusals learned under its own recorded
// policy (§11.9). c04's library refused to fold a span at iteration 7
// (its README: 'replacement-not-smaller'); under keepRecentTurns 1 the
// same span comes up at run 1's iteration 6 and must be refused again —
// as it is when c04 is replayed alone — not folded with a placeholder
// because the other agent's book was taken for c04's.
func TestEachSummarizeAgentKeepsItsRefusals(t *testing.T) {
	a, b := loadMut(t, "c04-summarize-multi", 0), loadMut(t, "s10-summarize", 1)
	b.renameAgent("digest")
	rec, lin := loadLines(t, batchLines([]int{9, 4, 15}, a.lines, b.lines))
	infs := window.InferAgents(rec, lin)
	policies := map[string]model.Policy{}
	for _, inf := range infs {
		p := inf.Policy
		p.KeepRecentTurns = 1
		policies[inf.Agent.Key] = p
	}
	r := window.Merge(rec, lin, infs, policies)
	for _, c := range r.Calls {
		if c.Run.RunID != a.runs[0] || c.Call.Iteration != 6 {
			continue
		}
		rd := c.Visit.Record
		if rd == nil || rd.RemovedMessageCount != 0 || len(rd.Refusals) == 0 || rd.Refusals[0].Reason != model.ReasonReplacementNotSmaller {
			t.Fatalf("c04 iteration 6 under K=1: record %+v, want the span refused (replacement-not-smaller)", rd)
		}
		return
	}
	t.Fatal("no call of c04's run 1 at iteration 6")
}

// loadLines loads a mutated log written to a temp file, and decides its
// lineage.
func loadLines(t *testing.T, lines []string) (*model.Recording, *lineage.Lineage) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec, lineage.Decide(rec)
}
