package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/window"
)

// A conversation that branches (docs/rules/runs-and-conversations.md §10.8): runs r2 and r3
// both follow up r1 (testdata/twins-branch: r1 is calls 1–2, r2 calls
// 3–4, r3 calls 5–6; keepRecentTurns=2, inferred from its 6 windows). Both
// carry r1's list_hosts turn, and each evicts it at its own second call:
// the recorded windows of calls 4 and 6 are [Q A2 T2] of their run. What
// a call shows is its own chain: at call 4 the turn was sent on calls 2
// (r1) and 3 (r2's first) and evicted at 4; at call 6 it was last sent on
// call 5 (r3's first) and evicted at 6. The ledger at call 6 lists r3's
// chain only: r1's request, list_hosts turn and answer, r3's request and
// its restart turn — not r2's request or restart turn.
func TestBranchLifelineIsItsChain(t *testing.T) {
	const log = "testdata/twins-branch/run.jsonl"
	for _, c := range []struct {
		call        int
		query, want string
	}{
		// (the log's tool_end names no tool, so the hit names none)
		// a tool result's eviction names its rule, as the value list does
		// (the log cannot tell whether pins were on: both rules)
		{4, "web-42 is down", "sent on calls 2–3 · evicted at 4 (before-request or pins-off)"},
		{6, "web-42 is down", "sent on calls 2–5 · evicted at 6 (before-request or pins-off)"},
		// r1's answer is first sent in the follow-up's first window
		{4, "It is web-42", "in assistant text · sent on call 3 · evicted at 4 by keepRecentTurns=2"},
		{6, "It is web-42", "in assistant text · sent on call 5 · evicted at 6 by keepRecentTurns=2"},
	} {
		m := open(t, fileConfig(log), 120, 40)
		m = press(m, ":", string(rune('0'+c.call)), "enter")
		if m.s.Call != c.call-1 {
			t.Fatalf("at call %d, want %d", m.s.Call+1, c.call)
		}
		m = typeSearch(m, c.query)
		if len(m.search.Hits) != 1 {
			t.Fatalf("call %d: %d hits for %q, want 1", c.call, len(m.search.Hits), c.query)
		}
		m = press(m, "enter")
		if got := m.search.Describe(m.s.Replay, m.s.Policy); !strings.HasSuffix(got, c.want) {
			t.Errorf("call %d: hit %q\nwant %q", c.call, got, c.want)
		}
	}
	m := press(open(t, fileConfig(log), 120, 40), ":", "6", "enter")
	want := []string{"Find the host that is down.", "", "It is web-42.", "Restart it once more.", ""}
	var got []string
	m.s.Rows.Each(func(r *window.Row) bool {
		got = append(got, r.Messages[0].Content)
		return true
	})
	if !slices.Equal(got, want) {
		t.Errorf("the ledger at call 6 lists the turns %q, want r3's chain %q", got, want)
	}
	if m.s.Rows.Gone() != 0 {
		t.Errorf("the ledger at call 6 lists %d turns gone, want none (three leave at it)", m.s.Rows.Gone())
	}
}
