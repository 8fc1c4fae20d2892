package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An orphan (§10.7 rule 2): s05 with its first run cut away, so its
// follow-up's first window (3 messages: run 1's request, its answer, the
// new request) continues nothing in the file. It is reported with the
// line its run starts on (1), its first call is taken as recorded, the
// rest is replayed from it — every window still the library's — and run
// 3, the follow-up of the orphan, belongs to its conversation.
func TestOrphanReportedWithItsLine(t *testing.T) {
	data, err := os.ReadFile("../testdata/s05-multi-turn/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const run1 = `"runId":"run-1796000744531-1"`
	var kept []string
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if !strings.Contains(l, run1) {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := exportOf(t, "-q", path)
	if len(doc.Problems) != 1 || doc.Problems[0].Line != 1 || !strings.Contains(doc.Problems[0].Message, "orphan") {
		t.Errorf("problems %+v, want one orphan at line 1", doc.Problems)
	}
	if len(doc.Conversations) != 1 || len(doc.Conversations[0].Runs) != 2 {
		t.Errorf("conversations %+v, want one of runs 2 and 3", doc.Conversations)
	}
	for _, c := range doc.Calls {
		if c.RecordedWindow != "match" {
			t.Errorf("call %d: %s", c.Call, c.RecordedWindow)
		}
	}
}
