package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// q over an overlay closes it, as esc does (less, k9s and lazygit close a
// view so); only on the main screen does it quit. ctrl+c always quits.
func TestQClosesOverlay(t *testing.T) {
	m := open(t, fileConfig(evidenceDemo), 120, 40)
	for _, k := range []string{"?", "i", "w", "!", "W", "v"} {
		opened := press(m, k)
		if opened.overlay == noOverlay {
			t.Fatalf("%s opened no overlay", k)
		}
		for _, closeKey := range []string{"q", "esc"} {
			next, cmd := opened.Update(keyMsg(closeKey))
			closed := next.(Model)
			if closed.overlay != noOverlay || closed.quitting || isQuit(cmd) {
				t.Errorf("%s then %s: overlay %v, quitting %v", k, closeKey, closed.overlay, closed.quitting)
			}
		}
		if next, cmd := opened.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); !next.(Model).quitting || !isQuit(cmd) {
			t.Errorf("%s then ctrl+c did not quit", k)
		}
	}
	if next, cmd := m.Update(keyMsg("q")); !next.(Model).quitting || !isQuit(cmd) {
		t.Error("q on the main screen did not quit")
	}
}

// isQuit reports whether cmd is tea.Quit (alone or in a batch).
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if isQuit(c) {
				return true
			}
		}
	}
	return false
}

// The knobs and r work from the response block (i), which follows the
// replay: at the demo's call 13, ] and } make keepRecentTurns 3 and
// keepLastToolResults 3 — demo-evidence-k3-pins3's policy, under which
// us-east-1b is in view at call 13 (its README) — and r goes back.
func TestKnobsWorkFromResponseView(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 120, 40), "A", "i", "]", "}")
	if m.overlay != responseOverlay || m.s.Policy.KeepRecentTurns != 3 || m.s.Policy.KeepLastToolResults != 3 {
		t.Fatalf("] } in the block: overlay %v, policy %s", m.overlay, m.s.Policy)
	}
	if row := valueRow(respText(m), "us-east-1b"); row != "in-view us-east-1b text" {
		t.Errorf("under K 3, L 3: %q", row)
	}
	m = press(m, "r")
	if m.overlay != responseOverlay || m.s.Changed() || valueRow(respText(m), "us-east-1b") != "left us-east-1b text" {
		t.Errorf("r in the block: overlay %v, changed %v", m.overlay, m.s.Changed())
	}
}

// At 80×24 the header keeps the whole count of the answer's flagged
// values — the demo's call 13: 4 left (us-east-1b, 10.12.4.52, 3940,
// web-9d4b27) and 1 never read (web-3e6f14), EVIDENCE §9.1.2 — and a
// file name that says which file it is: its folder and its name.
func TestHeaderKeepsEvidenceCountAt80x24(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 80, 24), "A")
	head := strings.Split(ansiFree(m.View()), "\n")[:2]
	if !strings.Contains(head[1], "answers: 4 left · 1 never read") {
		t.Errorf("line 2: %q", head[1])
	}
	if !strings.Contains(head[0], "demo-evidence/run.jsonl") || !strings.Contains(head[0], "call 13/16") {
		t.Errorf("line 1: %q", head[0])
	}
	m = press(open(t, fileConfig(e05b), 80, 24), "A")
	if h := ansiFree(m.header.View()); !strings.Contains(h, "invented-value/run.jsonl") || !strings.HasPrefix(h, "…") || !strings.Contains(h, "answers: 1 only in a summary") {
		t.Errorf("e05b's header:\n%s", h)
	}
}

// ? opens the help, and G, end and pgdown reach its last line.
func TestHelpScrollsToEnd(t *testing.T) {
	for _, keys := range [][]string{{"G"}, {"end"}, {"pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown"}} {
		m := press(open(t, fileConfig(evidenceDemo), 80, 24), "?")
		if !m.keyhelp.More() {
			t.Fatal("the help fits at 80×24: nothing to scroll")
		}
		m = press(m, keys...)
		v := strings.Join(strings.Fields(ansiFree(m.View())), " ")
		if m.keyhelp.More() || !strings.Contains(v, ":f11 goes there.") || m.overlay != helpOverlay {
			t.Errorf("%v: more %v, overlay %v\n%s", keys, m.keyhelp.More(), m.overlay, ansiFree(m.View()))
		}
	}
}
