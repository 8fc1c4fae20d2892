package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/study"
)

// s05 with its first run cut away: its follow-up continues nothing in
// the file, an orphan (§10.7), which report and export list with the line
// its run starts on (cli's TestOrphanReportedWithItsLine). The problems
// panel lists it too, every problem export lists, and the header counts
// them alike.
func TestProblemsPanelListsTheOrphanRun(t *testing.T) {
	data, err := os.ReadFile("../testdata/s05-multi-turn/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if !strings.Contains(l, `"runId":"run-1796000744531-1"`) {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// what export lists: the study export opens (cli/open.go)
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	st, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := st.Problems()
	if len(want) != 1 || !strings.Contains(want[0].Message, "orphan") || want[0].Line != 1 {
		t.Fatalf("export lists %v, want the orphan at line 1", want)
	}
	m := press(open(t, fileConfig(path), 160, 40), "!")
	panel := strings.Join(strings.Fields(m.problems.Text(150)), " ")
	if !strings.Contains(panel, "In the file (1)") {
		t.Errorf("the panel does not count 1 problem:\n%s", panel)
	}
	for _, p := range want {
		msg := strings.Join(strings.Fields(withoutPlace(p.Message, p.Line)), " ")
		if !strings.Contains(panel, "line 1: "+msg) {
			t.Errorf("the panel does not list %q:\n%s", msg, panel)
		}
	}
	if h := m.header.View(); !strings.Contains(h, "problems 1") {
		t.Errorf("the header does not count it: %s", h)
	}
}
