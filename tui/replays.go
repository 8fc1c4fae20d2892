package tui

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// A knob key on a long run waits for a replay of every call. Two things
// spare the wait where they can, both real work done earlier, never a
// guess shown as an answer:
//
//   - the replays of the last two policies the user set are held, so
//     that going back to one (] then [) shows it at once;
//   - once the screen has settled (the replay's book made), the policies
//     the first knob keys would give from here are replayed ahead, off
//     the UI goroutine, one after another, and held: the last knob key
//     again first, then ] [ } { p (aheadPolicies).
//
// A key whose policy is neither held nor being replayed ahead waits for
// its replay as before, and gives up the replay ahead under way. After
// the work ahead, the heap is collected while the user reads, so that
// the next replay does not meet a collection of the whole recording
// half way.

// recentReplays is how many replays under the user's policies are held;
// 0 holds none and replays nothing ahead (the benchmarks of a cold key);
// the heap is still collected while the user reads.
var recentReplays = 2

// aheadMax is the most replays made ahead that are held: one of a
// 50k-call run holds about 100 MB with its fates and cells.
const aheadMax = 4

// aheadMin is the fewest calls for which a replay is made ahead and the
// heap collected after: a shorter run replays within a frame anyway.
var aheadMin = 4096

// madeReplay is a replay under a policy the user set (or one a knob key
// would give, made ahead), with what the screen reads of it.
type madeReplay struct {
	policy model.Policy
	replay *window.Replay
	diff   *fateDiff
	cells  *timelineCells   // the timeline's, made with the replay (nil: made when drawn)
	book   *provenance.Book // nil until made (bookCmd)
}

// madeFor is the replay held under p (one the user set, or one made
// ahead), nil when none.
func (s *session) madeFor(p model.Policy) *madeReplay {
	for i := range s.recent {
		if s.recent[i].policy == p {
			return &s.recent[i]
		}
	}
	for i := range s.ahead {
		if s.ahead[i].policy == p {
			return &s.ahead[i]
		}
	}
	return nil
}

// remember holds the replay under p, a policy the user set, newest last;
// the oldest that is not on screen goes beyond recentReplays (its
// evidence judgement with it: dropJudges). A replay made ahead, once
// set, is held so.
func (s *session) remember(k madeReplay) {
	p := k.policy
	s.ahead = slices.DeleteFunc(s.ahead, func(n madeReplay) bool { return n.policy == p })
	if recentReplays <= 0 || slices.ContainsFunc(s.recent, func(k madeReplay) bool { return k.policy == p }) {
		return
	}
	s.recent = append(s.recent, k)
	for len(s.recent) > recentReplays {
		i := 0
		if s.recent[0].replay == s.replay {
			i = 1
		}
		s.recent = append(s.recent[:i], s.recent[i+1:]...)
	}
}

// booked notes the book made for r in its held replay.
func (s *session) booked(r *window.Replay, b *provenance.Book) {
	s.eachMade(r, func(k *madeReplay) { k.book = b })
}

// eachMade calls fn with every held replay of r: one the user set, or
// the one made ahead.
func (s *session) eachMade(r *window.Replay, fn func(*madeReplay)) {
	for i := range s.recent {
		if s.recent[i].replay == r {
			fn(&s.recent[i])
		}
	}
	for i := range s.ahead {
		if s.ahead[i].replay == r {
			fn(&s.ahead[i])
		}
	}
}

// holdAhead holds a replay made ahead (a policy the user did not set),
// newest last; the oldest goes beyond aheadMax.
func (s *session) holdAhead(k madeReplay) {
	if recentReplays <= 0 {
		return
	}
	s.ahead = append(slices.DeleteFunc(s.ahead, func(n madeReplay) bool { return n.policy == k.policy }), k)
	if len(s.ahead) > aheadMax {
		s.ahead = slices.Delete(s.ahead, 0, len(s.ahead)-aheadMax)
	}
}

// aheadMsg is sent by aheadCmd with a replay made ahead under policy.
type aheadMsg struct {
	view   *study.View
	policy model.Policy
	replay *window.Replay
	diff   *fateDiff
	cells  *timelineCells
}

func aheadCmd(v *study.View, recorded *window.Replay, p model.Policy, cells int, quit *atomic.Bool) tea.Cmd {
	return func() tea.Msg {
		r := v.Replay(p, quit)
		if r == nil {
			return aheadMsg{view: v, policy: p}
		}
		d, tc := screenParts(r, recorded, cells)
		return aheadMsg{view: v, policy: p, replay: r, diff: d, cells: tc}
	}
}

// collectedMsg says the heap was collected (collectCmd).
type collectedMsg struct{}

func collectCmd() tea.Cmd {
	return func() tea.Msg {
		runtime.GC()
		return collectedMsg{}
	}
}

// idleDelay is how long the user must have pressed nothing before work
// for later starts: it would slow the frames of keys pressed in a row.
var idleDelay = 300 * time.Millisecond

// idleMsg is sent idleDelay after idleWork found work to do.
type idleMsg struct{}

// idleWork asks for an idleMsg when there is work to do while the user
// reads a settled screen (idleTask); nil when there is none or one is on
// its way.
func (m *Model) idleWork() tea.Cmd {
	if m.s == nil || m.s.idleTick {
		return nil
	}
	if ahead, collect := m.idleTask(); ahead == nil && !collect {
		return nil
	}
	m.s.idleTick = true
	wait := idleDelay - time.Since(m.lastInput)
	return tea.Tick(max(wait, time.Millisecond), func(time.Time) tea.Msg { return idleMsg{} })
}

// idle starts the work idleWork asked for, unless a key came since (then
// it asks again).
func (m *Model) idle() tea.Cmd {
	s := m.s
	if s == nil {
		return nil
	}
	s.idleTick = false
	if time.Since(m.lastInput) < idleDelay {
		return m.idleWork()
	}
	ahead, collect := m.idleTask()
	switch {
	case ahead != nil:
		s.aheadFor, s.quitAhead = ahead, &atomic.Bool{}
		return aheadCmd(s.view, s.recorded, *ahead, m.timeline.cells(), s.quitAhead)
	case collect:
		s.dirty = false
		return collectCmd()
	}
	return nil
}

// idleTask is the work to do while the user reads a settled screen (no
// replay or book under way): the first of aheadPolicies not held, to
// replay ahead; else collect, when replays, books or evidence
// passes were made since the heap was last collected. The replays ahead come
// before the evidence pass (which waits judgeWait, about 0.35 s at call
// 50,000): a user pressing a knob every second never lets that pass
// finish. Before that pass the heap is collected too, unless it is
// under way: without it the garbage of their replays was collected half
// way through every other replay, doubling its wait.
func (m *Model) idleTask() (ahead *model.Policy, collect bool) {
	s := m.s
	if s == nil || m.stream != nil || s.replaying || s.aheadFor != nil || s.calls() < aheadMin || s.book == nil {
		return nil, false
	}
	if recentReplays > 0 && m.lastKnob != NoKnob {
		for _, p := range m.aheadPolicies() {
			if s.madeFor(p) == nil {
				return &p, false
			}
		}
	}
	if !s.judgedBook() {
		return nil, s.dirty && !s.judging[s.book]
	}
	return nil, s.dirty
}

// letGoAhead lets go of the replays made ahead that no knob key gives
// from the screen's policy (replan calls it once the policy moved).
func (m Model) letGoAhead() {
	switch {
	case m.s == nil:
	case m.lastKnob == NoKnob:
		m.s.ahead = nil
	default:
		want := m.aheadPolicies()
		m.s.ahead = slices.DeleteFunc(m.s.ahead, func(n madeReplay) bool { return !slices.Contains(want, n.policy) })
	}
}

// aheadPolicies are the policies replayed ahead from the screen's, most
// likely first: the last knob's again, then keepRecentTurns ±1,
// keepLastToolResults ±1 and pins on/off; each
// once, none on screen or recorded (the recorded replay is shown at
// once), at most aheadMax. (a s t T change the anchor, the strategy
// and its threshold: rarer, and a summary's replay is not split.)
func (m *Model) aheadPolicies() []model.Policy {
	s := m.s
	var out []model.Policy
	for _, kn := range []Knob{m.lastKnob, RecentMore, RecentLess, PinsMore, PinsLess, TogglePins} {
		p, _, ok := Step(s.policy, s.lastPins, s.agent, kn)
		if ok && p != s.policy && p != s.agent.Recorded && !slices.Contains(out, p) && len(out) < aheadMax {
			out = append(out, p)
		}
	}
	return out
}

// judgedBook: the evidence pass of the replay on screen is done.
func (s *session) judgedBook() bool {
	_, done := s.judgements[s.book]
	return done
}

// aheadBack holds a replay made ahead, and shows it when the user has
// asked for its policy meanwhile (replan waits for it then).
func (m Model) aheadBack(msg aheadMsg) (Model, tea.Cmd) {
	s := m.s
	if s == nil || s.view != msg.view || s.aheadFor == nil || *s.aheadFor != msg.policy {
		return m, nil // another recording or conversation is on screen
	}
	s.aheadFor, s.dirty = nil, true
	if msg.replay == nil {
		return m, nil // given up: the user went elsewhere
	}
	k := madeReplay{policy: msg.policy, replay: msg.replay, diff: msg.diff, cells: msg.cells}
	s.holdAhead(k)
	if s.replaying && s.policy == msg.policy {
		return m.show(k)
	}
	return m, nil
}

// show puts a replay under the session's policy on screen: a fresh one,
// or a held one (with its book, when made).
func (m Model) show(k madeReplay) (Model, tea.Cmd) {
	s := m.s
	s.remember(k) // now a policy the user set
	s.booked(k.replay, k.book)
	s.replay, s.replaying, s.book, s.diff = k.replay, false, k.book, k.diff
	var diff tea.Cmd
	if k.diff == nil && s.diffing != k.replay {
		s.diffing, diff = k.replay, diffCmd(s.recorded, k.replay) // the frame does not wait for it
	}
	if k.cells != nil {
		m.timeline.memo = *k.cells // made with the replay; cellsOf makes them afresh if the width changed
	}
	s.shownAt = time.Now()
	m.reread()
	cmd := m.responseFollows()
	if k.book == nil {
		cmd = tea.Batch(cmd, bookCmd(s.rec, k.replay))
	}
	return m, afterFrame(tea.Batch(cmd, diff))
}

// frameGap is a little more than the time between two frames (tui.Run
// asks for 120 a second).
const frameGap = 10 * time.Millisecond

// afterFrame runs cmd once the frame of this update has been written:
// work that starts with the frame (the replay's book, its fates) took
// both cores from the renderer, and the frame of a knob key at call
// 50,000 waited for it.
func afterFrame(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return tea.Tick(frameGap, func(time.Time) tea.Msg { return tea.BatchMsg{cmd} })
}

// giveUp gives up the replay under way for the screen, and the one ahead
// unless it is of the policy now asked for (the screen waits for it).
func (s *session) giveUp() {
	if s.quitReplay != nil {
		s.quitReplay.Store(true)
		s.quitReplay = nil
	}
	if s.aheadFor != nil && *s.aheadFor != s.policy && s.quitAhead != nil {
		s.quitAhead.Store(true)
	}
}

// giveUpAll gives up every replay under way for this session (another
// took its place on screen).
func (s *session) giveUpAll() {
	for _, q := range []*atomic.Bool{s.quitReplay, s.quitAhead} {
		if q != nil {
			q.Store(true)
		}
	}
}
