package window

import (
	"path/filepath"
	"testing"
)

// recordingPaths is every recording in the repo's testdata (and, with
// branched, tui's twins-branch: a conversation that branches); a test
// with none fails rather than passing on nothing.
func recordingPaths(t testing.TB, branched bool) []string {
	t.Helper()
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) == 0 {
		t.Fatal("no recordings in ../testdata")
	}
	if branched {
		paths = append(paths, "../tui/testdata/twins-branch/run.jsonl")
	}
	return paths
}
