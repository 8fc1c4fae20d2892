package present

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/theme"
)

// What the screen says of a flagged value (docs/rules/evidence.md §9):
// inspect's own verdict (provenance.Entry.Own: a JSON number's read
// value's, §9.5), counted apart for the answer — what reaches the caller,
// and what the library checks — and for the tool calls' arguments — the
// model asking (§9.1) —, and each verdict's sentence.

// TallyWords is "4 left · 1 never read", the counts there are, each in
// its verdict's style when st is not nil; "" for none.
func TallyWords(t provenance.Tally, st *theme.Styles) string {
	var out []string
	for _, p := range t.Counts() {
		w := fmt.Sprintf("%d %s", p.N, countWord(p.Verdict))
		if st != nil {
			w = st.Verdict(p.Verdict).Render(w)
		}
		out = append(out, w)
	}
	sep := " · "
	if st != nil {
		sep = st.Label.Render(sep)
	}
	return strings.Join(out, sep)
}

// countWord is a flagged verdict in a count: "4 left", "1 inside a
// token", "2 never read", "1 only in a summary".
func countWord(verdict string) string {
	switch verdict {
	case evidence.Left:
		return "left"
	case evidence.InViewText:
		return "inside a token"
	case evidence.NeverRead:
		return "never read"
	}
	return "only in a summary"
}

// SideWords is c as "answers: 4 left · 1 never read" and "args: 2 never read",
// the sides that have any; styled when st is not nil.
func SideWords(c provenance.CallTally, st *theme.Styles) []string {
	label := func(s string) string { return s }
	if st != nil {
		label = func(s string) string { return st.Label.Render(s) }
	}
	var out []string
	if c.Answer.Total() > 0 {
		out = append(out, label("answers: ")+TallyWords(c.Answer, st))
	}
	if c.Args.Total() > 0 {
		out = append(out, label("args: ")+TallyWords(c.Args, st))
	}
	return out
}

// VerdictSentence is what a value's own verdict says in words, for the
// verdicts whose word alone does not (left has its sources); "" for the
// others. minimal: the log is at tier minimal, where the system prompt
// the model was sent is not in the log (§9.6.1).
func VerdictSentence(e provenance.Entry, minimal bool) string {
	inText, near := e.InText, e.Near
	if e.Read != nil {
		inText, near = e.Read.InText, e.Read.Near
	}
	switch e.Own() {
	case evidence.InViewText:
		return inTextSentence(inText)
	case evidence.NeverRead:
		if l := e.LeftInside; l != nil {
			inside := "inside a longer token"
			if l.Token != nil {
				inside = "inside " + termtext.Line(*l.Token)
			}
			return fmt.Sprintf("left: read %s of %s, sent on calls %d–%d, evicted at %d (%s); the library's check does not split tokens",
				inside, termtext.Line(SourceWho(l.Source)), l.Source.SentOn[0], l.Source.SentOn[1], l.Source.EvictedAt, termtext.Line(l.Source.Rule))
		}
		s := "in no message this conversation sent: typed, not read"
		switch {
		case e.EarlierPass != nil: // a Loop's earlier pass held it: this pass was never sent it
			s = termtext.Line(e.EarlierPass.Words())
		case minimal:
			s = "in no message of the log this conversation sent: typed, not read — unless the system prompt held it (tier minimal: the log does not keep it)"
		}
		if l := e.LookedFor; l != nil {
			s += " — " + termtext.Line(l.Words())
		}
		if n := e.Nearest; n != nil {
			view := "out of view"
			if n.InView {
				view = "in view"
			}
			s += fmt.Sprintf(" — nearest: %s (%s, %s)", termtext.Line(n.Value), termtext.Line(toolName(n.ToolName, n.ToolCallID)), view)
		}
		return s
	case evidence.SummaryUnsupported:
		s := "only in the summary; no tool result held it"
		if near != nil && near.Found() {
			s += fmt.Sprintf(" — nearest: %s (%s)", termtext.Line(near.Value), termtext.Line(toolName(near.ToolName, near.ToolCallID)))
		}
		return s
	case evidence.Unknown:
		return "not judged: the log does not hold this call's window (a composition's own call), so nothing says whether it was in view"
	}
	return ""
}

// FlagSentence says why a judged value is not flagged (the rule of
// §10.2 that took it out), or that it is the model's own words too;
// "" for a flagged value with nothing more to say.
func FlagSentence(e provenance.Entry) string {
	var s string
	switch e.Rule {
	case "", provenance.RuleFlagged, provenance.RuleSummary, provenance.RuleLibraryFloor:
	case provenance.RuleInViewInsideToken:
		s = "not flagged (in-view-inside-token): its characters are in view inside a longer token"
	case provenance.RuleOtherReading:
		s = "not flagged (other-reading): in view as the number it spells"
	case provenance.RuleTimeInArgument:
		s = "not flagged (time-in-argument): a time the model composed for its query; a wrong bound reaches no caller"
	case provenance.RuleOwnCallAnswered:
		s = "not flagged (own-call-answered): the model asked about it in a tool call whose result is in view"
	case provenance.RuleRefuted:
		s = "not flagged (refuted): named only to be refuted, beside the value it corrects to"
		if e.LibraryListed {
			s += "; the library's check flags it"
		}
	case provenance.RuleLabelSeries:
		s = "not flagged (label-series): a label the model composes for this argument call after call, its numbers walking a range"
	case provenance.RuleArithmetic:
		s = "not flagged (arithmetic): two numbers in view add or subtract to it exactly"
	default:
		s = "not flagged (" + e.Rule + ")"
	}
	if e.AlsoInOwnWords {
		if s != "" {
			s += "; "
		}
		s += "also in the model's own earlier words, which are no evidence"
	}
	return s
}

// inTextSentence says where the characters of an in-view-text value were
// in view: "in view, inside 2025-03-18t14:31:07z of restart_service
// call_0011; the library's check does not split tokens" (the first text
// that holds it, and how many more do).
func inTextSentence(ts []provenance.InText) string {
	if len(ts) == 0 {
		return "in view inside a longer token; the library's check does not split tokens"
	}
	t := ts[0]
	where := "the user's or the system's text"
	if t.ToolName != nil {
		where = toolName(t.ToolName, t.ToolCallID)
	}
	s := "in view, in " + termtext.Line(where)
	if t.Token != nil {
		s = "in view, inside " + termtext.Line(*t.Token) + " of " + termtext.Line(where)
	}
	if len(ts) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(ts)-1)
	}
	return s + "; the library's check does not split tokens"
}

// SourceWho names a source as the screen does: toolName's words, or the
// library's message in the person's role (a summary frame, a drop notice)
// for what toolName would call the user's text.
func SourceWho(src provenance.Source) string {
	if w := src.Who(); src.ToolName == nil && w != "user text" {
		return w
	}
	return toolName(src.ToolName, src.ToolCallID)
}

// toolName is "list_hosts call_0001", or the name alone.
func toolName(name, id *string) string {
	switch {
	case name == nil:
		return "the user's text"
	case id == nil || *id == "":
		return *name
	}
	return *name + " " + *id
}

// OutcomeSentence says what became of an answer (§9.4): "" for a call
// that is no answer.
func OutcomeSentence(outcome string) string {
	switch outcome {
	case provenance.Delivered:
		return "delivered: run() returned it to the caller"
	case provenance.RevisionAsked:
		return "revision asked: the library's answer check sent it back with its correction, and the run went on"
	case provenance.Refused:
		return "refused: run() threw UnsupportedValuesError; the caller got nothing"
	case provenance.Undelivered:
		return "undelivered: the run did not end after it (it threw or was cut off)"
	case provenance.Superseded:
		return "superseded: the run went on past it"
	}
	return ""
}

// CompositionOutcome says what a composition's own call answered for:
// the composition's result (a Parallel's merge of its branches'
// answers), which is no agent run's answer and has no outcome of §9.4.
const CompositionOutcome = "none: this is the composition's own call (a merge of its branches' answers); what it answered is the composition's result, not an agent run's answer, and the log does not say what became of it"

// OutcomeWord is an answer's outcome on its response row.
func OutcomeWord(outcome string) string {
	switch outcome {
	case provenance.RevisionAsked:
		return "revision asked"
	}
	return outcome
}
