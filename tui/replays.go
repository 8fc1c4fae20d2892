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

// judgedBook: the evidence pass of the replay on screen is done.
func (s *session) judgedBook() bool {
	_, done := s.judgements[s.book]
	return done
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
