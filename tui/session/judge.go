package session

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

// Flagged reports whether call i of the replay on screen has a value
// inspect flags in its answer, or (args) in its tool calls' arguments
// too; false while that is being worked out.
func (s *Session) Flagged(i int, args bool) bool {
	j := s.Judgements[s.Book]
	if i < 0 || i >= len(j.Flags) {
		return false
	}
	return j.Flags[i] || args && j.args[i]
}

// JudgedMsg is sent by judgeCmd with what judging every call of a replay
// found; book names the replay's book. gaveUp: the replay left the
// screen first, and the job stopped (judgement is empty).
type JudgedMsg struct {
	Book *provenance.Book
	Judgement
	GaveUp bool
	// walker is the book that judged, to judge what a followed file
	// appends after (grownFrom)
	Walker *provenance.Book
}

// JudgeJob starts judging every call of the replay on screen, once per
// replay; nil when that is done or under way, or a knob was pressed.
func (s *Session) JudgeJob() tea.Cmd {
	if s == nil || s.Book == nil || s.Judging[s.Book] || s.Replaying {
		return nil // (while a replay is under way, its book comes next)
	}
	if wait := JudgeWait - time.Since(s.ShownAt); s.Calls() >= JudgeWaitCalls && wait > 0 {
		if s.JudgeTick {
			return nil
		}
		s.JudgeTick = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return JudgeSoonMsg{} })
	}
	if s.Judging == nil {
		s.Judging = map[*provenance.Book]bool{}
	}
	s.Judging[s.Book] = true
	if _, done := s.Judgements[s.Book]; done {
		return nil
	}
	stop := &atomic.Bool{}
	if s.judgeStops == nil {
		s.judgeStops = map[*provenance.Book]*atomic.Bool{}
	}
	s.judgeStops[s.Book] = stop
	return JudgeCmdUntil(s.Book, s.Rec, s.Replay, stop, s.Growing && s.Book == s.RecordedBook)
}

// A long run's judge pass (seconds of work at 50,000 calls) starts only
// once the user's replay has been on screen judgeWait: a user pressing a
// knob again and again would otherwise start one each time, each
// competing with the next replay until the key stops it.
const (
	JudgeWait      = 700 * time.Millisecond
	JudgeWaitCalls = 5000
)

// JudgeSoonMsg is sent when a long run's judge pass may start.
type JudgeSoonMsg struct{}

// DropJudges stops the judge jobs of the replays no longer on screen, or
// about to leave it (a knob pressed: a replay under way), so that a pass
// over the whole run (seconds at call 50,000) does not compete with the
// next replay; such a replay is judged afresh if it comes back. It lets
// go of the judgements of books no longer on screen, recent or made ahead:
// each holds its replay (some 50 MB at call 50,000), and a user pressing
// knob after knob would otherwise keep every replay they ever saw.
func (s *Session) DropJudges() {
	if s == nil {
		return
	}
	for b, stop := range s.judgeStops {
		if b != s.Book || s.Replaying {
			stop.Store(true)
			delete(s.judgeStops, b)
			delete(s.Judging, b)
		}
	}
	maps.DeleteFunc(s.Judging, func(b *provenance.Book, _ bool) bool { return !s.bookHeld(b) })
	maps.DeleteFunc(s.Judgements, func(b *provenance.Book, _ Judgement) bool { return !s.bookHeld(b) })
}

// bookHeld says whether b is the book of a replay the session still
// holds: on screen, the recorded one, recent, or made ahead.
func (s *Session) bookHeld(b *provenance.Book) bool {
	if b == s.Book || b == s.RecordedBook {
		return true
	}
	has := func(k MadeReplay) bool { return k.Book == b }
	return slices.ContainsFunc(s.Recent, has) || slices.ContainsFunc(s.Ahead, has)
}

// JudgeCmdUntil judges every call with a book of its own (a Book is not
// shared between goroutines): a whole-recording pass, off the UI
// goroutine, which gives up as soon as stop says so.
// Following, it judges so that what the file appends is judged at its
// own cost after (provenance.WalkOn).
func JudgeCmdUntil(key *provenance.Book, rec *model.Recording, r *window.Replay, stop *atomic.Bool, following bool) tea.Cmd {
	return func() tea.Msg {
		walk := provenance.Walk // every call once, in order: the export's way, values told ahead
		if following {
			walk = provenance.WalkOn
		}
		b := walk(rec, r)
		defer b.Stop()
		j, done := JudgeUntil(b, len(r.Calls), stop)
		msg := JudgedMsg{Book: key, Judgement: j, GaveUp: !done}
		if following {
			msg.Walker = b
		}
		return msg
	}
}

// Judged files what judgeCmd found.
func (s *Session) Judged(msg JudgedMsg) {
	if s != nil && !msg.GaveUp {
		delete(s.judgeStops, msg.Book)
		s.File(msg.Book, msg.Judgement)
		if msg.Book == s.RecordedBook {
			s.Walker = msg.Walker
		}
	}
}

// File keeps the judgement of book.
func (s *Session) File(book *provenance.Book, j Judgement) {
	if s.Judgements == nil {
		s.Judgements = map[*provenance.Book]Judgement{}
	}
	s.Judgements[book] = j
}

// smallJudge is how many calls are judged at once on a key press when
// the background pass has not answered yet (a few milliseconds' work).
const smallJudge = 300
