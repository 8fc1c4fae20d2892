package session

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
//     again first, then the first of ] [ } { p not held (aheadPolicies),
//     at most AheadMax.
//
// A key whose policy is neither held nor being replayed ahead waits for
// its replay as before, and gives up the replay ahead under way. Every
// knob key gives up the book under way of the replay it leaves (one of
// 50,000 calls costs more CPU than their replay, and keys 0.2 s apart
// had it compete with the next key's replay); shown again, a replay
// held without its book asks for it afresh. After
// the work ahead, the heap is collected while the user reads, so that
// the next replay does not meet a collection of the whole recording
// half way.

// RecentReplays is how many replays under the user's policies are held;
// 0 holds none and replays nothing ahead (the benchmarks of a cold key);
// the heap is still collected while the user reads.
var RecentReplays = 2

// AheadMax is the most replays made ahead that are held: one of a
// 50k-call run holds about 70 MB with its fates and cells, and the
// collector lets the heap grow to twice what is live, so each replay held
// costs about twice its size in resident memory. With the two the user
// set (RecentReplays, the screen's among them) that is at most four
// replays beside the recording; with four ahead, 16 knob keys grew the
// process to 1.67 times its size after loading. A policy the user set,
// held already, takes no place among them (aheadPolicies).
const AheadMax = 2

// AheadMin is the fewest calls for which a replay is made ahead and the
// heap collected after: a shorter run replays within a frame anyway.
var AheadMin = 4096

// MadeReplay is a replay under a policy the user set (or one a knob key
// would give, made ahead), with what the screen reads of it.
type MadeReplay struct {
	Policy model.Policy
	Replay *window.Replay
	Diff   *FateDiff
	Cells  *TimelineCells   // the timeline's, made with the replay (nil: made when drawn)
	Book   *provenance.Book // nil until made (BookFor)
}

// MadeFor is the replay held under p (one the user set, or one made
// ahead), nil when none.
func (s *Session) MadeFor(p model.Policy) *MadeReplay {
	for i := range s.Recent {
		if s.Recent[i].Policy == p {
			return &s.Recent[i]
		}
	}
	for i := range s.Ahead {
		if s.Ahead[i].Policy == p {
			return &s.Ahead[i]
		}
	}
	return nil
}

// Remember holds the replay under p, a policy the user set, newest last;
// the oldest that is not on screen goes beyond recentReplays (its
// evidence judgement with it: dropJudges). A replay made ahead, once
// set, is held so.
func (s *Session) Remember(k MadeReplay) {
	p := k.Policy
	s.Ahead = slices.DeleteFunc(s.Ahead, func(n MadeReplay) bool { return n.Policy == p })
	if RecentReplays <= 0 || slices.ContainsFunc(s.Recent, func(k MadeReplay) bool { return k.Policy == p }) {
		return
	}
	s.Recent = append(s.Recent, k)
	for len(s.Recent) > RecentReplays {
		i := 0
		if s.Recent[0].Replay == s.Replay {
			i = 1
		}
		s.Recent = append(s.Recent[:i], s.Recent[i+1:]...)
	}
}

// SetBefore reports whether a replay under p is held as one the user set
// (Remember): no replay ahead is made for it.
func (s *Session) SetBefore(p model.Policy) bool {
	return slices.ContainsFunc(s.Recent, func(k MadeReplay) bool { return k.Policy == p })
}

// Booked notes the book made for r in its held replay.
func (s *Session) Booked(r *window.Replay, b *provenance.Book) {
	s.eachMade(r, func(k *MadeReplay) { k.Book = b })
}

// eachMade calls fn with every held replay of r: one the user set, or
// the one made ahead.
func (s *Session) eachMade(r *window.Replay, fn func(*MadeReplay)) {
	for i := range s.Recent {
		if s.Recent[i].Replay == r {
			fn(&s.Recent[i])
		}
	}
	for i := range s.Ahead {
		if s.Ahead[i].Replay == r {
			fn(&s.Ahead[i])
		}
	}
}

// HoldAhead holds a replay made ahead (a policy the user did not set),
// newest last; the oldest goes beyond aheadMax.
func (s *Session) HoldAhead(k MadeReplay) {
	if RecentReplays <= 0 {
		return
	}
	s.Ahead = append(slices.DeleteFunc(s.Ahead, func(n MadeReplay) bool { return n.Policy == k.Policy }), k)
	if len(s.Ahead) > AheadMax {
		s.Ahead = slices.Delete(s.Ahead, 0, len(s.Ahead)-AheadMax)
	}
}

// AheadMsg is sent by aheadCmd with a replay made ahead under policy.
type AheadMsg struct {
	View   *study.View
	Policy model.Policy
	Replay *window.Replay
	Diff   *FateDiff
	Cells  *TimelineCells
}

func AheadCmd(v *study.View, recorded *window.Replay, p model.Policy, cells int, quit *atomic.Bool) tea.Cmd {
	return func() tea.Msg {
		r := v.Replay(p, quit)
		if r == nil {
			return AheadMsg{View: v, Policy: p}
		}
		d, tc := ScreenParts(r, recorded, cells)
		return AheadMsg{View: v, Policy: p, Replay: r, Diff: d, Cells: tc}
	}
}

// CollectedMsg says the heap was collected (collectCmd).
type CollectedMsg struct{}

// CollectCmd collects the heap, then makes room for the calls and the
// turn log of the next replay of a long run (window.PrepareRoom: a knob
// key's replay of calls calls would otherwise clear it first).
func CollectCmd(calls int) tea.Cmd {
	return func() tea.Msg {
		runtime.GC()
		window.PrepareRoom(calls)
		return CollectedMsg{}
	}
}

// IdleDelay is how long the user must have pressed nothing before work
// for later starts: it would slow the frames of keys pressed in a row.
var IdleDelay = 300 * time.Millisecond

// IdleMsg is sent idleDelay after idleWork found work to do.
type IdleMsg struct{}

// JudgedBook: the evidence pass of the replay on screen is done.
func (s *Session) JudgedBook() bool {
	_, done := s.Judgements[s.Book]
	return done
}

// frameGap is a little more than the time between two frames (tui.Run
// asks for 120 a second).
const frameGap = 10 * time.Millisecond

// AfterFrame runs cmd once the frame of this update has been written:
// work that starts with the frame (the replay's book, its fates) took
// both cores from the renderer, and the frame of a knob key at call
// 50,000 waited for it.
func AfterFrame(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return tea.Tick(frameGap, func(time.Time) tea.Msg { return tea.BatchMsg{cmd} })
}

// GiveUp gives up the replay under way for the screen, the book under
// way for the replay leaving it (show asks again for one held without
// it), and the replay ahead unless it is of the policy now asked for
// (the screen waits for it).
func (s *Session) GiveUp() {
	for _, q := range []*atomic.Bool{s.QuitReplay, s.QuitBook} {
		if q != nil {
			q.Store(true)
		}
	}
	s.QuitReplay, s.QuitBook = nil, nil
	if s.AheadFor != nil && *s.AheadFor != s.Policy && s.QuitAhead != nil {
		s.QuitAhead.Store(true)
	}
}

// GiveUpAll gives up every replay under way for this session (another
// took its place on screen).
func (s *Session) GiveUpAll() {
	for _, q := range []*atomic.Bool{s.QuitReplay, s.QuitAhead, s.QuitBook} {
		if q != nil {
			q.Store(true)
		}
	}
}
