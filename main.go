// Command inspect opens a recorded agentfootprint run and shows, call by
// call, which messages the model was sent, which the window policy evicted,
// and why each one stayed. The commands are package cli; this file holds
// the embedded demo run and the version, and hands the command line over.
package main

import (
	_ "embed"
	"os"
	"runtime/debug"

	"github.com/afinspect/inspect/cli"
)

// version is a release's, set at link time with -ldflags
// "-X main.version=…" (.goreleaser.yaml); empty, the module's build info
// says what the binary is (go install …@v1.2.3, or a checkout's commit).
var version string

//go:embed testdata/demo-evidence/run.jsonl
var demoRun []byte

func main() {
	info, _ := debug.ReadBuildInfo()
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, cli.Build{Version: version, Info: info, Demo: demoRun, Config: cli.ConfigPath()}))
}
