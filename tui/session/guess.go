package session

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// RuleWords is a source's rule, or the rules of every policy the log
// cannot tell apart from the one on screen, when they differ.
func (s *Session) RuleWords(src provenance.Source) string {
	i := OnScreen(s.Replay, src.EvictedAt) - 1
	if i < 0 || i >= s.Calls() || s.Replay.Calls[i].Call.Number != src.EvictedAt || src.Message() == nil {
		return src.Rule
	}
	c := &s.Replay.Calls[i]
	return advise.RuleWords(src.Rule, advise.Rules(s.Agent, &c.Visit, src.Message(), s.Replay.PolicyOf(c)))
}

// GuessNote says, after a turn's reason, when it rests on a knob the
// log cannot tell (model.Guess): a pin under keepLastToolResults 2 is no
// pin under 0, which sends the same windows; the rule a turn that left
// was let go by is each of the equally good policies'.
func GuessNote(row window.Row, c *window.CallReplay, s *Session) string {
	g := s.Agent.GuessFor(s.Policy)
	var notes []string
	switch row.Fate {
	case window.FatePinned:
		if len(g.L) > 1 {
			notes = append(notes, fmt.Sprintf("a guess: keepLastToolResults %s reproduce the same windows, pinned or not", model.Range(g.L)))
		}
	case window.FateEvicted, window.FateFolded:
		for _, m := range row.Messages {
			if rs := advise.Rules(s.Agent, &c.Visit, m, s.Policy); rs != nil {
				notes = append(notes, "under the equally good policies the log cannot tell apart: "+advise.RuleWords("", rs))
				break
			}
		}
		if len(g.K) > 1 {
			notes = append(notes, fmt.Sprintf("a guess: keepRecentTurns %s reproduce the same windows", model.Range(g.K)))
		}
	}
	if notes == nil {
		return ""
	}
	return " — " + strings.Join(notes, "; ")
}

// OnScreen is the number the screen gives the file's call number n: its
// place in the conversation on screen, from 1 (in a file of several
// conversations they differ). A call not on screen keeps n.
func OnScreen(r *window.Replay, n int) int {
	for i := range r.Calls {
		if r.Calls[i].Call.Number == n {
			return i + 1
		}
	}
	return n
}

// GuessRule is rule, the one c's visit let m go by under p, in the words
// of every policy the log cannot tell apart from p when they differ.
func (s *Session) GuessRule(rule string, c *window.CallReplay, m *model.Message, p model.Policy) string {
	return advise.RuleWords(rule, advise.Rules(s.Agent, &c.Visit, m, p))
}
