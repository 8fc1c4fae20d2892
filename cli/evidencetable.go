package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// The evidence report as a table (inspect evidence --format table).

// writeEvidenceTable prints one row per flagged value, then the library's
// own verdicts beside inspect's.
func writeEvidenceTable(w io.Writer, doc evidenceDoc) error {
	if len(doc.Values) == 0 {
		fmt.Fprintf(w, "no flagged values in the %s: every number and identifier was in view, typed by the user, or a library note\n", inWords(doc.In))
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "CALL\tRUN\tIN\tVALUE\tVERDICT\tSOURCE\tEVICTED AT\tWHAT WOULD HAVE KEPT IT")
		for _, v := range doc.Values {
			src, at := sourceCells(doc.replay, doc.places, v)
			keep := "-"
			switch {
			case v.Keep != nil:
				keep = v.Keep.Text
			case v.Own() == evidence.Left:
				keep = advise.NoneText()
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Call, v.Run, termtext.Line(where(v.Entry)),
				termtext.Line(v.Typed), v.Own(), termtext.Line(src), at, termtext.Line(keep))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\npolicy: %s\n", termtext.Line(doc.policy))
	for _, p := range doc.others {
		fmt.Fprintln(w, termtext.Line(p))
	}
	fmt.Fprintf(w, "%s%s\n", countLine("answers", doc.Counts.Answers), listed(doc.In, inAnswers))
	fmt.Fprintf(w, "%s%s\n", countLine("arguments", doc.Counts.Arguments), listed(doc.In, inArguments))
	if doc.places != nil {
		fmt.Fprintln(w, "call numbers are the file's (as report numbers them); the calls a source was sent on are its conversation's, the file's after them")
	}
	if n := len(doc.unjudged); n > 0 {
		fmt.Fprintf(w, "not judged: %s of %s (a composition's own model %s: the log does not hold %s; verdict unknown)\n",
			plural(doc.unjudgedValues, "value"), callWords(doc.unjudged), pick(n, "call", "calls"), pick(n, "its window", "their windows"))
	}
	for _, l := range doc.Library {
		agree := "inspect agrees"
		switch {
		case l.OtherWindow:
			agree = "judged on the recorded window; the replayed one differs under this policy, so not compared"
		case !l.Agrees:
			agree = "inspect DISAGREES"
		}
		n := fmt.Sprintf("%d unsupported", len(l.Unsupported))
		if l.UnsupportedCount > len(l.Unsupported) && len(l.Unsupported) == evidence.ListedLimit {
			n = fmt.Sprintf("%d unsupported listed (the library lists its first %d; inspect finds %d)", len(l.Unsupported), evidence.ListedLimit, l.UnsupportedCount)
		}
		fmt.Fprintf(w, "library: call %d %s, %d candidates, %s — %s\n", l.Call, termtext.Line(l.Action), l.Candidates, n, agree)
	}
	return nil
}

// callWords is "call 12" or "calls 12, 21".
func callWords(calls []int) string {
	ns := make([]string, len(calls))
	for i, c := range calls {
		ns[i] = fmt.Sprint(c)
	}
	return pick(len(ns), "call ", "calls ") + strings.Join(ns, ", ")
}

// plural is "1 value" or "2 values".
func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, pick(n, word, word+"s")) }

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// inWords names a --in selection in a sentence.
func inWords(in string) string {
	switch in {
	case inAnswers:
		return "answers"
	case inArguments:
		return "tool-call arguments"
	}
	return "answers and tool-call arguments"
}

// listed says whether the table lists the values a count line counts.
func listed(in, side string) string {
	if in == side || in == inAll {
		return " (listed above)"
	}
	return fmt.Sprintf(" (not listed: --in %s)", side)
}

// where says which part of the response a value was in.
func where(e provenance.Entry) string {
	if e.ToolCallID != nil {
		return "args " + *e.ToolCallID
	}
	return e.In
}

// sourceCells names the sources of a value that left and the calls their
// visits removed them at (with the rule); for a value in view inside a
// longer token, the text that holds it; for a summary's value no tool
// result held, the nearest one. A source was sent on its calls only where
// the replay's windows there are the ones the library recorded.
func sourceCells(r *window.Replay, places *callPlaces, v export.Value) (src, at string) {
	sources, inText, near := v.Sources, v.InText, v.Near
	if v.Read != nil {
		sources, inText, near = v.Read.Sources, v.Read.InText, v.Read.Near
	}
	switch {
	case len(inText) > 0:
		return inViewCell(inText), "-"
	case near != nil:
		if !near.Found() {
			return "only in a summary; no tool result held it", "-"
		}
		return fmt.Sprintf("only in a summary; no tool result held it — nearest: %s (%s %s)", near.Value, *near.ToolName, *near.ToolCallID), "-"
	case len(sources) == 0:
		return "-", "-"
	}
	var ss, as []string
	for _, s := range sources {
		name := "user text"
		if s.ToolName != nil {
			name = *s.ToolName + " " + *s.ToolCallID
		}
		on := places.span(s.SentOn)
		sent := "sent on " + on
		if n := differing(r, v.Call, s.SentOn); n > 0 {
			sent = fmt.Sprintf("in the replay's windows on %s, %d of them not the library's", on, n)
		}
		ss = append(ss, fmt.Sprintf("%s (run %d, %s)", name, s.Run, sent))
		as = append(as, fmt.Sprintf("%d %s", s.EvictedAt, advise.RuleWords(s.Rule, s.Rules)))
	}
	return strings.Join(ss, "; "), strings.Join(as, "; ")
}

// inViewCell says where a value's characters were in view: "in view,
// inside 2025-03-18t14:31:07z of restart_service call_0011" (the first
// text that holds it, and how many more do).
func inViewCell(ts []provenance.InText) string {
	t := ts[0]
	where := "user or system text"
	if t.ToolName != nil {
		where = *t.ToolName + " " + *t.ToolCallID
	}
	out := "in view, in " + where
	if t.Token != nil {
		out = "in view, inside " + *t.Token + " of " + where
	}
	if len(ts) > 1 {
		out += fmt.Sprintf(" (and %d more)", len(ts)-1)
	}
	return out + "; the library's check does not split tokens"
}

// differing counts the calls numbered in span, of the conversation of
// call number at, whose replayed window differs from the recorded one.
func differing(r *window.Replay, at int, span [2]int) int {
	conv := -1
	for i := range r.Calls {
		if r.Calls[i].Call.Number == at {
			conv = r.Calls[i].Conversation
		}
	}
	n := 0
	for i := range r.Calls {
		c := &r.Calls[i]
		if c.Conversation == conv && c.Call.Number >= span[0] && c.Call.Number <= span[1] && c.Recorded() == window.Differs {
			n++
		}
	}
	return n
}

func span(c [2]int) string {
	if c[0] == c[1] {
		return fmt.Sprint(c[0])
	}
	return fmt.Sprintf("%d–%d", c[0], c[1])
}

// countLine counts the flagged verdicts of one side (answers or
// arguments), e.g. "answers: 9 flagged — 7 left, 2 never read".
func countLine(side string, n map[string]int) string {
	words := []struct{ verdict, say string }{
		{evidence.Left, "left the window"}, {evidence.InViewText, "in view inside a longer token"},
		{evidence.NeverRead, "never read"}, {evidence.SummaryUnsupported, "only in a summary"},
	}
	total := 0
	var parts []string
	for _, w := range words {
		if n[w.verdict] > 0 {
			total += n[w.verdict]
			parts = append(parts, fmt.Sprintf("%d %s", n[w.verdict], w.say))
		}
	}
	if total == 0 {
		return side + ": nothing flagged"
	}
	return fmt.Sprintf("%s: %d flagged — %s", side, total, strings.Join(parts, ", "))
}
