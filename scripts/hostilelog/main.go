// Command hostilelog writes the attacker's copies of a recording that
// tui/tmux_hostile_test.sh opens: hostile.jsonl (the escapes an attacker
// would plant, internal/hostile, in the prompt, a tool name, the tool results and the strategy name)
// and big.jsonl (a 6.7 MB JSON tool result). A test helper, not a user
// command.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/afinspect/inspect/internal/hostile"
)

func main() {
	out := flag.String("o", ".", "folder to write hostile.jsonl and big.jsonl into")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: hostilelog [-o DIR] RUN.jsonl")
		os.Exit(2)
	}
	run, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "hostile.jsonl"), hostile.Strategy(hostile.Recording(run)), 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "big.jsonl"), hostile.BigResult(run, 6_700_000), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostilelog:", err)
		os.Exit(1)
	}
}
