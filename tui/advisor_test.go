package tui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/components/advisor"
	"github.com/afinspect/inspect/tui/components/response"
	"github.com/afinspect/inspect/tui/session"
)

const demoEvidence = "../testdata/demo-evidence/run.jsonl"

// withSweep puts engine in sweepAdvice for the test.
func withSweep(t *testing.T, engine func(ctx context.Context, st *session.Study, agent string, progress func(done, total int)) (*session.Advice, error)) {
	t.Helper()
	was := session.SweepAdvice
	session.SweepAdvice = engine
	t.Cleanup(func() { session.SweepAdvice = was })
}

// blockingSweep is an engine that says it replayed 3 policies of 80,
// then waits until it is given up; each sweep's agent is sent on started
// and closes its own channel in cancelled once given up.
type blockingSweep struct {
	started   chan string
	cancelled chan chan struct{}
}

func newBlockingSweep(t *testing.T) *blockingSweep {
	b := &blockingSweep{started: make(chan string, 8), cancelled: make(chan chan struct{}, 8)}
	withSweep(t, func(ctx context.Context, _ *session.Study, agent string, progress func(done, total int)) (*session.Advice, error) {
		gone := make(chan struct{})
		b.cancelled <- gone
		b.started <- agent
		progress(3, 80)
		<-ctx.Done()
		close(gone)
		return nil, ctx.Err()
	})
	return b
}

// gone waits for a sweep's context to be cancelled.
func gone(t *testing.T, c chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(60 * time.Second): // a bound on a wait for the state, never the test's verdict when it comes
		t.Fatalf("%s: the sweep was not given up", what)
	}
}

// P opens the advisor on the agent on screen and starts the sweep off
// the UI goroutine: the key's own update returns at once, the sweep's
// progress comes as a message, and the view shows it. Esc and q close
// the view, and the sweep's context is cancelled.
func TestAdvisorKeyStartsTheSweepAndClosingGivesItUp(t *testing.T) {
	for _, closing := range []string{"esc", "q", "P"} {
		b := newBlockingSweep(t)
		m := open(t, fileConfig(demoEvidence), 120, 40)
		next, cmd := m.Update(keyMsg("P"))
		m = next.(Model)
		if m.overlay != advisorOverlay || cmd == nil {
			t.Fatalf("P: overlay %d, command %v", m.overlay, cmd)
		}
		if agent := <-b.started; agent != "agent" {
			t.Errorf("the sweep is for agent %q, want the demo's agent", agent)
		}
		cancelled := <-b.cancelled
		next, _ = m.Update(findMsg(t, cmd)) // the progress: 3 of 80; its next wait is not run
		m = next.(Model)
		if !strings.Contains(m.View(), "3/80 policies") {
			t.Errorf("the progress is not on screen:\n%s", m.View())
		}
		m = press(m, closing)
		gone(t, cancelled, closing)
		if m.overlay != noOverlay || m.quitting {
			t.Errorf("%s: overlay %d, quitting %v: the view should close, the program stay", closing, m.overlay, m.quitting)
		}
	}
}

// findMsg runs cmd (a batch too) until one of its commands gives a
// message of the advisor's sweep.
func findMsg(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	msgs := make(chan tea.Msg, 16)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				go run(c)
			}
		case session.AdviseProgressMsg, session.AdvisedMsg:
			msgs <- msg
		}
	}
	go run(cmd)
	select {
	case msg := <-msgs:
		return msg
	case <-time.After(60 * time.Second): // a bound on a wait for the state, never the test's verdict when it comes
		t.Fatal("no message of the sweep")
	}
	return nil
}

// The conversation on screen changes under an open advisor (another
// agent's, as a reload or the picker brings it): the sweep for the agent
// that left is given up, and one for the new agent starts.
func TestAdvisorFollowsTheConversation(t *testing.T) {
	b := newBlockingSweep(t)
	m := open(t, fileConfig("../testdata/c02-interleaved-agents/run.jsonl"), 120, 40)
	next, _ := m.Update(keyMsg("P"))
	m = next.(Model)
	first, cancelled := <-b.started, <-b.cancelled
	other := m.s.Views.Convs[1]
	if other.Agent.Key == first {
		t.Fatalf("c02's second conversation is agent %q's too", first)
	}
	next, _ = m.Update(session.ViewCmd(m.gen, m.s, other.Number)())
	m = next.(Model)
	gone(t, cancelled, "another conversation on screen")
	if agent := <-b.started; agent != other.Agent.Key {
		t.Errorf("the new sweep is for %q, want %q", agent, other.Agent.Key)
	}
	m = press(m, "esc")
	gone(t, <-b.cancelled, "esc")
}

// openAdvisor opens the demo at w×h on call 13 (its final answer), and
// the advisor, its sweep run to the end.
func openAdvisor(t *testing.T, w, h int) Model {
	t.Helper()
	m := press(open(t, fileConfig(demoEvidence), w, h), "A", "P")
	if m.adv.Advice() == nil {
		t.Fatalf("no advice:\n%s", m.View())
	}
	return m
}

// cursorRow is the table's line under the cursor.
func cursorRow(t *testing.T, m Model) string {
	t.Helper()
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(l, "▸") && !strings.Contains(l, "≈") && strings.ContainsAny(l, "0123456789") {
			return l
		}
	}
	t.Fatalf("no row under the cursor:\n%s", m.View())
	return ""
}

// The cursor starts on the recorded policy (the README's demo frontier:
// sliding-window K2 L2, fifth of ten) and ↑/↓ (k/j) move it along the
// frontier, fewest tokens first, stopping at either end.
func TestAdvisorArrowsMoveAlongTheFrontier(t *testing.T) {
	m := openAdvisor(t, 120, 40)
	want := []string{"sliding-window K1 L0", "sliding-window K2 L0", "sliding-window K1 L1", "sliding-window K1 L2",
		"sliding-window K2 L2", "sliding-window K4 L2", "token-budget T2149 K1 L2", "sliding-window K10 L1",
		"token-budget T1433 K6 L2", "token-budget T2149 K3 L2"}
	at := 4
	for _, k := range []string{"", "down", "j", "up", "k", "k", "k", "k", "k", "up", "G", "down", "g"} {
		if k != "" {
			m = press(m, k)
		}
		switch k {
		case "down", "j":
			at = min(at+1, len(want)-1)
		case "up", "k":
			at = max(at-1, 0)
		case "G":
			at = len(want) - 1
		case "g":
			at = 0
		}
		row := cursorRow(t, m)
		if !strings.Contains(row, want[at]+" ") {
			t.Errorf("after %q the cursor is on %q, want %s", k, row, want[at])
		}
		if got := advisor.PolicyName(m.adv.Advice().Rows[m.adv.Selected()].Policy, false); got != want[at] {
			t.Errorf("after %q the selected row is %s, want %s", k, got, want[at])
		}
	}
}

// Enter applies the policy under the cursor to the knobs, as K applies a
// suggestion: the view closes, the knobs are that policy, the replay on
// screen is that policy's, and the evidence counts follow. On the demo's
// final answer (call 13) the recorded policy leaves 4 values out of view
// (the library's check flagged 5 unsupported: 4 left, 1 never read,
// README); under the pick that keeps everything in view none is left,
// and the one never read stays.
func TestAdvisorEnterAppliesThePolicy(t *testing.T) {
	m := openAdvisor(t, 120, 40)
	before := provenance.TallyOf(m.s.EvidenceAt(m.s.Call)).Answer
	if before.Left != 4 || before.Never != 1 {
		t.Fatalf("call 13 under the recorded policy: %+v, want 4 left and 1 never read", before)
	}
	ad := m.adv.Advice()
	pick := ad.Rows[ad.KeepsEverything.Row].Policy
	m = press(m, "G") // the last row of the frontier: the most tokens, the fewest values out of view
	if m.adv.Selected() != ad.KeepsEverything.Row {
		t.Fatalf("the last row is %d, the pick %d", m.adv.Selected(), ad.KeepsEverything.Row)
	}
	m = press(m, "enter")
	if m.overlay != noOverlay {
		t.Errorf("the advisor is still open")
	}
	want := model.Policy{Strategy: model.TokenBudget, KeepRecentTurns: 3, KeepLastToolResults: 2, ThresholdTokens: 2149}
	if pick != want || m.s.Policy != want || m.s.Replay.Policy != want {
		t.Fatalf("the pick %+v; the knobs %+v; the replay's %+v; want %+v", pick, m.s.Policy, m.s.Replay.Policy, want)
	}
	mine := m.s.View.Replay(want, nil)
	if got, own := len(m.s.Current().Window()), len(mine.Calls[m.s.Call].Window()); got != own {
		t.Errorf("call 13's window on screen has %d messages, its replay under the pick %d", got, own)
	}
	after := provenance.TallyOf(m.s.EvidenceAt(m.s.Call)).Answer
	if after.Left != 0 || after.Never != 1 {
		t.Errorf("call 13 under the pick: %+v, want 0 left and 1 never read", after)
	}
	screen := m.View()
	for _, s := range []string{"threshold=2149*", "strategy=token-budget*", "keepRecentTurns=3*", "answers: 1 never read"} {
		if !strings.Contains(screen, s) {
			t.Errorf("the screen does not show %q:\n%s", s, screen)
		}
	}
	if strings.Contains(screen, "answers: 4 left") {
		t.Errorf("the header still counts the recorded policy's values:\n%s", screen)
	}
}

// Opened again, the advisor shows its answer at once: no second sweep.
func TestAdvisorSecondOpenUsesTheAnswerKept(t *testing.T) {
	var sweeps atomic.Int32
	withSweep(t, func(ctx context.Context, st *session.Study, agent string, progress func(done, total int)) (*session.Advice, error) {
		sweeps.Add(1)
		return advise.Advise(ctx, st, agent, progress)
	})
	m := openAdvisor(t, 120, 40)
	m = press(m, "esc")
	next, cmd := m.Update(keyMsg("P"))
	m = next.(Model)
	if n := sweeps.Load(); n != 1 {
		t.Errorf("%d sweeps, want 1", n)
	}
	if !strings.Contains(m.View(), "keeps everything: token-budget T2149 K3 L2") {
		t.Errorf("the second open does not show the answer at once:\n%s", m.View())
	}
	settle(m, cmd)
	if n := sweeps.Load(); n != 1 {
		t.Errorf("%d sweeps after the second open's commands, want 1", n)
	}
}

// A composition's own calls have no window in the log (§15.5): the
// advisor says there is nothing to advise, sweeps nothing, and takes
// its keys without failing.
func TestAdvisorOnACompositionSaysNothingToAdvise(t *testing.T) {
	own := compositionsOwnRuns(t)
	withSweep(t, func(context.Context, *session.Study, string, func(int, int)) (*session.Advice, error) {
		t.Error("a sweep of a composition's own calls")
		return nil, nil
	})
	m := open(t, recConfig("own", own), 120, 40)
	if !m.s.Agent.Agent.Composition {
		t.Fatalf("the agent on screen is %+v", m.s.Agent.Agent)
	}
	m = press(m, "P", "down", "enter", "G")
	if !strings.Contains(m.View(), "nothing to advise") || m.overlay != advisorOverlay {
		t.Errorf("the advisor on a composition:\n%s", m.View())
	}
}

// Too small a terminal: the view says it needs more room, and draws no
// table or chart it cannot fit.
func TestAdvisorSaysItNeedsMoreRoom(t *testing.T) {
	for _, size := range [][2]int{{60, 24}, {120, 13}} {
		m := press(open(t, fileConfig(demoEvidence), size[0], size[1]), "P")
		if s := m.View(); !strings.Contains(s, "needs more room") || strings.Contains(s, "POLICY") {
			t.Errorf("at %d×%d:\n%s", size[0], size[1], s)
		}
	}
}

// The mouse over the advisor: the wheel moves along the frontier; a
// click lands on no turn of the list hidden under the view.
func TestAdvisorTakesTheMouse(t *testing.T) {
	m := openAdvisor(t, 120, 40)
	at, cursor := m.adv.Cursor(), m.list.Cursor
	m = send(m, tea.MouseMsg{X: 5, Y: m.paneTop() + 3, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.adv.Cursor() != at+1 {
		t.Errorf("the wheel moved the cursor from %d to %d", at, m.adv.Cursor())
	}
	m = send(m, tea.MouseMsg{X: 5, Y: m.paneTop() + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.list.Cursor != cursor || m.overlay != advisorOverlay {
		t.Errorf("a click on the advisor selected turn %d (was %d) under it", m.list.Cursor, cursor)
	}
}

// P marks the policy on screen when the knobs moved it: none is marked
// under the recorded policy; after enter applied the keeps-everything
// pick (token-budget T2149 K3 L2, the README's demo frontier's last), P
// again marks that row ● and the cursor line on it says "on screen".
func TestAdvisorMarksThePolicyOnScreen(t *testing.T) {
	m := openAdvisor(t, 120, 40)
	if strings.Contains(m.View(), "●") {
		t.Fatalf("a row is marked on screen under the recorded policy:\n%s", m.View())
	}
	m = press(m, "G", "enter")
	if m.overlay != noOverlay || !m.s.Moved() {
		t.Fatalf("enter did not apply the pick (overlay %v)", m.overlay)
	}
	m = press(m, "P")
	if m.adv.Advice() == nil {
		t.Fatalf("no advice:\n%s", m.View())
	}
	marked := ""
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(l, "●") && strings.Contains(l, "K3 L2") {
			marked = l
		}
	}
	if !strings.Contains(marked, "token-budget T2149 K3 L2") {
		t.Errorf("no row of token-budget T2149 K3 L2 marked ●:\n%s", m.View())
	}
	m = press(m, "G")
	if !strings.Contains(m.View(), "(● on screen)") {
		t.Errorf("the cursor line on the policy on screen does not say so:\n%s", m.View())
	}
}

// A value no policy within 4 knob steps keeps names the advisor's pick
// that keeps every answer value, once the advisor has found it: demo
// call 13's 3,940 (get_metrics call_0004, superseded at 8; `inspect
// evidence` says no window policy within 4 knob steps keeps it), kept by
// token-budget T2149 K3 L2 (the advisor's golden: under it the answer's
// four values that left are in view). Before the advisor ran, the line
// says only that nothing near keeps it.
func TestNoNearbyPolicyNamesTheAdvisorsPick(t *testing.T) {
	line := func(m Model) string {
		t.Helper()
		for _, l := range strings.Split(response.Text(m.s, m.st, withAdvice(m.sugs, m.adv, m.s), -1, 200), "\n") {
			if strings.Contains(l, "no window policy within") {
				return l
			}
		}
		return ""
	}
	m := press(open(t, fileConfig(demoEvidence), 120, 40), "A", "i")
	before := line(m)
	if !strings.Contains(before, "no window policy within 4 knob steps keeps it in view") || strings.Contains(before, "advisor") {
		t.Fatalf("before the advisor: %q", before)
	}
	m = press(m, "esc", "P")
	if m.adv.Advice() == nil {
		t.Fatal("no advice")
	}
	m = press(m, "esc", "i")
	if after := line(m); !strings.Contains(after, "the advisor's token-budget T2149 K3 L2") || !strings.Contains(after, "keeps every answer's values in view (P)") {
		t.Errorf("after the advisor: %q", after)
	}
}
