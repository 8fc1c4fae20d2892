package session

import (
	"github.com/afinspect/inspect/provenance"
	tea "github.com/charmbracelet/bubbletea"
)

// The evidence of one call, judged off the UI goroutine when it is far.

// EvidenceAt is call i's judged values; nil before the book is made, and
// while a far call of a long conversation is judged off the UI goroutine
// (evidenceJob): the first look at call 30,000 of a conversation indexes
// every message gone before it, a second of work.
func (s *Session) EvidenceAt(i int) *provenance.CallEvidence {
	if s == nil || s.Book == nil || i < 0 || i >= s.Calls() || s.Lent == s.Book {
		return nil
	}
	if i >= EvidenceAtOnce && !s.Book.Ready(i) {
		s.Wanted, s.Waits = i, true
		return nil
	}
	return s.Book.Call(i)
}

// EvidenceAtOnce is the first call whose values, when not at hand, are
// judged in the background: below it a call's messages gone are few
// enough to list and index within a frame.
const EvidenceAtOnce = 2000

// evidenceBack is how many calls an evidence job judges on the way to
// the one asked for: a reader who went far tends to step back from there.
const evidenceBack = 64

// EvidenceMsg says an evidence job has judged call of book.
type EvidenceMsg struct {
	Book *provenance.Book
	Call int
}

// EvidenceJob judges the call the screen waits for with the book on
// screen, lent to the job until it answers; nil when nothing waits or a
// job is under way.
func (s *Session) EvidenceJob() tea.Cmd {
	if s == nil || !s.Waits || s.Lent != nil || s.Book == nil {
		return nil
	}
	b, i := s.Book, s.Wanted
	s.Waits = false
	if i >= b.Calls() {
		return nil // a call of a replay no longer on screen
	}
	s.Lent = b
	return func() tea.Msg {
		b.JudgeTo(i, evidenceBack) // the calls just before are at hand for ←
		return EvidenceMsg{Book: b, Call: i}
	}
}

// Evidenced takes back the book an evidence job was lent.
func (s *Session) Evidenced(msg EvidenceMsg) {
	if s != nil && s.Lent == msg.Book {
		s.Lent = nil
	}
}

// JudgedCounts is call i's flagged values, the answer's and the
// arguments' apart, as the background judge (judgeCmd) found them; zero
// until it answers. What is drawn every frame reads this, never the book
// itself.
func (s *Session) JudgedCounts(i int) provenance.CallTally {
	if s == nil || s.Book == nil {
		return provenance.CallTally{}
	}
	c := s.Judgements[s.Book].Counts
	if i < 0 || i >= len(c) {
		return provenance.CallTally{}
	}
	return c[i]
}
