package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

const c04 = "../testdata/c04-summarize-multi/run.jsonl"

// Under keepRecentTurns 3 the replay of c04 folds at call 7 where the
// library did not (the library's record there is a refusal): the frame is
// a placeholder, and the screen says it was never sent.
func TestPlaceholderFrameIsNeverCalledSent(t *testing.T) {
	cfg := fileConfig(c04)
	cfg.Knobs = model.Knobs{KeepRecentTurns: study.Int(3)}
	m := open(t, cfg, 120, 40)
	m = press(m, ":", "7", "enter")
	for i := 0; i < m.s.Rows.Len(); i++ {
		if r := m.list.Selected(); r != nil && r.Fate == window.FateSummary {
			break
		}
		m = press(m, "j")
	}
	r := m.list.Selected()
	if r == nil || r.Fate != window.FateSummary || !r.Placeholder || r.Sent {
		t.Fatalf("selected %+v, want the placeholder frame", r)
	}
	screen := m.View()
	for _, want := range []string{"PLACEHOLDER", "not recorded — the library never sent this", "(NOT RECORDED)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "sent to the model on this call") {
		t.Errorf("a placeholder frame is called sent:\n%s", screen)
	}
	folded := 0
	for _, r := range m.s.Rows.Rows() {
		if r.Fate == window.FateFolded {
			folded++
		}
	}
	if folded == 0 {
		t.Errorf("no folded turn at call 7")
	}
}
