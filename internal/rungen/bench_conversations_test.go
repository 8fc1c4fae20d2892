package rungen

import (
	"fmt"
	"testing"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Files of many runs (linking once scanned every earlier run for each,
// so 16,000 follow-ups took 38 CPU-s in report): N follow-ups of one
// conversation, and N independent conversations, each linked (lineage)
// and replayed under the recorded policy, then with that policy inferred
// as report does. Doubling N should about double the time.
func BenchmarkFollowUps(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		benchConversations(b, fmt.Sprintf("%dk", n/1000), FollowUpChain(n))
	}
}

func BenchmarkIndependentConversations(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		benchConversations(b, fmt.Sprintf("%dk", n/1000), Independent(n))
	}
}

// 20,000 conversations of 2,000 agents: each agent's inference reads its
// own ten runs, not the file's 20,000.
func BenchmarkManyAgents(b *testing.B) {
	benchConversations(b, "2000x10", Independent(20000).Over(2000))
}

func benchConversations(b *testing.B, name string, c Conversations) {
	path, _, err := CachedConversations(c)
	if err != nil {
		b.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		b.Fatal(err)
	}
	runs := c.Count * (c.FollowUps + 1)
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: c.KeepRecent, KeepLastToolResults: c.KeepPins}
	b.Run(name+"/link", func(b *testing.B) {
		for range b.N {
			if lin := lineage.Decide(rec); len(lin.Links) != runs || len(lin.Conversations) != c.Count {
				b.Fatalf("%d runs in %d conversations", len(lin.Links), len(lin.Conversations))
			}
		}
	})
	b.Run(name+"/link+replay", func(b *testing.B) {
		for range b.N {
			lin := lineage.Decide(rec)
			policies := map[string]model.Policy{}
			for _, a := range rec.Agents {
				policies[a.Key] = p
			}
			r := window.Merge(rec, lin, nil, policies)
			if len(r.Calls) != 2*runs {
				b.Fatalf("%d calls", len(r.Calls))
			}
		}
	})
	b.Run(name+"/infer+replay", func(b *testing.B) {
		for range b.N {
			lin := lineage.Decide(rec)
			infs := window.InferAgents(rec, lin)
			policies := map[string]model.Policy{}
			for _, inf := range infs {
				policies[inf.Agent.Key] = inf.Policy
			}
			if r := window.Merge(rec, lin, infs, policies); len(r.Calls) != 2*runs {
				b.Fatalf("%d calls", len(r.Calls))
			}
		}
	})
}
