package present

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// TurnReason says in one sentence why a turn has its fate at call c, in the
// library's words. It reads the replay's answer; it decides nothing.
func TurnReason(row window.Row, c *window.CallReplay, p model.Policy) string {
	v := &c.Visit
	switch row.Fate {
	case window.FateAnchor:
		return "anchor: the current request; no window strategy may drop it"
	case window.FatePinned:
		return pinnedReason(row, v, p)
	case window.FateEvicted:
		return evictedReason(row, c, p)
	case window.FateFolded:
		return foldedReason(row, c, p)
	case window.FateSummary:
		return summaryReason(row, c)
	case window.FateGone:
		return fmt.Sprintf("gone: left at call %d", row.LeftAt+1)
	case window.FateNotice:
		if row.WroteAt == c.Index {
			return fmt.Sprintf("notice: written by the library at this call in place of the %d messages that left", len(v.Evicted))
		}
		return fmt.Sprintf("notice: the drop notice written at call %d; it is an ordinary turn now, and leaves when it is the oldest", row.WroteAt+1)
	case window.FateNew:
		s := fmt.Sprintf("new: appended since call %d (the answer and tool results of the previous call)", c.Index)
		if row.Reason == model.ReasonInsideKeepWindow {
			s += "; inside the " + recentTurns(p.KeepRecentTurns)
		}
		return s
	case window.FateRecent:
		if row.Reason == model.ReasonInsideKeepWindow {
			return fmt.Sprintf("recent: inside the %s (keepRecentTurns=%d; the library's record: inside-keep-window)", recentTurns(p.KeepRecentTurns), p.KeepRecentTurns)
		}
		return "recent: among the last turns; " + notEngaged(v, c, p)
	}
	return keptReason(row, v, c, p)
}

func pinnedReason(row window.Row, v *window.Visit, p model.Policy) string {
	slot := 0
	for i, pin := range v.Pins {
		if pin.TurnIndex == row.Turn {
			slot = i + 1
		}
	}
	s := fmt.Sprintf("pinned: latest %s result, %d of %d slots (last-tool-result)", row.PinTool, slot, p.KeepLastToolResults)
	if v.Yielded > 0 {
		s += fmt.Sprintf("; %d older pin(s) yielded", v.Yielded)
	}
	if row.Reason == "" {
		s += "; the removal stopped at an earlier kept turn, so the library's record does not name this one"
	}
	return s
}

func evictedReason(row window.Row, c *window.CallReplay, p model.Policy) string {
	v := &c.Visit
	var b strings.Builder
	b.WriteString("evicted here: ")
	if v.Turns()[row.Turn].Notice {
		b.WriteString("an earlier drop notice, dropped like any oldest turn; ")
	}
	if in, ok := prevInput(c); ok && p.Strategy == model.TokenBudget {
		fmt.Fprintf(&b, "the previous call used %s input tokens, above thresholdTokens=%d; ", Thousands(in), p.ThresholdTokens)
	}
	fmt.Fprintf(&b, "older than the %s, %s", recentTurns(p.KeepRecentTurns), whyNotPinned(row, v, p))
	if v.Notice != nil {
		fmt.Fprintf(&b, "; a drop notice took the place of the %d messages", len(v.Evicted))
	} else {
		b.WriteString("; dropped without a notice")
	}
	return b.String()
}

// whyNotPinned explains why a turn that left held no pin.
func whyNotPinned(row window.Row, v *window.Visit, p model.Policy) string {
	switch {
	case p.KeepLastToolResults <= 0:
		return "not pinned (pins are off)"
	case v.StandDown:
		return "not pinned (the pin stood down: the last two visits removed nothing and named last-tool-result)"
	}
	for _, c := range v.Candidates() {
		if c.TurnIndex == row.Turn {
			return fmt.Sprintf("not pinned (its %s pin yielded to newer ones; %d slots)", c.ToolName, p.KeepLastToolResults)
		}
	}
	for _, name := range ToolNames(row.Messages) {
		for _, c := range v.Candidates() {
			if c.ToolName == name && c.TurnIndex != row.Turn {
				return fmt.Sprintf("not pinned (a newer %s result holds that pin)", name)
			}
		}
	}
	return "not pinned"
}

func keptReason(row window.Row, v *window.Visit, c *window.CallReplay, p model.Policy) string {
	switch row.Reason {
	case model.ReasonSystemEnvelope:
		return "kept: system-envelope; the turn holds a system message"
	case model.ReasonPausedTool:
		return "kept: paused-tool; the run is paused on a tool call of this turn"
	case model.ReasonPendingCheckIn:
		return "kept: pending-check-in; a human check-in waits on this turn"
	case model.ReasonUnresolvedToolCall:
		return "kept: unresolved-tool-call; a tool call of this turn has no result in the window"
	case model.ReasonReplacementNotSmaller:
		if p.Strategy == model.SummarizeOldest {
			return "kept: replacement-not-smaller; a summary frame was not smaller than what it would replace (that span is latched: not summarized again)"
		}
		return "kept: replacement-not-smaller; the wire needs a notice in front, and no notice is smaller than what it would replace"
	case model.ReasonSummarizerFailed:
		return "kept: summarizer-failed; the summarizer call threw, so nothing was folded (it is asked again next time)"
	case model.ReasonCurrentRequest:
		return "kept: current-request"
	case "":
		if !v.Engaged {
			return "kept: " + notEngaged(v, c, p)
		}
		return "kept: it could leave, but a refused turn ended the drop span before it"
	}
	return "kept: " + row.Reason
}

// notEngaged says why the strategy did not act at this visit.
func notEngaged(v *window.Visit, c *window.CallReplay, p model.Policy) string {
	if v.Problem != "" {
		return "the strategy could not decide: " + v.Problem
	}
	if p.NeedsThreshold() {
		in, ok := prevInput(c)
		if !ok {
			return p.Strategy + " does not act on the first call of a run"
		}
		return fmt.Sprintf("the previous call used %s input tokens, not above thresholdTokens=%d, so %s did not engage", Thousands(in), p.ThresholdTokens, p.Strategy)
	}
	return fmt.Sprintf("the window had %d turns, not more than keepRecentTurns=%d, so %s did not engage", len(v.Turns()), p.KeepRecentTurns, p.Strategy)
}

// ToolNames are the tools a turn's messages called or answered for.
func ToolNames(msgs []*model.Message) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			add(tc.Name)
		}
		add(m.ToolName)
	}
	return names
}

// prevInput is the input tokens the provider reported for the call
// before c in its run; false on a run's first call.
func prevInput(c *window.CallReplay) (int, bool) {
	for i, x := range c.Run.Calls {
		if x == c.Call && i > 0 {
			return c.Run.Calls[i-1].Usage.Input, true
		}
	}
	return 0, false
}

// recentTurns is "1 recent turn" or "N recent turns".
func recentTurns(k int) string {
	if k == 1 {
		return "1 recent turn"
	}
	return fmt.Sprintf("%d recent turns", k)
}

// FailedCall reports whether c is the call a run failed on (§14.1): the
// run's last, with no llm_end, in a run that has an error.fatal.
func FailedCall(c *window.CallReplay) bool {
	calls := c.Run.Calls
	return c.Run.Failed && !c.Call.Ended && len(calls) > 0 && calls[len(calls)-1] == c.Call
}

// Produced is what the call produced, in a few words (provenance.Produced),
// or that it failed with no reply.
func Produced(c *window.CallReplay) string {
	if FailedCall(c) {
		return "no reply: the call failed"
	}
	return termtext.Line(provenance.Produced(c.Call))
}
