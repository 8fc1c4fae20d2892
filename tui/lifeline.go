package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// life is where one turn was in view over the whole replay: the calls
// it was sent on and the call it left at. It is read from the turn's
// row once its story is told (the ledger at the replay's last call).
type life struct {
	first, left int // call indexes; left is -1 when it never left
	notice      bool
	folded      bool // it left folded into a summary frame
	placeholder bool // a placeholder frame: in the replay's windows, never sent
	tip         int  // one past the last call of the chain it is told on (0: the replay's last)
	// rule is the rule that let its tool results go at the visit it left
	// by, as the values that used them name it; "" while it has not left,
	// or for a turn without a tool result
	rule string
}

// lives is the life of each turn of one replay, read from the replay's
// index of turns when asked (a turn's whole story is its row once it
// left: Replay.TurnAt), as the chain of one call tells it: where the
// conversation branches, never a sibling branch's calls (docs/rules/runs-and-conversations.md
// §10.8).
type lives struct {
	replay *window.Replay
	call   int
	agent  *study.Agent // for a guessed policy's other rules; nil: none
}

// livesOf is the lives of the replay on screen, told on the call on screen.
func livesOf(s *session.Session) *lives {
	l := newLives(s.Replay, s.Call)
	l.agent = s.Agent
	return l
}

func newLives(r *window.Replay, call int) *lives { return &lives{replay: r, call: call} }

// of is the life of the turn with key k.
func (l *lives) of(k string) (life, bool) {
	if l == nil || l.replay == nil {
		return life{}, false
	}
	row, ok := l.replay.TurnAt(k, l.call)
	if !ok {
		return life{}, false
	}
	r := l.replay
	folded := row.LeftAt >= 0 && row.LeftAt < len(r.Calls) && r.Calls[row.LeftAt].Visit.Frame != nil
	lf := life{first: row.First, left: row.LeftAt, notice: row.WroteAt >= 0, folded: folded, placeholder: row.Placeholder,
		tip: r.LastOn(l.call) + 1}
	if row.LeftAt >= 0 && row.LeftAt < len(r.Calls) {
		lf.rule = leftRule(&r.Calls[row.LeftAt], r, row.Messages, l.agent)
	}
	return lf, true
}

// leftRule is the rule of c's visit that removed the tool results of
// msgs (a turn), in the words the value list uses for the same eviction
// (each once, joined by "and"; where the policy is a guess among equally
// good ones that say other rules, all of them); "" for a turn without
// one, which left by the recency the knob sets.
func leftRule(c *window.CallReplay, r *window.Replay, msgs []*model.Message, agent *study.Agent) string {
	p := r.PolicyOf(c)
	var tools []string
	for _, m := range msgs {
		rule := ""
		if m.Role == model.RoleTool {
			rule = c.Visit.EvictionRule(m, p)
		}
		if rule == "" {
			continue
		}
		if agent != nil {
			rule = advise.RuleWords(rule, advise.Rules(agent, &c.Visit, m, p))
		}
		if !slices.Contains(tools, rule) {
			tools = append(tools, rule)
		}
	}
	return strings.Join(tools, " and ")
}

// each calls fn with every turn of the call's chain, in conversation
// order (the ledger at its last call), until fn returns false.
func (l *lives) each(fn func(r *window.Row) bool) {
	if l == nil || l.replay == nil || len(l.replay.Calls) == 0 {
		return
	}
	l.replay.LedgerAt(l.replay.LastOn(l.call)).Each(fn)
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
	if lf.tip > 0 {
		last = lf.tip // a branch's last call
	}
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
	how := "evicted"
	if lf.folded {
		how = "folded into a summary"
	}
	if lf.rule == "" || lf.folded { // no tool result, or a fold: the knob that moved the window
		by := fmt.Sprintf("keepRecentTurns=%d", p.KeepRecentTurns)
		if p.NeedsThreshold() {
			by = fmt.Sprintf("thresholdTokens=%d", p.ThresholdTokens)
		}
		return s + fmt.Sprintf(" · %s at %d by %s", how, lf.left+1, by)
	}
	// the rule, in the words the value list and inspect evidence use
	return s + fmt.Sprintf(" · %s at %d (%s)", how, lf.left+1, lf.rule)
}

// sentOn says a turn was sent on calls first–last of r (numbered from 1):
// "sent on calls 2–7"; or, where the replay's window of any of them
// differs from the one the library recorded, or the log does not record
// it (a run's last call at tier minimal), that it was in the replay's
// windows there, which the log does not show the library sent.
func sentOn(r *window.Replay, first, last int) string {
	differ, unknown := 0, 0
	for i := max(0, first-1); r != nil && i < min(last, len(r.Calls)); i++ {
		switch r.Calls[i].Recorded() {
		case window.Differs:
			differ++
		case window.Unknown:
			unknown++
		}
	}
	if differ+unknown == 0 {
		if first == last {
			return fmt.Sprintf("sent on call %d", first)
		}
		return fmt.Sprintf("sent on calls %d–%d", first, last)
	}
	s := fmt.Sprintf("in the replay's windows on calls %d–%d", first, last)
	if first == last {
		s = fmt.Sprintf("in the replay's window on call %d", first)
	}
	var why []string
	if differ > 0 {
		why = append(why, countWords(differ, last-first+1, "differs from the library's", "differ from the library's"))
	}
	if unknown > 0 {
		why = append(why, countWords(unknown, last-first+1, "is not in the log", "are not in the log"))
	}
	if first == last {
		return s + ", which " + strings.Join(why, " and ")
	}
	return s + " (" + strings.Join(why, "; ") + ")"
}

// countWords is "one of them differs", "3 of them differ", or for a
// single call the verb alone.
func countWords(n, of int, one, many string) string {
	switch {
	case of == 1:
		return one
	case n == 1:
		return "one of them " + one
	}
	return fmt.Sprintf("%d of them %s", n, many)
}
