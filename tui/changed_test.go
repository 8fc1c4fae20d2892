package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/components/changed"
	"github.com/charmbracelet/x/exp/teatest"
)

// s10's wire.json, calls 5 and 6: call 6's window has fetch_logs
// call_0005 where call 5's had fetch_logs call_0003 (folded), and a new
// compaction frame ("3 earlier message(s)", SUMMARY #2) in place of call
// 5's ("4 earlier", SUMMARY #1). The u view shows the frame's two texts as
// a line diff.
func TestGoldenChangedSincePreviousCall(t *testing.T) {
	out := screen(t, fileConfig("../testdata/s10-summarize/run.jsonl"), goldenW, goldenH, "call 1/9",
		pressing(":", "6", "enter"), step{keys: []string{"u"}, wait: "What changed"})
	for _, want := range []string{"call 6 against call 5", "compaction frame", "-[compacted history — 4 earlier", "+[compacted history — 3 earlier"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	teatest.RequireEqualOutput(t, out)
}

// The u view of a hostile recording, at every call: no escape, nothing
// wider than the screen.
func TestHostileChanged(t *testing.T) {
	path := hostileFile(t, true)
	for _, size := range [][2]int{{120, 40}, {40, 10}} {
		m := open(t, fileConfig(path), size[0], size[1])
		if m.s == nil {
			t.Fatal(m.err)
		}
		m = press(m, "u")
		for call := 0; call < m.s.Calls(); call++ {
			safeView(t, "call "+itoa(call+1), m.View(), size[0])
			safeView(t, "call "+itoa(call+1)+" text", changed.Text(m.s, m.st, size[0]), size[0])
			m = press(m, "right")
		}
	}
}
