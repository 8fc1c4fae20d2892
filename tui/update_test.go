package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

const s01 = "../testdata/s01-basic-loop/run.jsonl"

// oneCall is a recording of a single model call, built by hand.
func oneCall() *model.Recording {
	req := &model.Message{Role: model.RoleUser, Content: "What is 2+2?", ID: 1}
	return &model.Recording{Source: "one", Runs: []*model.Run{{
		Index: 1, RunNo: 1, RunID: "r1", HasTurnStart: true, Request: req.Content, RequestMessage: req,
		Strategy: model.SlidingWindow, Complete: true, FinalAnswer: "4",
		Calls: []*model.Call{{
			Iteration: 1, MessagesCount: 1, Ended: true,
			Appended: []*model.Message{{Role: model.RoleAssistant, Content: "4", ID: 2}},
		}},
	}}}
}

// Models share their session and components through pointers, as a
// running program's one model does: each case opens its own.

func TestCallBounds(t *testing.T) {
	cases := []struct {
		keys []string
		want int // 0-based call
	}{
		{[]string{"h"}, 0},
		{[]string{"left", "left"}, 0},
		{[]string{"l", "right"}, 2},
		{[]string{"G"}, 8},
		{[]string{"G", "l", "right"}, 8},
		{[]string{"end", "g"}, 0},
		{[]string{"end", "home"}, 0},
		{[]string{":", "9", "9", "enter"}, 8},
		{[]string{":", "0", "enter"}, 0},
		{[]string{":", "4", "enter"}, 3},
		{[]string{":", "4", "esc"}, 0},
		{[]string{":", "4", "2", "backspace", "enter"}, 3},
		{[]string{":", "enter"}, 0},
		{[]string{":", "x", "l", "5", "enter"}, 4}, // letters are not typed into the prompt
	}
	for _, c := range cases {
		got := press(open(t, fileConfig(s01), 120, 40), c.keys...)
		if got.s.Call != c.want {
			t.Errorf("%v: at call %d, want %d", c.keys, got.s.Call, c.want)
		}
		if got.prompt {
			t.Errorf("%v: prompt still open", c.keys)
		}
	}
}

func TestTurnCursorBounds(t *testing.T) {
	last := func() Model { return press(open(t, fileConfig(s01), 120, 40), "G") }
	n := last().s.Rows.Len() // call 9: 13 turns
	if n != 13 {
		t.Fatalf("%d turns at s01's last call, want 13", n)
	}
	m := press(last(), strings.Split(strings.Repeat("k", n+3), "")...)
	if m.list.Cursor != 0 {
		t.Errorf("cursor %d after moving up past the top", m.list.Cursor)
	}
	first := m.s.Rows.At(0).Key
	// a turn the user chose is kept across a replay of the same call
	m = press(m, "]")
	if r := m.list.Selected(); r == nil || r.Key != first {
		t.Errorf("the chosen turn was not kept across a replay: %+v", r)
	}
	// below the last turn is the call's response row, and nothing after it
	m = press(last(), strings.Split(strings.Repeat("j", n+3), "")...)
	if m.list.Cursor != n || !m.list.OnResponse() {
		t.Errorf("cursor %d after moving down past the bottom, want %d (the response row)", m.list.Cursor, n)
	}
	// unchosen, the cursor goes to what left at each call
	m = press(open(t, fileConfig(s01), 120, 40), ":", "5", "enter")
	if r := m.list.Selected(); r == nil || r.Fate != window.FateEvicted {
		t.Errorf("at call 5 the cursor is on %+v, want the evicted turn", r)
	}
}

func TestOneCall(t *testing.T) {
	m := open(t, recConfig("one", oneCall()), 80, 24)
	for _, k := range []string{"h", "l", "g", "G", "home", "end", "j", "k", "pgdown", "tab", "j"} {
		m = press(m, k)
		if m.s.Call != 0 {
			t.Fatalf("after %q: call %d of a one-call recording", k, m.s.Call)
		}
	}
	if m.s.Rows.Len() != 1 || m.s.Rows.At(0).Fate != window.FateAnchor {
		t.Fatalf("rows = %+v, want the request alone, as the anchor", m.s.Rows.Rows())
	}
	m = press(m, "]", "p", "a")
	if !m.s.Changed() || m.s.Replaying {
		t.Fatalf("knobs on one call: changed=%v replaying=%v", m.s.Changed(), m.s.Replaying)
	}
	checkFrame(t, m.View(), 80, 24)
	if v := m.View(); !strings.Contains(v, "call 1/1") {
		t.Errorf("header does not say call 1/1:\n%s", v)
	}
}

func TestEmptyRecordings(t *testing.T) {
	noCalls := oneCall()
	noCalls.Runs[0].Calls = nil
	for name, rec := range map[string]*model.Recording{
		"no runs":  {Source: "empty"},
		"no calls": noCalls,
	} {
		m := open(t, recConfig(name, rec), 80, 24)
		m = press(m, "l", "h", "G", "g", "j", "k", "tab", "pgdown", ":", "3", "enter", "[", "p", "?", "esc", "!", "esc")
		if m.list.Selected() != nil || m.detail.Row() != nil {
			t.Errorf("%s: a turn is selected in an empty list", name)
		}
		v := m.View()
		checkFrame(t, v, 80, 24)
		if !strings.Contains(v, "no model calls") {
			t.Errorf("%s: the screen does not say there are no calls:\n%s", name, v)
		}
	}
}

func TestSizes(t *testing.T) {
	m := New(fileConfig(s01))
	if v := m.View(); v != "" {
		t.Errorf("view before the first WindowSizeMsg = %q", v)
	}
	m = press(m, "l", "?", "p") // keys while loading are harmless
	m = settle(m, session.LoadCmd(m.cfg.source()))
	m = press(m, "G", "j")
	for _, sz := range [][2]int{{200, 50}, {120, 40}, {80, 24}, {60, 15}, {20, 6}, {3, 2}, {1, 1}} {
		m = send(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, overlay := range []string{"", "?", "!"} {
			mm := m
			if overlay != "" {
				mm = press(m, overlay)
			}
			checkFrame(t, mm.View(), sz[0], sz[1])
		}
	}
}

// checkFrame: exactly h lines, none wider than w.
func checkFrame(t *testing.T, v string, w, h int) {
	t.Helper()
	ls := strings.Split(v, "\n")
	if len(ls) != h {
		t.Errorf("%d×%d: %d lines", w, h, len(ls))
	}
	for i, l := range ls {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%d×%d: line %d is %d wide: %q", w, h, i, lw, l)
		}
	}
}

func TestKnobsAndReset(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	m = press(m, ":", "4", "enter")
	rec := m.s.Agent.Recorded
	m = press(m, "}", "p")
	if m.s.Policy.KeepLastToolResults != 0 {
		t.Fatalf("pins off: keepLastToolResults=%d", m.s.Policy.KeepLastToolResults)
	}
	m = press(m, "p")
	if got := m.s.Policy.KeepLastToolResults; got != rec.KeepLastToolResults+1 {
		t.Errorf("pins back on: keepLastToolResults=%d, want the value before, %d", got, rec.KeepLastToolResults+1)
	}
	m = press(m, "[", "[", "[", "[", "{", "{", "{", "{", "{", "t", "t")
	if p := m.s.Policy; p.KeepRecentTurns != 0 || p.KeepLastToolResults != 0 || p.ThresholdTokens != 0 {
		t.Errorf("knobs went below zero: %+v", p)
	}
	m = press(m, "s", "a")
	if p := m.s.Policy; p.Strategy != model.TokenBudget || p.ThresholdTokens == 0 || !p.NoAnchor {
		t.Errorf("strategy/anchor: %+v", p)
	}
	if m.s.Call != 3 {
		t.Errorf("a knob change moved the call to %d", m.s.Call)
	}
	m = press(m, "r")
	if m.s.Changed() || m.s.Replay != m.s.Recorded || m.s.Changes.Count() != 0 {
		t.Errorf("reset: policy %+v, recorded %+v", m.s.Policy, rec)
	}
}

func TestStaleReplayIsIgnored(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	next, cmd := m.Update(keyMsg("p")) // pins off: a replay starts
	m = next.(Model)
	if !m.s.Replaying || cmd == nil {
		t.Fatal("a knob did not start a replay")
	}
	m = press(m, "p") // back on: the recorded replay, at once
	m = settle(m, cmd)
	if m.s.Replay != m.s.Recorded || m.s.Replaying {
		t.Errorf("the stale pins-off replay replaced the recorded one")
	}
}

func TestPinsOffMarksChanges(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	m = press(m, ":", "4", "enter", "p")
	var found bool
	for _, r := range m.s.Rows.Rows() {
		if r.Fate == window.FateEvicted && m.s.Changes.Of(r.Key) == "was pinned, now evicted" {
			found = true
		}
	}
	if !found {
		t.Errorf("no turn marked 'was pinned, now evicted' at call 4 with pins off: %+v", m.s.Changes)
	}
}

func TestGuardTurnsPanicsIntoErrors(t *testing.T) {
	g := &guard{m: panicky{}}
	_, cmd := g.Update(tea.KeyMsg{})
	if g.failure == nil || cmd == nil {
		t.Fatal("a panic in Update was not caught")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("a panic in Update does not quit")
	}
	quit := false
	g = &guard{m: panicky{}, quit: func() { quit = true }}
	if v := g.View(); v != "" || g.failure == nil || !quit {
		t.Errorf("a panic in View: view %q, failure %v, quit %v", v, g.failure, quit)
	}
}

type panicky struct{}

func (panicky) Init() tea.Cmd                       { return nil }
func (panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { panic("boom") }
func (panicky) View() string                        { panic("boom") }

func TestLoadErrorQuits(t *testing.T) {
	m := New(fileConfig("../testdata/no-such-file.jsonl"))
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	next, cmd := m.Update(session.LoadCmd(m.cfg.source())())
	m = next.(Model)
	if m.err == nil || cmd == nil {
		t.Fatal("a load error neither kept nor quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("a load error does not quit")
	}
}

func TestRunesReadTogetherAreSeparateKeys(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lll")})
	if m.s.Call != 3 {
		t.Errorf(`"lll" in one read moved to call %d, want 3`, m.s.Call)
	}
}

func TestHideGone(t *testing.T) {
	m := press(open(t, fileConfig(s01), 120, 40), "G")
	all := len(listRows(m))
	m = press(m, "z")
	for _, r := range listRows(m) {
		if r.Fate == window.FateGone {
			t.Fatalf("a gone turn is listed with gone turns hidden")
		}
	}
	if len(listRows(m)) >= all || !strings.Contains(m.View(), "gone hidden") {
		t.Errorf("hiding gone turns: %d of %d rows left", len(listRows(m)), all)
	}
	m = press(m, "tab", "z", "tab")
	if len(listRows(m)) != all {
		t.Errorf("z again (from the detail) lists %d rows, want %d", len(listRows(m)), all)
	}
}

func TestConfigKnobsOpenUnderFlagsAgainstTheRecordedPolicy(t *testing.T) {
	cfg := fileConfig(s01)
	cfg.Knobs = model.Knobs{KeepLastToolResults: study.Int(0)} // --keep-last-tool-results 0
	m := open(t, cfg, 120, 40)
	if m.s.Policy.KeepLastToolResults != 0 || m.s.Agent.Recorded.KeepLastToolResults != 2 || !m.s.Changed() {
		t.Fatalf("opened under %+v (recorded %+v), changed=%v", m.s.Policy, m.s.Agent.Recorded, m.s.Changed())
	}
	// s01 under pins off is s02: its last wire window has 6 messages
	m = press(m, "G")
	if got := len(m.s.Current().Window()); got != 6 {
		t.Errorf("last call sends %d messages with pins off, s02-pins-off's wire has 6", got)
	}
	m = press(m, "r")
	if m.s.Policy.KeepLastToolResults != 2 || m.s.Changed() {
		t.Errorf("r went to %+v, not the recorded policy", m.s.Policy)
	}
}

// TestJudgeDroppedWithItsReplay: the whole-run judge job of a replay that
// left the screen before it answered stops, files nothing, and starts
// afresh when that replay comes back.
func TestJudgeDroppedWithItsReplay(t *testing.T) {
	m := open(t, fileConfig("../testdata/demo-incident/run.jsonl"), 120, 40)
	s := m.s
	old := s.Book
	delete(s.Judgements, old)
	s.Judging = nil
	job := s.JudgeJob()
	if job == nil {
		t.Fatal("no judge job for the replay on screen")
	}
	s.Book = nil // another replay on screen, its book not made yet
	s.DropJudges()
	msg, ok := job().(session.JudgedMsg)
	if !ok || !msg.GaveUp {
		t.Fatalf("the dropped job answered %+v, want it to give up", msg)
	}
	s.Judged(msg)
	if _, filed := s.Judgements[old]; filed {
		t.Error("a job that gave up filed a judgement")
	}
	s.Book = old
	if s.JudgeJob() == nil {
		t.Error("the replay came back and is not judged again")
	}
	if msg, ok := judgeCmd(old, s.Rec, s.Replay)().(session.JudgedMsg); !ok || msg.GaveUp || len(msg.Flags) != s.Calls() {
		t.Errorf("a job left alone answered %+v", msg)
	}
	// a knob pressed: the replay on screen is about to leave it
	s.Judging = nil
	job = s.JudgeJob()
	s.Replaying = true
	s.DropJudges()
	if msg, ok := job().(session.JudgedMsg); !ok || !msg.GaveUp {
		t.Errorf("the job of the replay a knob replaces answered %+v, want it to give up", msg)
	}
	if s.JudgeJob() != nil {
		t.Error("a judge job started for a replay a knob is replacing")
	}
}

// While a knob's replay is under way, the header does not say how the
// replay on screen (the one before the knob moved) compares with the
// record: it says the replay is under way. (The key's own frame is the
// one before it, policy bar and all: frames.go; the next is drawn here.)
func TestHeaderSaysReplayingUnderWay(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	if !strings.Contains(m.View(), "replay vs recorded: match") {
		t.Fatalf("s01 under its recorded policy should match:\n%s", m.View())
	}
	next, _ := m.Update(keyMsg("]")) // the replay's command is not run
	m = next.(Model)
	if !m.s.Replaying {
		t.Fatal("] did not start a replay")
	}
	next, _ = m.Update(tea.FocusMsg{}) // a message while it runs draws the screen as it is
	m = next.(Model)
	if v := m.View(); !strings.Contains(v, "replay vs recorded: replaying…") || strings.Contains(v, "replay vs recorded: match") {
		t.Errorf("the header should say the replay is under way:\n%s", v)
	}
}

// A long run's judge pass waits until the user's replay has been on
// screen a while (judgeWait): one tick is asked for, then the pass
// starts; a small run's starts at once.
func TestJudgeWaitsOnALongRun(t *testing.T) {
	long := &window.Replay{Calls: make([]window.CallReplay, session.JudgeWaitCalls)}
	s := &session.Session{Replay: long, Book: &provenance.Book{}, ShownAt: time.Now()}
	if s.JudgeJob() == nil || s.Judging[s.Book] {
		t.Fatal("a replay just shown: want a tick asked for, and no judge pass yet")
	}
	if s.JudgeJob() != nil {
		t.Error("a second tick asked for while one is on its way")
	}
	s.JudgeTick, s.ShownAt = false, time.Now().Add(-session.JudgeWait) // the tick came
	if s.JudgeJob() == nil || !s.Judging[s.Book] {
		t.Error("the replay has been on screen a while: the judge pass should start")
	}
	small := &session.Session{Replay: &window.Replay{Calls: make([]window.CallReplay, 10)}, Book: &provenance.Book{}, ShownAt: time.Now()}
	if small.JudgeJob() == nil || !small.Judging[small.Book] {
		t.Error("a small run's judge pass should start at once")
	}
}
