// Command hostilelog writes the attacker's copies of the repo's
// recordings that tui/tmux_hostile_test.sh opens (internal/hostile):
//
//   - hostile.jsonl: s01-basic-loop with escapes in the prompt, a tool
//     name, the tool results and the strategy name, and a bracketed-paste
//     end and a command in the tool results;
//   - big.jsonl: s01-basic-loop with a 6.7 MB JSON tool result;
//   - names.jsonl: c02-interleaved-agents with a newline, colour and bidi
//     controls in agent billing's id and path, a run id, a tool name and
//     a tool-call id;
//   - evidence.jsonl: demo-evidence with the same in the names of the
//     tools whose values left the window.
//
// A test helper, not a user command.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/afinspect/inspect/internal/hostile"
)

func main() {
	out := flag.String("o", ".", "folder to write the copies into")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: hostilelog [-o DIR] TESTDATA")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	for _, c := range []struct {
		name, from string
		attack     func([]byte) []byte
	}{
		{"hostile.jsonl", "s01-basic-loop", func(b []byte) []byte {
			return hostile.PasteAfter(hostile.Strategy(hostile.Recording(b)), "alpha")
		}},
		{"big.jsonl", "s01-basic-loop", func(b []byte) []byte { return hostile.BigResult(b, 6_700_000) }},
		{"names.jsonl", "c02-interleaved-agents", hostile.C02},
		{"evidence.jsonl", "demo-evidence", hostile.Evidence},
	} {
		run, err := os.ReadFile(filepath.Join(dir, c.from, "run.jsonl"))
		if err == nil {
			err = os.WriteFile(filepath.Join(*out, c.name), c.attack(run), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "hostilelog:", err)
			os.Exit(1)
		}
	}
}
