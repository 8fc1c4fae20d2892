package tui

import (
	"fmt"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// life is where one turn was in view over the whole replay: the calls
// it was sent on and the call it left at. It is read from the replay's
// ledger at its last call, which knows every turn's whole story.
type life struct {
	first, left int // call indexes; left is -1 when it never left
	notice      bool
	folded      bool // it left folded into a summary frame
	placeholder bool // a placeholder frame: in the replay's windows, never sent
}

// lives maps each turn's key to its life, for one replay.
type lives struct {
	replay *window.Replay
	byKey  map[string]life
	rows   []window.Row // every turn, at the last call
}

// livesOf is the life of every turn of the replay on screen: the one
// read with the replay in its tea.Cmd, or (for the recorded replay, back
// after a knob was reset) read again here.
func (s *session) livesOf() *lives {
	for _, l := range []*lives{s.lives, s.recordedLives} {
		if l != nil && l.replay == s.replay {
			return l
		}
	}
	s.lives = newLives(s.replay)
	return s.lives
}

// newLives reads the ledger at r's last call, which knows every turn's
// whole story. A huge run's takes tens of milliseconds: it is read in
// the tea.Cmd that made the replay, before the replay is shared.
func newLives(r *window.Replay) *lives {
	l := &lives{replay: r, byKey: map[string]life{}}
	if r == nil {
		return l
	}
	if n := len(r.Calls); n > 0 {
		l.rows = r.Ledger(n - 1)
	}
	for _, row := range l.rows {
		folded := row.LeftAt >= 0 && row.LeftAt < len(r.Calls) && r.Calls[row.LeftAt].Visit.Frame != nil
		l.byKey[row.Key] = life{first: row.First, left: row.LeftAt, notice: row.WroteAt >= 0, folded: folded, placeholder: row.Placeholder}
	}
	return l
}

// lifeline says on which calls a turn was sent and where it left, with
// call numbers from 1: "sent on calls 2–7 · evicted at 8 by
// keepRecentTurns=2". Only the library's windows were sent: where the
// replay's window of one of those calls differs from the one the library
// recorded, it says the turn was replayed there, not sent.
func lifeline(lf life, r *window.Replay, p model.Policy) string {
	calls := 0
	if r != nil {
		calls = len(r.Calls)
	}
	first := lf.first + 1
	last := calls
	if lf.left >= 0 {
		last = lf.left
	}
	var s string
	switch {
	case lf.placeholder && last == first:
		s = fmt.Sprintf("in the replay's window on call %d, never sent (not recorded)", first)
	case lf.placeholder:
		s = fmt.Sprintf("in the replay's windows on calls %d–%d, never sent (not recorded)", first, last)
	case last < first:
		s = "never sent"
	default:
		s = sentOn(r, first, last)
	}
	if lf.notice {
		s = fmt.Sprintf("written at call %d · ", first) + s
	}
	if lf.left < 0 {
		return s + " · still in the window at the last call"
	}
	by := fmt.Sprintf("keepRecentTurns=%d", p.KeepRecentTurns)
	if p.Strategy == model.TokenBudget || p.Strategy == model.SummarizeOldest {
		by = fmt.Sprintf("thresholdTokens=%d", p.ThresholdTokens)
	}
	how := "evicted"
	if lf.folded {
		how = "folded into a summary"
	}
	return s + fmt.Sprintf(" · %s at %d by %s", how, lf.left+1, by)
}

// sentOn says a turn was sent on calls first–last of r (numbered from 1):
// "sent on calls 2–7"; or, where the replay's window of any of them
// differs from the one the library recorded, that it was in the replay's
// windows there, which the library did not send as such.
func sentOn(r *window.Replay, first, last int) string {
	differ := 0
	for i := max(0, first-1); r != nil && i < min(last, len(r.Calls)); i++ {
		if r.Calls[i].Recorded() == window.Differs {
			differ++
		}
	}
	switch {
	case first == last && differ > 0:
		return fmt.Sprintf("in the replay's window on call %d, which differs from the library's", first)
	case differ == 1:
		return fmt.Sprintf("in the replay's windows on calls %d–%d (one of them differs from the library's)", first, last)
	case differ > 0:
		return fmt.Sprintf("in the replay's windows on calls %d–%d (%d of them differ from the library's)", first, last, differ)
	case first == last:
		return fmt.Sprintf("sent on call %d", first)
	}
	return fmt.Sprintf("sent on calls %d–%d", first, last)
}

// onScreen is the number the screen gives the file's call number n: its
// place in the conversation on screen, from 1 (in a file of several
// conversations they differ). A call not on screen keeps n.
func onScreen(r *window.Replay, n int) int {
	for i := range r.Calls {
		if r.Calls[i].Call.Number == n {
			return i + 1
		}
	}
	return n
}
