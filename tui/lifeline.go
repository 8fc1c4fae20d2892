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

// livesOf reads (once per replay) the life of every turn.
func (s *session) livesOf() *lives {
	if s.lives != nil && s.lives.replay == s.replay {
		return s.lives
	}
	l := &lives{replay: s.replay, byKey: map[string]life{}}
	if n := s.calls(); n > 0 {
		l.rows = s.replay.Ledger(n - 1)
	}
	for _, r := range l.rows {
		folded := r.LeftAt >= 0 && r.LeftAt < len(s.replay.Calls) && s.replay.Calls[r.LeftAt].Visit.Frame != nil
		l.byKey[r.Key] = life{first: r.First, left: r.LeftAt, notice: r.WroteAt >= 0, folded: folded, placeholder: r.Placeholder}
	}
	s.lives = l
	return l
}

// lifeline says on which calls a turn was sent and where it left, with
// call numbers from 1: "sent on calls 2–7 · evicted at 8 by
// keepRecentTurns=2".
func lifeline(lf life, calls int, p model.Policy) string {
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
	case last == first:
		s = fmt.Sprintf("sent on call %d", first)
	default:
		s = fmt.Sprintf("sent on calls %d–%d", first, last)
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
