// Command genlog writes (or finds, when cached) a generated agentfootprint
// event log for benchmarks and prints its path and size: one long run, or
// a conversation of many follow-ups, or many conversations of one run
// each over -agents agents (for timing the picker by hand), or -copies
// copies of a recording, each its own agent (for timing the advisor over
// many agents). It is a benchmark helper for scripts/bench-compare.sh,
// not a user command.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/afinspect/inspect/internal/rungen"
)

func main() {
	calls := flag.Int("calls", 16000, "model calls in the generated run (16000 is ~1 GB)")
	runs := flag.Int("runs", 0, "write this many conversations of one run each instead")
	agents := flag.Int("agents", 20, "with -runs: the agents the conversations are spread over")
	followUps := flag.Int("followups", 0, "instead, one conversation of this many runs, each a follow-up of the one before")
	copies := flag.Int("copies", 0, "instead, this many copies of -of, each its own agent and runs, written to -out")
	of := flag.String("of", "testdata/s01-basic-loop/run.jsonl", "with -copies: the recording copied (its agent must be \"agent\")")
	out := flag.String("out", "", "with -copies: the file written (default: the temp directory, named by the copies)")
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
	case *copies > 0:
		path, size, err = writeCopies(*of, *copies, *out)
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

// writeCopies writes n copies of the recording at of, copy i with agent
// "agent" renamed agenti and each runId suffixed -ai: n agents of one
// file's calls each (rungen.Copies, as advise's TestAdviseIsLinearInAgents
// builds them in memory).
func writeCopies(of string, n int, out string) (string, int64, error) {
	src, err := os.ReadFile(of)
	if err != nil {
		return "", 0, err
	}
	if out == "" {
		out = filepath.Join(os.TempDir(), fmt.Sprintf("inspect-copies-%d-%s", n, filepath.Base(of)))
	}
	data := rungen.Copies(src, n)
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return "", 0, err
	}
	return out, int64(len(data)), nil
}
