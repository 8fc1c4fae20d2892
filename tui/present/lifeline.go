package present

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Life is where one turn was in view over the whole replay: the calls
// it was sent on and the call it left at. It is read from the turn's
// row once its story is told (the ledger at the replay's last call).
type Life struct {
	First, Left int // call indexes; left is -1 when it never left
	notice      bool
	folded      bool // it left folded into a summary frame
	placeholder bool // a placeholder frame: in the replay's windows, never sent
	tip         int  // one past the last call of the chain it is told on (0: the replay's last)
	// rule is the rule that let its tool results go at the visit it left
	// by, as the values that used them name it; "" while it has not left,
	// or for a turn without a tool result
	rule string
}

// Lives is the life of each turn of one replay, read from the replay's
// index of turns when asked (a turn's whole story is its row once it
// left: Replay.TurnAt), as the chain of one call tells it: where the
// conversation branches, never a sibling branch's calls (docs/rules/runs-and-conversations.md
// §10.8).
type Lives struct {
	replay *window.Replay
	call   int
	// rules says a rule in the words of every policy the log cannot tell
	// apart from the one in force (Session.GuessRule); nil: the rule alone
	rules func(rule string, c *window.CallReplay, m *model.Message, p model.Policy) string
}

// NewLives is the lives of r told on call; rules, when not nil, says a
// rule in the words of the policies the log cannot tell apart.
func NewLives(r *window.Replay, call int, rules func(string, *window.CallReplay, *model.Message, model.Policy) string) *Lives {
	return &Lives{replay: r, call: call, rules: rules}
}

// Of is the life of the turn with key k.
func (l *Lives) Of(k string) (Life, bool) {
	if l == nil || l.replay == nil {
		return Life{}, false
	}
	row, ok := l.replay.TurnAt(k, l.call)
	if !ok {
		return Life{}, false
	}
	r := l.replay
	folded := row.LeftAt >= 0 && row.LeftAt < len(r.Calls) && r.Calls[row.LeftAt].Visit.Frame != nil
	lf := Life{First: row.First, Left: row.LeftAt, notice: row.WroteAt >= 0, folded: folded, placeholder: row.Placeholder,
		tip: r.LastOn(l.call) + 1}
	if row.LeftAt >= 0 && row.LeftAt < len(r.Calls) {
		lf.rule = leftRule(&r.Calls[row.LeftAt], r, row.Messages, l.rules)
	}
	return lf, true
}

// leftRule is the rule of c's visit that removed the tool results of
// msgs (a turn), in the words the value list uses for the same eviction
// (each once, joined by "and"; where the policy is a guess among equally
// good ones that say other rules, all of them); "" for a turn without
// one, which left by the recency the knob sets.
func leftRule(c *window.CallReplay, r *window.Replay, msgs []*model.Message, rules func(string, *window.CallReplay, *model.Message, model.Policy) string) string {
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
		if rules != nil {
			rule = rules(rule, c, m, p)
		}
		if !slices.Contains(tools, rule) {
			tools = append(tools, rule)
		}
	}
	return strings.Join(tools, " and ")
}

// Each calls fn with every turn of the call's chain, in conversation
// order (the ledger at its last call), until fn returns false.
func (l *Lives) Each(fn func(r *window.Row) bool) {
	if l == nil || l.replay == nil || len(l.replay.Calls) == 0 {
		return
	}
	l.replay.LedgerAt(l.replay.LastOn(l.call)).Each(fn)
}

// Lifeline says on which calls a turn was sent and where it left, with
// call numbers from 1: "sent on calls 2–7 · evicted at 8 by
// keepRecentTurns=2". Only the library's windows were sent: where the
// replay's window of one of those calls differs from the one the library
// recorded, it says the turn was replayed there, not sent.
func Lifeline(lf Life, r *window.Replay, p model.Policy) string {
	calls := 0
	if r != nil {
		calls = len(r.Calls)
	}
	first := lf.First + 1
	last := calls
	if lf.tip > 0 {
		last = lf.tip // a branch's last call
	}
	if lf.Left >= 0 {
		last = lf.Left
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
		s = SentOn(r, first, last)
	}
	if lf.notice {
		s = fmt.Sprintf("written at call %d · ", first) + s
	}
	if lf.Left < 0 {
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
		return s + fmt.Sprintf(" · %s at %d by %s", how, lf.Left+1, by)
	}
	// the rule, in the words the value list and inspect evidence use
	return s + fmt.Sprintf(" · %s at %d (%s)", how, lf.Left+1, lf.rule)
}

// SentOn says a turn was sent on calls first–last of r (numbered from 1):
// "sent on calls 2–7"; or, where the replay's window of any of them
// differs from the one the library recorded, or the log does not record
// it (a run's last call at tier minimal), that it was in the replay's
// windows there, which the log does not show the library sent.
func SentOn(r *window.Replay, first, last int) string {
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
		why = append(why, CountWords(differ, last-first+1, "differs from the library's", "differ from the library's"))
	}
	if unknown > 0 {
		why = append(why, CountWords(unknown, last-first+1, "is not in the log", "are not in the log"))
	}
	if first == last {
		return s + ", which " + strings.Join(why, " and ")
	}
	return s + " (" + strings.Join(why, "; ") + ")"
}

// CountWords is "one of them differs", "3 of them differ", or for a
// single call the verb alone.
func CountWords(n, of int, one, many string) string {
	switch {
	case of == 1:
		return one
	case n == 1:
		return "one of them " + one
	}
	return fmt.Sprintf("%d of them %s", n, many)
}
