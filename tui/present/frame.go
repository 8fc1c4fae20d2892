package present

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// frameLabel heads a compaction frame (docs/rules/summarize-oldest.md §11.4): a message
// holding a summary a second model wrote, which is a claim about the
// conversation, not the conversation. A placeholder frame says at once
// that it was never sent.
func frameLabel(m *model.Message) string {
	if m.Placeholder {
		return "user · PLACEHOLDER frame · not recorded, never sent"
	}
	return "user · summary frame, written by a model"
}

// renderFrame shows a frame's label as the library wrote it, then the
// summary apart from it, saying whose claim it is; a placeholder's text
// is said to be unknown.
func renderFrame(st *theme.Styles, m *model.Message, w int) string {
	f, ok := window.ParseFrame(m.Content)
	if !ok {
		return renderBody(st, m.Content, w)
	}
	label, _, _ := strings.Cut(m.Content, "\n\n")
	var b strings.Builder
	b.WriteString(st.Label.Render(Fit(fmt.Sprintf("the library's label · %d messages folded at iteration %d", f.Count, f.Iteration), w)))
	b.WriteByte('\n')
	b.WriteString(strings.Join(WrapLines(termtext.Line(label), st.Dim, w), "\n"))
	b.WriteByte('\n')
	if m.Placeholder {
		b.WriteString(st.Evicted.Render(Fit("┄┄ no summary: the library never folded this span ┄┄", w)))
	} else {
		b.WriteString(st.Summary.Render(Fit(fmt.Sprintf("┄┄ summary by %s · %s chars (a model's claim) ┄┄",
			termtext.Line(f.Model), Thousands(model.Len(f.Summary))), w)))
	}
	b.WriteByte('\n')
	b.WriteString(renderBody(st, f.Summary, w))
	return b.String()
}

// foldedReason: why a turn was folded into a summary at this call.
func foldedReason(row window.Row, c *window.CallReplay, p model.Policy) string {
	v := &c.Visit
	var b strings.Builder
	b.WriteString("folded here: ")
	if in, ok := prevInput(c); ok {
		fmt.Fprintf(&b, "the previous call used %s input tokens, above thresholdTokens=%d; ", Thousands(in), p.ThresholdTokens)
	}
	fmt.Fprintf(&b, "older than the %s, %s; ", recentTurns(p.KeepRecentTurns), whyNotPinned(row, v, p))
	switch f := v.Frame; {
	case f != nil && f.Placeholder:
		fmt.Fprintf(&b, "the %d messages were folded into a PLACEHOLDER frame: the library never folded this span, so its summary is not recorded", len(v.Evicted))
	case f != nil:
		fmt.Fprintf(&b, "the %d messages were folded into one summary frame, written by %s", len(v.Evicted), frameModel(f))
	}
	return b.String()
}

// summaryReason: what a compaction frame is, at this call.
func summaryReason(row window.Row, c *window.CallReplay) string {
	head := row.Messages[0]
	var s string
	switch {
	case row.WroteAt == c.Index && row.Placeholder:
		s = fmt.Sprintf("summary (placeholder): made by the replay at this call in place of the %d folded messages — the library never folded here, so this text is not recorded and was never sent", len(c.Visit.Evicted))
	case row.WroteAt == c.Index:
		s = fmt.Sprintf("summary: written at this call in place of the %d folded messages, by %s — a model's claim about them, not the messages", len(c.Visit.Evicted), frameModel(head))
	case row.WroteAt >= 0:
		s = fmt.Sprintf("summary: the frame written at call %d, by %s; it stays like any turn, and folds again with newer turns", row.WroteAt+1, frameModel(head))
	default:
		s = "summary: a frame " + frameModel(head) + " wrote earlier in this conversation"
	}
	if row.Placeholder && row.WroteAt != c.Index {
		s += "; a PLACEHOLDER: not recorded — the library never sent this"
	}
	if row.Reason == model.ReasonOnlyExistingSummary {
		s += "; only-existing-summary: it was the whole span, and summarizing a lone summary would only lose detail"
	} else if row.Reason != "" {
		s += "; " + row.Reason
	}
	return s
}

// frameModel names the summarizer a frame's label names.
func frameModel(m *model.Message) string {
	if f, ok := window.ParseFrame(m.Content); ok {
		return termtext.Line(f.Model)
	}
	return "a model"
}

// UnknownWindow says why a composition's own call shows no window.
const UnknownWindow = "this call's window is not in the log: a composition's own call (a Parallel's merge) has no context.injected and no history; " +
	"its one message, the merge prompt and its branches' answers, is not in the log, so there is no window to show, replay or compare"
