package tui

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// The screen's sentences, lent to the shared page (inspect share) so
// that it says what the UI says of the same call.

// TurnReason is why a turn has its fate at call c under p, as the
// detail pane says it.
func TurnReason(row window.Row, c *window.CallReplay, p model.Policy) string {
	return reason(row, c, p)
}

// VerdictSentence is what a value's own verdict says in words ("" for
// left, whose sources say it); minimal: the log is at tier minimal.
func VerdictSentence(e provenance.Entry, minimal bool) string { return verdictSentence(e, minimal) }

// OutcomeSentence says what became of an answer ("" for a call that is
// no answer).
func OutcomeSentence(outcome string) string { return outcomeSentence(outcome) }
