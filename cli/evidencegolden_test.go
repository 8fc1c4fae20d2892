package cli

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// The evidence table of every judged value of the demo (answers and
// arguments), fitted to 80 and to 120 columns (the width when piped):
// sources and suggestions wrap within their columns; at 80, where no
// column layout leaves them room, one block a value. Write them with
// `go test ./cli -run Golden -update`.
func TestGoldenEvidenceTable80(t *testing.T) {
	code, out, _ := runCLI("evidence", "-q", "--in", "all", "--width", "80", "../testdata/demo-evidence/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden.RequireEqual(t, []byte(out))
}

func TestGoldenEvidenceTable120(t *testing.T) {
	code, out, _ := runCLI("evidence", "-q", "--in", "all", "../testdata/demo-evidence/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden.RequireEqual(t, []byte(out))
}
