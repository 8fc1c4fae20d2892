package provenance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// loopPassAnswer is n07-loop-conditional's Loop (refine, three passes of
// the drafter in one run id, calls 1–15) with its third pass's answer
// (call 15) made to name two values earlier passes read and this one
// never did: 1535, requests_per_min of sea-1a06b3 in pass 1's
// get_metrics call_0002 (sent on calls 3–4, gone from call 5's window),
// and 1784, sea-847b3e's in pass 2's get_metrics call_0006 (sent on
// calls 8–9; run 2's urgent agent reads it again as its own call_0002,
// another run id). Nothing pass 3 was sent holds either: its request is
// pass 2's answer ("Draft 1: sea-847b3e p99 4130 ms; wrk-6a5839 p99 991
// ms."), its results list_hosts call_0009, get_metrics call_0010 and
// call_0011 (1633 and 1869 requests a minute) and read_logs call_0012.
// No recording has the case; the recording's shape is kept whole.
const loopPassAnswer = "Draft 2: sea-9c5c98 p99 844 ms; sea-dddddd p99 814 ms; sea-1a06b3 served 1535 requests/min, sea-847b3e 1784."

func loopPassBook(t *testing.T) *Book {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "n07-loop-conditional", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const answer = "Draft 2: sea-9c5c98 p99 844 ms; sea-dddddd p99 814 ms."
	if n := strings.Count(string(raw), answer); n != 2 { // its llm_end and its turn_end
		t.Fatalf("n07's third pass answers %d times, want 2", n)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), answer, loopPassAnswer)), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	r := window.RunFolds(rec, lineage.Decide(rec), model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 2, KeepLastToolResults: 2}, nil)
	return New(rec, r)
}

// A value a Loop pass never read that an earlier pass of the same agent
// read is said so: never-read (the library's rules, and this pass's
// conversation holds no message with it), still flagged (nothing this
// pass was sent holds it; only a pass's answer reaches the next), and
// the latest earlier pass that read it named, with the calls it was sent
// on. The values pass 3 has in view carry nothing of the kind.
func TestEarlierPassReadIt(t *testing.T) {
	b := loopPassBook(t)
	if c := b.r.Calls[14]; c.Run.Pass != 3 || c.Call.Facts.Response.Content != loopPassAnswer {
		t.Fatalf("call 15 is pass %d answering %q", c.Run.Pass, c.Call.Facts.Response.Content)
	}
	for _, c := range []struct {
		value, tool, id string
		pass            int
		sent            [2]int
	}{
		{"1535", "get_metrics", "call_0002", 1, [2]int{3, 4}},
		{"1784", "get_metrics", "call_0006", 2, [2]int{8, 9}},
	} {
		e := entry(t, b, 14, InAnswer, c.value)
		if e.Verdict != evidence.NeverRead || !e.Flagged() || e.Rule != RuleFlagged {
			t.Errorf("%s: %s %s, want never-read, flagged", c.value, e.Verdict, flagOf(e))
		}
		p := e.EarlierPass
		if p == nil {
			t.Errorf("%s: no earlier pass named", c.value)
			continue
		}
		if p.Pass != c.pass || p.ToolName == nil || *p.ToolName != c.tool || *p.ToolCallID != c.id || p.SentOn != c.sent {
			t.Errorf("%s: earlier pass %+v, want pass %d %s %s sent on %v", c.value, *p, c.pass, c.tool, c.id, c.sent)
		}
	}
	want := "never read in this pass; pass 1 read it in get_metrics call_0002 (sent on calls 3–4); only a pass's answer reaches the next"
	if p := entry(t, b, 14, InAnswer, "1535").EarlierPass; p != nil && p.Words() != want {
		t.Errorf("words:\n got %s\nwant %s", p.Words(), want)
	}
	for _, v := range []string{"sea-9c5c98", "sea-1a06b3", "sea-847b3e"} {
		if e := entry(t, b, 14, InAnswer, v); e.Judged() || e.EarlierPass != nil {
			t.Errorf("%s: %s, earlier pass %v: pass 3 has it in view", v, e.Verdict, e.EarlierPass)
		}
	}
	// pass 2's 4130 (call 10) left its own conversation: a source, no earlier pass
	if e := entry(t, b, 9, InAnswer, "4130"); e.Verdict != evidence.Left || e.EarlierPass != nil {
		t.Errorf("call 10 4130: %s, earlier pass %v", e.Verdict, e.EarlierPass)
	}
}
