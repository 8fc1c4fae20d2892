// Command genlog writes (or finds, when cached) a generated agentfootprint
// event log for benchmarks and prints its path and size: one long run, or
// a conversation of many follow-ups, or many conversations of one run
// each over -agents agents (for timing the picker by hand). It is a
// benchmark helper for scripts/bench-compare.sh, not a user command.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/afinspect/inspect/internal/rungen"
)

func main() {
	calls := flag.Int("calls", 16000, "model calls in the generated run (16000 is ~1 GB)")
	runs := flag.Int("runs", 0, "write this many conversations of one run each instead")
	agents := flag.Int("agents", 20, "with -runs: the agents the conversations are spread over")
	followUps := flag.Int("followups", 0, "instead, one conversation of this many runs, each a follow-up of the one before")
	minimal := flag.Bool("minimal", false, "with -runs or -followups: written at observability tier minimal (agent.* events only)")
	flag.Parse()
	tier := func(c rungen.Conversations) rungen.Conversations {
		if *minimal {
			return c.AtTierMinimal()
		}
		return c
	}
	var path string
	var size int64
	var err error
	switch {
	case *runs > 0:
		path, size, err = rungen.CachedConversations(tier(rungen.Independent(*runs).Over(*agents)))
	case *followUps > 0:
		path, size, err = rungen.CachedConversations(tier(rungen.FollowUpChain(*followUps)))
	default:
		path, size, err = rungen.Cached(rungen.Default(*calls))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlog:", err)
		os.Exit(1)
	}
	fmt.Printf("%s %d\n", path, size)
}
