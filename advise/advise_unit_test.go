package advise

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
)

// The token estimate, on hand-made points: a line through them exactly
// (input = 30 + 1 × chars); a line whose slope would be negative goes
// through zero instead (the recorded tokens per character); no usage,
// four characters a token.
func TestFit(t *testing.T) {
	var f fitSums
	for _, p := range [][2]float64{{100, 130}, {200, 230}, {300, 330}} {
		f.n, f.x, f.y, f.xx, f.xy, f.yy = f.n+1, f.x+p[0], f.y+p[1], f.xx+p[0]*p[0], f.xy+p[0]*p[1], f.yy+p[1]*p[1]
	}
	if got := f.fit(); math.Abs(got.Base-30) > 1e-9 || math.Abs(got.PerChar-1) > 1e-9 || got.Calls != 3 || math.Abs(got.R2-1) > 1e-9 {
		t.Errorf("fit %+v, want 30 + 1 × chars, R² 1", got)
	}
	if got := (Fit{Base: 30, PerChar: 1}).tokens(2, 500); got != 560 {
		t.Errorf("2 calls of 500 chars: %d tokens, want 560", got)
	}
	f = fitSums{}
	for _, p := range [][2]float64{{100, 300}, {200, 100}} {
		f.n, f.x, f.y, f.xx, f.xy, f.yy = f.n+1, f.x+p[0], f.y+p[1], f.xx+p[0]*p[0], f.xy+p[0]*p[1], f.yy+p[1]*p[1]
	}
	if got := f.fit(); got.Base != 0 || math.Abs(got.PerChar-400.0/300) > 1e-9 {
		t.Errorf("falling points: %+v, want 0 + 4/3 × chars", got)
	}
	if got := (fitSums{}).fit(); got != (Fit{PerChar: 0.25}) {
		t.Errorf("no usage: %+v, want chars/4", got)
	}
}

// The frontier and the picks on rows made by hand: for each number of
// answer values out of view, the fewest tokens, where nothing cheaper
// loses as few; a tie in tokens goes to the fewer values out of view.
func TestFrontierAndPicks(t *testing.T) {
	rows := func(recorded int) *Advice {
		a := &Advice{RecordedRow: recorded}
		for _, r := range [][3]int{ // tokens, chars, answers out
			{100, 400, 5}, {150, 600, 3}, {150, 590, 4}, {200, 800, 3}, {300, 1200, 0}, {250, 1000, 1},
		} {
			a.Rows = append(a.Rows, Row{Tokens: r[0], Chars: r[1], OutOfView: Lost{Answers: r[2]}})
		}
		a.frontier()
		return a
	}
	a := rows(1)
	if !slices.Equal(a.Frontier, []int{0, 1, 5, 4}) {
		t.Errorf("frontier %v, want [0 1 5 4]", a.Frontier)
	}
	if k := a.KeepsEverything; k == nil || k.Row != 4 || k.Delta != 150 || k.Percent != 100 {
		t.Errorf("keeps everything %+v, want row 4, +150 tokens, +100%%", k)
	}
	if n := a.NoWorse; n == nil || n.Row != 1 || n.Delta != 0 {
		t.Errorf("no worse %+v, want the recorded row itself", n)
	}
	a = rows(3) // recorded: 200 tokens, 3 out; row 1 loses as few for less
	if n := a.NoWorse; n == nil || n.Row != 1 || n.Delta != -50 || n.Percent != -25 {
		t.Errorf("no worse %+v, want row 1, −50 tokens, −25%%", n)
	}
	if a.Rows[3].Frontier {
		t.Error("the recorded row is on the frontier, dominated by row 1")
	}
}

// The grid: sliding-window at K 1–10 × L 0–5, token-budget at the
// multiples of the largest input that a replay can engage, its other
// knobs the agent's, summarize-oldest where folds are recorded; under a
// library with no pins, L 0 alone.
func TestGrid(t *testing.T) {
	for _, c := range []struct {
		path, library string
		pins          []int
		summarize     bool
	}{
		{"../testdata/demo-evidence/run.jsonl", "", []int{0, 1, 2, 3, 4, 5}, false},
		{"../testdata/demo-evidence/run.jsonl", "9.56.0", []int{0}, false},
		{"../testdata/s10-summarize/run.jsonl", "", []int{0, 1, 2, 3, 4, 5}, true},
	} {
		rec, err := loader.StartLimited(c.path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, err := study.Open(rec, study.Request{Library: c.library})
		if err != nil {
			t.Fatal(err)
		}
		sub := &subject{s: s, agent: &s.Agents[0]}
		g := adviseGrid([]*subject{sub})
		rec0 := sub.agent.Recorded
		if g.policies[g.recorded] != rec0 || sub.own != g.recorded {
			t.Errorf("%s: recorded row %v, want %v", c.path, g.policies[g.recorded], rec0)
		}
		count := map[string]int{}
		for _, p := range g.policies {
			count[p.Strategy]++
			switch {
			case p.Strategy == model.SlidingWindow && !slices.Contains(c.pins, p.KeepLastToolResults):
				t.Errorf("%s %s: %v", c.path, c.library, p)
			case p.Strategy != model.SlidingWindow && p != rec0 && (p.KeepLastToolResults != rec0.KeepLastToolResults || p.ThresholdTokens >= sub.agent.LargestInput):
				t.Errorf("%s: %v (recorded %v, largest input %d)", c.path, p, rec0, sub.agent.LargestInput)
			}
		}
		if count[model.SlidingWindow] < 10*len(c.pins) || count[model.TokenBudget] < 10 || (count[model.SummarizeOldest] >= 10) != c.summarize {
			t.Errorf("%s %s: %v", c.path, c.library, count)
		}
		if len(g.unengaged) == 0 && !rec0.NeedsThreshold() {
			t.Errorf("%s: ×1 of the largest input engages nothing, yet none was left out", c.path)
		}
	}
}

// Where a window's sets reach the library's limit of 200,000 forms, the
// library's set is the first 200,000 forms in window order (§3): a value
// held past them is not grounded. Hand-made log: call 1 reads zz-9999
// (t1), call 2 150,000 distinct words (t2), call 3 60,000 others and
// then zz-9999 (t3), call 4 answers with zz-9999. Kept whole, t1 grounds
// it first; under keepRecentTurns 2 and no pins, t1 leaves at call 4 and
// the sets, t2's and t3's, are full before t3's zz-9999: the value is
// `left`, as the export's judge says too. (Each result alone is below
// the limit: only the window's union reaches it.)
func TestAdviceAtTheFormLimit(t *testing.T) {
	words := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s%d ", prefix, i)
		}
		return b.String()
	}
	log := handLog("found zz-9999 here", words("w", 150000), words("v", 60000)+"zz-9999")
	rec, err := loader.StartReader(bytes.NewReader(log), "formlimit.jsonl", int64(len(log))).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	a := &s.Agents[0]
	for _, c := range []struct {
		p    model.Policy
		left int
	}{
		{model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 10, KeepLastToolResults: 0}, 0},
		{model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 0}, 1},
	} {
		_, tl, _ := walkOne(s, a, c.p)
		r := replayWith(s, a.Agent.Key, c.p)
		book, judged := provenance.New(rec, r), 0
		for i := range r.Calls {
			for _, e := range book.Call(i).Values {
				if e.In == provenance.InAnswer && e.Own() == evidence.Left {
					judged++
				}
			}
		}
		if tl.lost.Answers != c.left || judged != c.left {
			t.Errorf("%v: %d answer values left, the export's judge %d, want %d", c.p, tl.lost.Answers, judged, c.left)
		}
	}
}

// handLog is the log of TestAdviceAtTheFormLimit: one tool call a call,
// with these results, then the answer.
func handLog(results ...string) []byte {
	var out bytes.Buffer
	ev := func(typ string, payload any) {
		p, _ := json.Marshal(payload)
		fmt.Fprintf(&out, `{"type":"agentfootprint.%s","payload":%s,"meta":{"subflowPath":[],"compositionPath":["Agent:agent"],"runId":"r1"}}`+"\n", typ, p)
	}
	type m = map[string]any
	asst := func(id, name string) m {
		return m{"role": "assistant", "content": "", "toolCalls": []m{{"id": id, "name": name, "args": m{}}}}
	}
	hist := []m{{"role": "user", "content": "go"}}
	ev("agent.run_configured", m{"agentId": "agent", "window": "sliding-window"})
	ev("agent.turn_start", m{"turnIndex": 0, "userPrompt": "go"})
	for it, res := range results {
		id, name := fmt.Sprintf("c%d", it+1), fmt.Sprintf("t%d", it+1)
		for pos, h := range hist {
			ev("context.injected", m{"slot": "messages", "source": h["role"], "reason": fmt.Sprintf("conversation history [%d]", pos), "rawContent": h["content"], "asRole": h["role"], "position": pos})
		}
		ev("stream.llm_start", m{"iteration": it + 1, "messagesCount": len(hist)})
		ev("stream.llm_end", m{"content": "", "toolCallCount": 1, "usage": m{"input": 100 * (it + 1), "output": 5}, "stopReason": "tool_use"})
		ev("stream.tool_start", m{"toolName": name, "toolCallId": id, "args": m{}})
		ev("stream.tool_end", m{"toolCallId": id, "result": res})
		hist = append(hist, asst(id, name), m{"role": "tool", "content": res, "toolCallId": id})
		ev("agent.iteration_end", m{"turnIndex": 0, "iterIndex": it + 1, "history": hist})
	}
	for pos, h := range hist {
		ev("context.injected", m{"slot": "messages", "source": h["role"], "reason": fmt.Sprintf("conversation history [%d]", pos), "rawContent": h["content"], "asRole": h["role"], "position": pos})
	}
	ev("stream.llm_start", m{"iteration": len(results) + 1, "messagesCount": len(hist)})
	ev("stream.llm_end", m{"content": "The host is zz-9999.", "toolCallCount": 0, "usage": m{"input": 500, "output": 5}, "stopReason": "stop"})
	ev("agent.turn_end", m{"turnIndex": 0, "finalContent": "The host is zz-9999."})
	return out.Bytes()
}
