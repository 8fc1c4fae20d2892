package rungen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A generated chain of follow-ups links run to run (each a follow-up of
// the one before, one conversation, nothing orphaned), and its replay
// under the policy it was recorded with reproduces every window; its
// follow-ups' first visits drop something, so the links are not trivial.
// Under keepRecentTurns 1 a follow-up keeps only a notice and its
// request, which every earlier run of that length explains: §10.7's tie
// rule still links each to the run before it, and says so.
func TestGeneratedConversationsLinkAndReplay(t *testing.T) {
	for _, c := range []Conversations{FollowUpChain(40), Independent(30), Independent(30).Over(4), {Count: 3, FollowUps: 5, Seed: 1, KeepRecent: 1, KeepPins: 0}} {
		var buf bytes.Buffer
		if err := WriteConversations(&buf, c); err != nil {
			t.Fatal(err)
		}
		rec, err := loader.StartReader(&buf, "gen.jsonl", 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		runs := c.Count * (c.FollowUps + 1)
		if len(rec.Problems) != 0 || len(rec.Runs) != runs || len(rec.Agents) != max(1, c.Agents) {
			t.Fatalf("%+v: %d runs of %d agents, problems %v", c, len(rec.Runs), len(rec.Agents), rec.Problems)
		}
		lin := lineage.Decide(rec)
		if len(lin.Conversations) != c.Count {
			t.Fatalf("%+v: %d conversations, problems %v", c, len(lin.Conversations), lin.Problems)
		}
		for _, p := range lin.Problems {
			if c.KeepRecent > 1 || !strings.Contains(p.Message, "explain its first window equally well") {
				t.Fatalf("%+v: problem %s", c, p.Message)
			}
		}
		for i, l := range lin.Links {
			if first := i%(c.FollowUps+1) == 0; first && l.Kind != lineage.New || !first && (l.Kind != lineage.FollowUp || l.Pred != i-1) {
				t.Fatalf("%+v: run %d links %+v", c, i+1, l)
			}
		}
		p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: c.KeepRecent, KeepLastToolResults: c.KeepPins}
		r := window.RunFolds(rec, lin, p, nil)
		dropped := 0
		for _, call := range r.Calls {
			if call.Recorded() != window.Match {
				t.Fatalf("%+v: call %d: %s", c, call.Call.Number, call.Recorded())
			}
			if call.Call.Iteration == 1 {
				dropped += len(call.Visit.Evicted)
			}
		}
		if c.FollowUps > 0 && dropped == 0 {
			t.Fatalf("%+v: no follow-up's first visit dropped anything", c)
		}
	}
}
