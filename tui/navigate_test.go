package tui

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/timeline"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/external"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/theme"

	"github.com/charmbracelet/bubbles/key"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/window"
)

// Whatever key brings a call on screen, the cursor lands on the same
// turn: the first that left at that call, else the first new one; and
// the detail starts at its top.
func TestCursorLandsTheSameWhateverKey(t *testing.T) {
	// s01 call 5 (wire.json): read_file#1 left there; call 2 evicts
	// nothing and appends the first tool round.
	for _, c := range []struct {
		call int
		fate window.Fate
	}{{4, window.FateEvicted}, {1, window.FateNew}} {
		var want string
		for _, ks := range [][]string{
			repeat("l", c.call),
			{":", itoa(c.call + 1), "enter"},
			append([]string{"G"}, repeat("h", 8-c.call)...),
			append([]string{"j", "j", "pgdown"}, repeat("l", c.call)...),
		} {
			m := press(open(t, fileConfig(s01), 120, 40), ks...)
			if m.s.Call != c.call {
				t.Fatalf("%v: at call %d", ks, m.s.Call+1)
			}
			r := m.list.Selected()
			if r == nil || r.Fate != c.fate {
				t.Fatalf("%v: cursor on %+v, want the first %s turn", ks, r, c.fate)
			}
			if want == "" {
				want = r.Key
			}
			if r.Key != want {
				t.Errorf("%v: cursor on %s, another key put it on %s", ks, r.Key, want)
			}
			if m.detail.VP.YOffset != 0 {
				t.Errorf("%v: the detail is scrolled to line %d on a new call", ks, m.detail.VP.YOffset)
			}
		}
	}
}

func repeat(k string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = k
	}
	return out
}

const t01 = "../testdata/t01-toolchars/run.jsonl"

// In the focused detail, g/G/Home/End go to the top and bottom of the
// text (the less habit) and the title says which lines are in view.
func TestDetailScrollKeys(t *testing.T) {
	m := press(open(t, fileConfig(t01), 120, 40), "l", "l", "tab")
	h, n := m.detail.VP.Height, m.detail.VP.TotalLineCount()
	if n <= h {
		t.Fatalf("t01 call 3's turn should be longer than the pane: %d lines in %d", n, h)
	}
	for _, c := range []struct {
		keys []string
		y    int
	}{
		{[]string{"G"}, n - h},
		{[]string{"end", "g"}, 0},
		{[]string{"end"}, n - h},
		{[]string{"G", "home"}, 0},
		{[]string{"ctrl+d"}, h / 2},
		{[]string{"ctrl+d", "ctrl+u"}, 0},
		{[]string{" "}, min(h, n-h)},
		{[]string{"pgdown", "b"}, 0},
		{[]string{"j", "j", "k"}, 1},
	} {
		mm := press(m, c.keys...)
		if mm.detail.VP.YOffset != c.y {
			t.Errorf("%v: at line %d, want %d", c.keys, mm.detail.VP.YOffset, c.y)
		}
		if mm.s.Call != 2 {
			t.Errorf("%v: the call moved to %d in the focused detail", c.keys, mm.s.Call+1)
		}
		want := " · lines " + itoa(c.y+1) + "–" + itoa(min(n, c.y+h)) + " of " + itoa(n)
		if got := mm.detail.Title(); !strings.HasSuffix(got, want) {
			t.Errorf("%v: title %q, want it to end %q", c.keys, got, want)
		}
		m = press(mm, "g")
	}
}

func click(x, y int) tea.MouseMsg {
	return tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
}

func TestMouse(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	// the timeline's cells start after the label; s01's 9 calls get 7
	// columns each at 120 wide: (120 − 6 label − 1 − 42 legend) / 9
	m = send(m, click(timeline.Label+7*7+2, m.timelineTop()+1))
	if m.s.Call != 7 {
		t.Fatalf("a click on the 8th cell went to call %d", m.s.Call+1)
	}
	// a click on the list's third line selects the third turn
	m = send(m, click(5, m.paneTop()+3))
	if r := m.list.Selected(); r == nil || r.Key != m.s.Rows.At(2).Key || !m.list.Chosen {
		t.Errorf("a click on the third row selected %+v", r)
	}
	// the wheel over the detail scrolls it (t01 call 3: a long turn)
	m = press(open(t, fileConfig(t01), 120, 40), "l", "l")
	y := m.detail.VP.YOffset
	m = send(m, tea.MouseMsg{X: 100, Y: m.paneTop() + 10, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.detail.VP.YOffset <= y {
		t.Errorf("the wheel over the detail did not scroll it")
	}
	// M gives the mouse to the terminal and takes it back
	next, cmd := m.Update(keyMsg("M"))
	if !next.(Model).mouseOff || cmd == nil {
		t.Fatal("M did not release the mouse")
	}
	next, cmd = next.(Model).Update(keyMsg("M"))
	if next.(Model).mouseOff || cmd == nil {
		t.Error("M again did not take the mouse back")
	}
}

func TestJumps(t *testing.T) {
	// The demo (report): evictions at calls 5, 6, 8–15; drop notices
	// written at 8, 9, 10, 13, 14; run 2 starts at call 13. Every window
	// matches its record.
	demo := "../testdata/demo-incident/run.jsonl"
	cases := []struct {
		keys  []string
		call  int // 1-based
		flash string
	}{
		{[]string{"e"}, 5, ""},
		{[]string{"e", "e", "e"}, 8, ""},
		{[]string{"G", "E"}, 15, ""},
		{[]string{":", "7", "enter", "E"}, 6, ""},
		{[]string{"c"}, 8, ""},
		{[]string{"c", "c", "c", "c"}, 13, ""},
		{[]string{"G", "C", "C"}, 13, ""},
		{[]string{">"}, 13, ""},
		{[]string{">", ">"}, 13, "no later run"},
		{[]string{"G", "<"}, 13, ""},
		{[]string{"G", "<", "<"}, 1, ""},
		{[]string{"d"}, 1, "no later call whose replay differs from its recorded window"},
		{[]string{"G", "e"}, 16, "no later eviction"},
	}
	for _, c := range cases {
		m := press(open(t, fileConfig(demo), 120, 40), c.keys...)
		if m.s.Call != c.call-1 || m.flash != c.flash {
			t.Errorf("%v: at call %d saying %q, want call %d saying %q", c.keys, m.s.Call+1, m.flash, c.call, c.flash)
		}
	}
	// c04 (README): under summarize-oldest, run 1 folds at calls 6, 8, 9
	// and 10 (7 is refused), runs 2 and 3 at their second calls (12, 17):
	// c/C stop at every summary written, and the timeline marks the folds
	// Σ, not × (nothing was dropped).
	for _, c := range []struct {
		keys []string
		call int
	}{{[]string{"c"}, 6}, {[]string{"c", "c"}, 8}, {[]string{"c", "c", "c", "c", "c"}, 12}, {[]string{"G", "C"}, 17}} {
		if m := press(open(t, fileConfig(c04), 120, 40), c.keys...); m.s.Call != c.call-1 {
			t.Errorf("c04 %v: at call %d, want %d", c.keys, m.s.Call+1, c.call)
		}
	}
	tl := timeline.New(&common.Common{Styles: theme.DefaultStyles(), Keys: keys.DefaultKeyMap(), Session: open(t, fileConfig(c04), 200, 40).s})
	tl.SetSize(200, timeline.Height)
	marks, legend, _ := strings.Cut(strings.Split(ansi.Strip(tl.View()), "\n")[2], " ▲ here")
	if strings.Count(marks, "Σ") != 6 || strings.Contains(marks, "×") || !strings.Contains(legend, "Σ folded") {
		t.Errorf("c04's timeline marks %q (legend %q), want Σ at the 6 folds, no ×, and Σ in the legend", marks, legend)
	}
	// a jump lands the cursor as any other key does
	m := press(open(t, fileConfig(demo), 120, 40), "e")
	if r := m.list.Selected(); r == nil || r.Fate != window.FateEvicted {
		t.Errorf("after e the cursor is on %+v, want the evicted turn", r)
	}
	// with pins off, s01 differs from its record (TestExportPinsOffIsS02)
	m = press(open(t, fileConfig(s01), 120, 40), "p", "d")
	if m.s.Current().Recorded() != window.Differs {
		t.Errorf("d went to call %d, which does not differ", m.s.Call+1)
	}
	first := m.s.Call
	m = press(m, "G", "D")
	if m.s.Current().Recorded() != window.Differs || m.s.Call < first {
		t.Errorf("D from the last call went to call %d", m.s.Call+1)
	}
}

func TestTranscript(t *testing.T) {
	// s01 call 5 (wire.json): 7 messages, the request first
	m := press(open(t, fileConfig(s01), 120, 40), ":", "5", "enter", "v")
	if m.overlay != transcriptOverlay || m.trans.Busy || m.trans.Call != 4 {
		t.Fatalf("v: overlay %v busy %v call %d", m.overlay, m.trans.Busy, m.trans.Call)
	}
	text := ansiFree(m.trans.Raw)
	for i := 1; i <= 7; i++ {
		if !strings.Contains(text, "#"+itoa(i)+"\n") {
			t.Errorf("message #%d is not in the transcript", i)
		}
	}
	if strings.Contains(text, "#8\n") || !strings.HasPrefix(text, "#1\n── user") {
		t.Errorf("the transcript is not call 5's 7 messages, request first:\n%.300s", text)
	}
	m = press(m, "l")
	if m.trans.Call != 5 || m.overlay != transcriptOverlay {
		t.Errorf("→ in the transcript: call %d", m.trans.Call+1)
	}
	m = press(m, "G")
	if !m.trans.Vp.AtBottom() || m.s.Call != 5 {
		t.Errorf("G in the transcript goes to its bottom, not the last call")
	}
	m = press(m, "v")
	if m.overlay != noOverlay {
		t.Error("v again does not close the transcript")
	}
	checkFrame(t, press(m, "v").View(), 120, 40)
}

func TestCopyOSC52(t *testing.T) {
	var clip bytes.Buffer
	cfg := fileConfig(demoLog)
	cfg.Clipboard = &clip
	// the demo's call 8: the cursor lands on the evicted list_hosts turn
	m := press(open(t, cfg, 120, 40), ":", "8", "enter", "y")
	out := clip.String()
	if !strings.HasPrefix(out, "\x1b]52;c;") || !strings.HasSuffix(out, "\x07") {
		t.Fatalf("y wrote %q, not an OSC 52 sequence", out)
	}
	text, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(out, "\x1b]52;c;"), "\x07"))
	if err != nil {
		t.Fatal(err)
	}
	r := m.list.Selected()
	if r == nil || string(text) != external.PlainText(r.Messages) || !strings.Contains(string(text), `"id":"web-9d4b27"`) {
		t.Errorf("copied %.200q", text)
	}
	if !strings.Contains(m.footer(), "copied") {
		t.Errorf("the footer does not say it copied: %q", m.footer())
	}
}

func TestPagerFile(t *testing.T) {
	m := press(open(t, fileConfig(s01), 120, 40), ":", "5", "enter")
	_, cmd := m.Update(keyMsg("o"))
	if cmd == nil {
		t.Fatal("o started nothing")
	}
	msg, ok := cmd().(external.PagerFileMsg)
	if !ok || msg.Err != nil {
		t.Fatalf("o: %#v", msg)
	}
	defer os.Remove(msg.Path)
	b, err := os.ReadFile(msg.Path)
	if err != nil {
		t.Fatal(err)
	}
	// the evicted read_file#1 turn, plain
	if !strings.Contains(string(b), "read_file#1 q=read_file-2") || strings.Contains(string(b), "\x1b") {
		t.Errorf("the pager's file: %.200q", b)
	}
	if _, cmd := m.Update(msg); cmd == nil {
		t.Error("the file did not start the pager")
	}
}

// Every key the keys.KeyMap binds is in the full help, so none is secret.
func TestEveryKeyIsInTheHelp(t *testing.T) {
	k := keys.DefaultKeyMap()
	inHelp := map[string]bool{}
	for _, g := range k.FullHelp() {
		for _, b := range g {
			for _, s := range b.Keys() {
				inHelp[s] = true
			}
		}
	}
	// the previous-of-a-pair keys are named with their pair (e/E)
	for _, p := range [][2]key.Binding{{k.NextEvict, k.PrevEvict}, {k.NextDiffer, k.PrevDiffer},
		{k.NextRun, k.PrevRun}, {k.NextNotice, k.PrevNotice}, {k.NextHit, k.PrevHit}} {
		for _, s := range p[1].Keys() {
			inHelp[s] = inHelp[p[0].Keys()[0]] && strings.Contains(p[0].Help().Key, s)
		}
	}
	for _, b := range []key.Binding{k.PrevCall, k.NextCall, k.FirstCall, k.LastCall, k.GotoCall,
		k.Search, k.NextHit, k.PrevHit, k.NextEvict, k.PrevEvict, k.NextDiffer, k.PrevDiffer, k.NextRun, k.PrevRun, k.NextNotice, k.PrevNotice,
		k.Up, k.Down, k.Expand, k.HideGone, k.Focus, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown,
		k.Transcript, k.Pager, k.Copy, k.Mouse, k.Follow, k.Reload,
		k.RecentLess, k.RecentMore, k.PinsLess, k.PinsMore, k.TogglePins, k.ToggleAnchor, k.Strategy, k.ThresholdLess, k.ThresholdMore, k.Reset,
		k.Help, k.Problems, k.Close, k.Quit} {
		for _, s := range b.Keys() {
			if !inHelp[s] {
				t.Errorf("%q (%s) is not in the help", s, b.Help().Desc)
			}
		}
	}
}

// In a long run the gone turns of a run fold into one row; enter opens
// it, enter on one of its turns closes it, z hides them all.
func TestFoldGoneTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Default(60)); err != nil {
		t.Fatal(err)
	}
	m := press(open(t, fileConfig(path), 120, 40), ":", "5", "0", "enter")
	gone := 0
	for _, r := range m.s.Rows.Rows() {
		if r.Fate == window.FateGone {
			gone++
		}
	}
	folds := 0
	for _, it := range m.list.Items {
		if it.Kind == turnlist.FoldItem {
			folds++
			if it.N < turnlist.FoldMin {
				t.Errorf("a fold of %d turns", it.N)
			}
		}
	}
	if gone < 20 || folds != 1 || len(m.list.Items) >= m.s.Rows.Len() {
		t.Fatalf("%d gone turns, %d folds, %d items for %d rows", gone, folds, len(m.list.Items), m.s.Rows.Len())
	}
	// the cursor goes up onto the fold: the detail says what it holds
	for i := 0; i < len(m.list.Items) && m.list.Items[m.list.Cursor].Kind != turnlist.FoldItem; i++ {
		m = press(m, "k")
	}
	if _, ok := m.list.SelectedFold(); !ok || !strings.Contains(m.detail.Note(), "turns that left at calls") {
		t.Fatalf("on the fold the detail says %q", m.detail.Note())
	}
	m = press(m, "enter")
	if r := m.list.Selected(); r == nil || r.Fate != window.FateGone || len(listRows(m)) != m.s.Rows.Len() {
		t.Fatalf("enter did not open the fold onto its first turn: %+v, %d of %d rows listed", r, len(listRows(m)), m.s.Rows.Len())
	}
	m = press(m, "j", "enter")
	if _, ok := m.list.SelectedFold(); !ok {
		t.Error("enter on a turn of an opened fold does not close it onto the fold")
	}
	m = press(m, "z")
	for _, it := range m.list.Items {
		if it.Kind == turnlist.FoldItem || (it.Kind == turnlist.TurnItem && m.s.Rows.At(it.Row).Fate == window.FateGone) {
			t.Fatal("z leaves gone turns or folds listed")
		}
	}
	// a short list does not fold
	s := press(open(t, fileConfig(s01), 120, 40), "G")
	for _, it := range s.list.Items {
		if it.Kind == turnlist.FoldItem {
			t.Error("s01's 13 turns fit the pane, yet some are folded")
		}
	}
}

func TestRunSeparator(t *testing.T) {
	// s05 has three runs; at its last call the list opens runs 2 and 3
	// with a separator each, which the cursor never lands on
	m := press(open(t, fileConfig("../testdata/s05-multi-turn/run.jsonl"), 120, 40), "G")
	var seps []int
	for _, it := range m.list.Items {
		if it.Kind == turnlist.RunItem {
			seps = append(seps, it.Run)
		}
	}
	if len(seps) != 2 || seps[0] != 2 || seps[1] != 3 {
		t.Fatalf("separators for runs %v, want [2 3]", seps)
	}
	m = press(m, strings.Split(strings.Repeat("k", len(m.list.Items)), "")...)
	for range len(m.list.Items) + 2 {
		if m.list.Items[m.list.Cursor].Kind == turnlist.RunItem {
			t.Fatal("the cursor is on a separator")
		}
		m = press(m, "j")
	}
	if !strings.Contains(m.View(), "── run 2 ") {
		t.Error("the separator is not drawn")
	}
}
