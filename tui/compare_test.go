package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/afinspect/inspect/compare"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/tui/session"
)

// comparison lines up two recordings of testdata, every knob inferred.
func comparison(t *testing.T, a, b string) *session.Comparison {
	t.Helper()
	open := func(name string) *session.Study {
		rec, err := loader.StartLimited("../testdata/"+name+"/run.jsonl", 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, err := study.Open(rec, study.Request{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return compare.Runs(open(a), open(b), compare.Only{})
}

// drive sizes compare mode and presses keys.
func drive(m CompareModel, w, h int, ks ...string) CompareModel {
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range ks {
		tm, _ = tm.Update(keyMsg(k))
	}
	return tm.(CompareModel)
}

func demoPair(t *testing.T) CompareModel {
	return NewCompare(CompareConfig{Comparison: comparison(t, "demo-evidence", "demo-evidence-k3-pins3"),
		NameA: "demo-evidence", NameB: "demo-evidence-k3-pins3"})
}

// checkFits checks that every line of a frame is at most w wide and
// that there are h of them at most.
func checkFits(t *testing.T, frame string, w, h int) {
	t.Helper()
	ls := strings.Split(frame, "\n")
	if len(ls) > h {
		t.Errorf("%d lines, the screen has %d", len(ls), h)
	}
	for _, l := range ls {
		if ansi.StringWidth(l) > w {
			t.Errorf("line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
}

// demo-evidence against its k3-pins3 twin at call 13, the final answer
// of turn 1: the READMEs say A had us-east-1b, 10.12.4.52 and web-9d4b27
// out of view there (list_hosts gone), B had only 3940 and web-3e6f14
// (list_hosts pinned); B's list has list_hosts, marked + (A's window has
// no such message).
func TestGoldenCompare(t *testing.T) {
	m := drive(demoPair(t), goldenW, goldenH, "end", "left", "left", "left")
	frame := m.View()
	checkFits(t, frame, goldenW, goldenH)
	for _, want := range []string{"pair 13/16", "A · call 13", "B · call 13", "10.12.4.52 left→in-view", "+ pinned  list_hosts"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in\n%s", want, frame)
		}
	}
	teatest.RequireEqualOutput(t, []byte(frame))
}

func TestGoldenCompare80x24(t *testing.T) {
	m := drive(demoPair(t), 80, 24, "end", "left", "left", "left")
	frame := m.View()
	checkFits(t, frame, 80, 24)
	teatest.RequireEqualOutput(t, []byte(frame))
}

// p goes to where the runs part — these never do, so to the first pair
// not the same: call 5, where B's window keeps three more messages
// (wire.json) — and p again back.
func TestCompareJumpAndBack(t *testing.T) {
	m := drive(demoPair(t), 120, 40, "right", "right")
	if m.pair != 2 {
		t.Fatalf("pair %d after two steps", m.pair)
	}
	m = drive(m, 120, 40, "p")
	if m.pair != 4 {
		t.Errorf("p: pair %d, want 4 (call 5)", m.pair)
	}
	m = drive(m, 120, 40, "p")
	if m.pair != 2 {
		t.Errorf("p again: pair %d, want 2", m.pair)
	}
	m = drive(m, 120, 40, "n", "n")
	if m.pair != 6 { // call 6 is the same on both sides
		t.Errorf("n n: pair %d, want 6 (call 7)", m.pair)
	}
}

// Two scripts: one side only is said, and every frame fits.
func TestCompareDifferentTasksFits(t *testing.T) {
	m := NewCompare(CompareConfig{Comparison: comparison(t, "c01-two-conversations", "demo-evidence"), NameA: "c01", NameB: "demo"})
	for _, size := range [][2]int{{120, 40}, {80, 24}, {40, 10}} {
		for k := range 24 {
			f := drive(m, size[0], size[1], strings.Split(strings.Repeat("right ", k), " ")[:k]...).View()
			checkFits(t, f, size[0], size[1])
			if k == 0 && !strings.Contains(f, "different tasks") && size[0] >= 120 {
				t.Errorf("no different tasks in\n%s", f)
			}
			if k == 20 && !strings.Contains(f, "no call here") {
				t.Errorf("pair 21 is c01's alone:\n%s", f)
			}
		}
	}
}

// A hostile recording against s01: at every pair, in three sizes, compare
// mode writes no escape and nothing wider than the screen, and shows the
// attack as placeholders.
func TestHostileCompare(t *testing.T) {
	path := hostileFile(t, true)
	open := func(p string) *session.Study {
		rec, err := loader.StartLimited(p, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s, _ := study.Open(rec, study.Request{})
		return s
	}
	c := compare.Runs(open(path), open(s01), compare.Only{})
	m := NewCompare(CompareConfig{Comparison: c, NameA: path, NameB: "s01"})
	for _, size := range [][2]int{{120, 40}, {60, 15}, {20, 5}} {
		seen := ""
		for k := range len(c.Pairs) {
			v := drive(m, size[0], size[1], strings.Split(strings.Repeat("right ", k), " ")[:k]...).View()
			safeView(t, "pair "+itoa(k+1), v, size[0])
			seen += v
		}
		if size[0] >= 120 && !strings.Contains(seen, "␛]0;") {
			t.Errorf("%dx%d: the escape is not shown as placeholders", size[0], size[1])
		}
	}
}

// d at call 14 of demo-evidence against 9.56.0: wire.json has the same
// three messages on both sides but the drop notice: "9 earlier message(s)"
// and the tool results named on 9.62.0, "6 earlier" and the plain notice
// on 9.56.0 (its README: every notice plain). d shows the two notices as
// one message with other text, a line diff.
func TestGoldenCompareMessages(t *testing.T) {
	m := NewCompare(CompareConfig{Comparison: comparison(t, "demo-evidence", "v9.56.0-demo-evidence"), NameA: "demo-evidence", NameB: "v9.56.0-demo-evidence"})
	m = drive(m, goldenW, goldenH, "end", "left", "left", "d")
	frame := m.View()
	checkFits(t, frame, goldenW, goldenH)
	for _, want := range []string{"pair 14/16", "other text: drop notice", "--- A call 14", "+++ B call 14"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in\n%s", want, frame)
		}
	}
	teatest.RequireEqualOutput(t, []byte(frame))
	if m = drive(m, goldenW, goldenH, "d"); strings.Contains(m.View(), "other text: drop notice") {
		t.Error("d again does not go back to the turns")
	}
}

// Interleaved agents, a composition's own calls, a Loop's passes: every
// pair draws, within the screen.
func TestCompareShapesDraw(t *testing.T) {
	for _, p := range [][2]string{{"c02-interleaved-agents", "c02-interleaved-agents"}, {"n06-parallel-composition", "n07-loop-conditional"}, {"s10-summarize", "c04-summarize-multi"}} {
		c := comparison(t, p[0], p[1])
		m := drive(NewCompare(CompareConfig{Comparison: c, NameA: p[0], NameB: p[1]}), 100, 30)
		for k := range len(c.Pairs) {
			checkFits(t, m.View(), 100, 30)
			m = drive(m, 100, 30, "d")
			checkFits(t, m.View(), 100, 30)
			m = drive(m, 100, 30, "d", "right")
			if m.pair != min(k+1, len(c.Pairs)-1) {
				t.Fatalf("%v: pair %d after %d steps", p, m.pair, k+1)
			}
		}
	}
}
