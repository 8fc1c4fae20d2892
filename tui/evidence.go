package tui

import (
	"github.com/afinspect/inspect/provenance"
	tea "github.com/charmbracelet/bubbletea"
)

// The evidence of one call, judged off the UI goroutine when it is far.

// evidenceAt is call i's judged values; nil before the book is made, and
// while a far call of a long conversation is judged off the UI goroutine
// (evidenceJob): the first look at call 30,000 of a conversation indexes
// every message gone before it, a second of work.
func (s *session) evidenceAt(i int) *provenance.CallEvidence {
	if s == nil || s.book == nil || i < 0 || i >= s.calls() || s.lent == s.book {
		return nil
	}
	if i >= evidenceAtOnce && !s.book.Ready(i) {
		s.wanted = i + 1
		return nil
	}
	return s.book.Call(i)
}

// evidenceAtOnce is the first call whose values, when not at hand, are
// judged in the background: below it a call's messages gone are few
// enough to list and index within a frame.
const evidenceAtOnce = 2000

// evidenceBack is how many calls an evidence job judges on the way to
// the one asked for: a reader who went far tends to step back from there.
const evidenceBack = 64

// evidenceMsg says an evidence job has judged call of book.
type evidenceMsg struct {
	book *provenance.Book
	call int
}

// evidenceJob judges the call the screen waits for with the book on
// screen, lent to the job until it answers; nil when nothing waits or a
// job is under way.
func (s *session) evidenceJob() tea.Cmd {
	if s == nil || s.wanted == 0 || s.lent != nil || s.book == nil {
		return nil
	}
	b, i := s.book, s.wanted-1
	s.wanted = 0
	if i >= b.Calls() {
		return nil // a call of a replay no longer on screen
	}
	s.lent = b
	return func() tea.Msg {
		b.JudgeTo(i, evidenceBack) // the calls just before are at hand for ←
		return evidenceMsg{book: b, call: i}
	}
}

// evidenced takes back the book an evidence job was lent.
func (s *session) evidenced(msg evidenceMsg) {
	if s != nil && s.lent == msg.book {
		s.lent = nil
	}
}

// judgedCounts is call i's flagged values, the answer's and the
// arguments' apart, as the background judge (judgeCmd) found them; zero
// until it answers. What is drawn every frame reads this, never the book
// itself.
func (s *session) judgedCounts(i int) provenance.CallTally {
	if s == nil || s.book == nil {
		return provenance.CallTally{}
	}
	c := s.judgements[s.book].counts
	if i < 0 || i >= len(c) {
		return provenance.CallTally{}
	}
	return c[i]
}
