// Command genlog writes (or finds, when cached) a generated agentfootprint
// event log for benchmarks and prints its path and size. It is a
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
	flag.Parse()
	path, size, err := rungen.Cached(rungen.Default(*calls))
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlog:", err)
		os.Exit(1)
	}
	fmt.Printf("%s %d\n", path, size)
}
