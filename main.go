// Command inspect opens a recorded agentfootprint run and shows, call by
// call, which messages the model was sent, which the window policy evicted,
// and why each one stayed. The commands are package cli; this file holds
// the embedded demo run and the version, and hands the command line over.
package main

import (
	_ "embed"
	"os"

	"github.com/afinspect/inspect/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

//go:embed testdata/demo-evidence/run.jsonl
var demoRun []byte

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, cli.Build{Version: version, Demo: demoRun}))
}
