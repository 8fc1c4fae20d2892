package tui

import (
	"maps"
	"slices"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// Judging every call: which calls have a value inspect flags — in the
// answer, or in the arguments —, or one whose source was out of view (x/X, the timeline's marks), worked out
// over the whole replay off the UI goroutine, once per replay on screen.

// flagged reports whether call i of the replay on screen has a value
// inspect flags in its answer, or (args) in its tool calls' arguments
// too; false while that is being worked out.
func (s *session) flagged(i int, args bool) bool {
	j := s.judgements[s.book]
	if i < 0 || i >= len(j.flags) {
		return false
	}
	return j.flags[i] || args && j.args[i]
}

// judgedMsg is sent by judgeCmd with what judging every call of a replay
// found; book names the replay's book. gaveUp: the replay left the
// screen first, and the job stopped (judgement is empty).
type judgedMsg struct {
	book *provenance.Book
	judgement
	gaveUp bool
	// walker is the book that judged, to judge what a followed file
	// appends after (grownFrom)
	walker *provenance.Book
}

// judgeJob starts judging every call of the replay on screen, once per
// replay; nil when that is done or under way, or a knob was pressed.
func (s *session) judgeJob() tea.Cmd {
	if s == nil || s.book == nil || s.judging[s.book] || s.replaying {
		return nil // (while a replay is under way, its book comes next)
	}
	if wait := judgeWait - time.Since(s.shownAt); s.calls() >= judgeWaitCalls && wait > 0 {
		if s.judgeTick {
			return nil
		}
		s.judgeTick = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return judgeSoonMsg{} })
	}
	if s.judging == nil {
		s.judging = map[*provenance.Book]bool{}
	}
	s.judging[s.book] = true
	if _, done := s.judgements[s.book]; done {
		return nil
	}
	stop := &atomic.Bool{}
	if s.judgeStops == nil {
		s.judgeStops = map[*provenance.Book]*atomic.Bool{}
	}
	s.judgeStops[s.book] = stop
	return judgeCmdUntil(s.book, s.rec, s.replay, stop, s.growing && s.book == s.recordedBook)
}

// A long run's judge pass (seconds of work at 50,000 calls) starts only
// once the user's replay has been on screen judgeWait: a user pressing a
// knob again and again would otherwise start one each time, each
// competing with the next replay until the key stops it.
const (
	judgeWait      = 700 * time.Millisecond
	judgeWaitCalls = 5000
)

// judgeSoonMsg is sent when a long run's judge pass may start.
type judgeSoonMsg struct{}

// dropJudges stops the judge jobs of the replays no longer on screen, or
// about to leave it (a knob pressed: a replay under way), so that a pass
// over the whole run (seconds at call 50,000) does not compete with the
// next replay; such a replay is judged afresh if it comes back. It lets
// go of the judgements of books no longer on screen, recent or made ahead:
// each holds its replay (some 50 MB at call 50,000), and a user pressing
// knob after knob would otherwise keep every replay they ever saw.
func (s *session) dropJudges() {
	if s == nil {
		return
	}
	for b, stop := range s.judgeStops {
		if b != s.book || s.replaying {
			stop.Store(true)
			delete(s.judgeStops, b)
			delete(s.judging, b)
		}
	}
	maps.DeleteFunc(s.judging, func(b *provenance.Book, _ bool) bool { return !s.bookHeld(b) })
	maps.DeleteFunc(s.judgements, func(b *provenance.Book, _ judgement) bool { return !s.bookHeld(b) })
}

// bookHeld says whether b is the book of a replay the session still
// holds: on screen, the recorded one, recent, or made ahead.
func (s *session) bookHeld(b *provenance.Book) bool {
	if b == s.book || b == s.recordedBook {
		return true
	}
	has := func(k madeReplay) bool { return k.book == b }
	return slices.ContainsFunc(s.recent, has) || slices.ContainsFunc(s.ahead, has)
}

// judgeCmdUntil judges every call with a book of its own (a Book is not
// shared between goroutines): a whole-recording pass, off the UI
// goroutine, which gives up as soon as stop says so.
// Following, it judges so that what the file appends is judged at its
// own cost after (provenance.WalkOn).
func judgeCmdUntil(key *provenance.Book, rec *model.Recording, r *window.Replay, stop *atomic.Bool, following bool) tea.Cmd {
	return func() tea.Msg {
		walk := provenance.Walk // every call once, in order: the export's way, values told ahead
		if following {
			walk = provenance.WalkOn
		}
		b := walk(rec, r)
		defer b.Stop()
		j, done := judgeUntil(b, len(r.Calls), stop)
		msg := judgedMsg{book: key, judgement: j, gaveUp: !done}
		if following {
			msg.walker = b
		}
		return msg
	}
}

// judged files what judgeCmd found.
func (s *session) judged(msg judgedMsg) {
	if s != nil && !msg.gaveUp {
		delete(s.judgeStops, msg.book)
		s.file(msg.book, msg.judgement)
		if msg.book == s.recordedBook {
			s.walker = msg.walker
		}
	}
}

// file keeps the judgement of book.
func (s *session) file(book *provenance.Book, j judgement) {
	if s.judgements == nil {
		s.judgements = map[*provenance.Book]judgement{}
	}
	s.judgements[book] = j
}

// smallJudge is how many calls are judged at once on a key press when
// the background pass has not answered yet (a few milliseconds' work).
const smallJudge = 300
