package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 52-character agent key at 100 columns: the header's first line
// still says which call is on screen; the label gives way, with an
// ellipsis.
func TestLongAgentKeyKeepsTheCallCounter(t *testing.T) {
	b, err := os.ReadFile("../testdata/c02-interleaved-agents/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	long := "billing-reconciliation-agent-for-enterprise-accounts" // 52 characters
	if len(long) != 52 {
		t.Fatalf("%d characters", len(long))
	}
	b = bytes.ReplaceAll(b, []byte(`"Agent:billing"`), []byte(`"Agent:`+long+`"`))
	b = bytes.ReplaceAll(b, []byte(`"agentId":"billing"`), []byte(`"agentId":"`+long+`"`))
	p := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{100, 80} {
		m := open(t, fileConfig(p), w, 30)
		m = press(m, "w", "j", "enter")
		line := strings.Split(m.screen(), "\n")[0]
		if !strings.Contains(line, "call 1/12 (f2") {
			t.Errorf("%d columns: the call counter is gone: %q", w, line)
		}
		if !strings.Contains(line, "bil") || !strings.Contains(line, "… · conversation 2/2") {
			t.Errorf("%d columns: the label is not cut with an ellipsis: %q", w, line)
		}
	}
}
