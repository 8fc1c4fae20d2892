package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// The evidence report as a table (inspect evidence --format table).

// writeEvidenceTable prints one row per judged value — flagged, or not
// and by which rule (docs/rules/flags.md §10) —, within width columns
// (0: each column as wide as its widest cell), then the counts and the
// library's own verdicts beside inspect's.
func writeEvidenceTable(w io.Writer, doc evidenceDoc, width int) error {
	values := byCall(doc.Values, doc.BelowFloor)
	if len(values) == 0 {
		fmt.Fprintf(w, "no flagged values in the %s: every number and identifier was in view, typed by the user, or a library note\n", inWords(doc.In))
	} else {
		t := fitTable{head: []string{"CALL", "RUN", "IN", "VALUE", "VERDICT", "FLAGGED", "SOURCE", "EVICTED AT", "WHAT WOULD HAVE KEPT IT"},
			wrap: []bool{false, false, false, true, false, false, true, true, true}}
		for _, v := range values {
			src, at := sourceCells(doc.replay, doc.places, v)
			if len(v.InViewInside) > 0 { // a left value whose characters are in view
				src = inViewCell(v.InViewInside) + " · it left " + src
			}
			if !v.Flagged() {
				src = notFlaggedWords(v.Entry, src)
			}
			keep := "-"
			switch {
			case v.Keep != nil:
				keep = v.Keep.Text
			case v.Own() == evidence.Left && v.Flagged():
				keep = advise.NoneText()
			}
			t.rows = append(t.rows, []string{fmt.Sprint(v.Call), fmt.Sprint(v.Run), termtext.Line(where(v.Entry)),
				termtext.Line(v.Typed), v.Own(), pick(boolInt(v.Flagged()), "yes", "no"), termtext.Line(src), termtext.Line(at), termtext.Line(keep)})
		}
		ok, err := t.write(w, width)
		if err != nil {
			return err
		}
		if !ok {
			if err := writeBlocks(w, t, width); err != nil {
				return err
			}
		}
	}
	// the count lines after the table wrap at its width too (the policy
	// and library lines are read by scripts: one line each)
	fw := &wrapWriter{w: w, width: width}
	fmt.Fprintf(w, "\npolicy: %s\n", termtext.Line(doc.policy))
	for _, p := range doc.others {
		fmt.Fprintln(w, termtext.Line(p))
	}
	fmt.Fprintf(fw, "%s%s\n", countLine("answers", doc.FlaggedCounts.Answers, doc.NotFlagged.Answers), listed(doc.In, inAnswers))
	side := "arguments"
	if doc.narration > 0 {
		side = "arguments and narration"
	}
	fmt.Fprintf(fw, "%s%s\n", countLine(side, doc.FlaggedCounts.Arguments, doc.NotFlagged.Arguments), listed(doc.In, inArguments))
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

// wrapWriter writes lines wrapped at width (0: as they are), the
// continuations indented.
type wrapWriter struct {
	w     io.Writer
	width int
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	if ww.width <= 0 {
		return ww.w.Write(p)
	}
	text := strings.TrimSuffix(string(p), "\n")
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		for k, l := range strings.Split(ansi.Wrap(line, ww.width-2, ""), "\n") {
			if k > 0 {
				b.WriteString("  ")
			}
			b.WriteString(l + "\n")
		}
	}
	if _, err := io.WriteString(ww.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// byCall is values with the numbers below the library's floor among
// them, each after the values of its call (both lists are in call order).
func byCall(values, floor []export.Value) []export.Value {
	if len(floor) == 0 {
		return values
	}
	out := make([]export.Value, 0, len(values)+len(floor))
	for _, v := range values {
		for len(floor) > 0 && floor[0].Call < v.Call {
			out, floor = append(out, floor[0]), floor[1:]
		}
		out = append(out, v)
	}
	return append(out, floor...)
}

// notFlaggedWords names the rule of §10.2 that did not flag a value:
// "not flagged: refuted (the library flags it) · " before src.
func notFlaggedWords(e provenance.Entry, src string) string {
	s := "not flagged: " + e.Rule
	if e.Rule == provenance.RuleBelowFloor {
		s = "not flagged: " + provenance.BelowFloorWords
	}
	if e.LibraryListed {
		s += " (the library flags it)"
	}
	if src == "-" {
		return s
	}
	return s + " · " + src
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeBlocks writes the rows of t one block each, for a width too narrow
// for its columns: the short cells on one line, each long one on its own
// line below, wrapped and indented.
func writeBlocks(w io.Writer, t fitTable, width int) error {
	var b strings.Builder
	for _, r := range append([][]string{t.head}, t.rows...) {
		var short []string
		for k, c := range r {
			if !t.wrap[k] || k == 3 { // the value stays with the row
				short = append(short, c)
			}
		}
		for _, l := range strings.Split(ansi.Wrap(strings.Join(short, "  "), width, ""), "\n") {
			b.WriteString(l + "\n")
		}
		for k, c := range r {
			if !t.wrap[k] || k == 3 || c == "-" || &r[0] == &t.head[0] {
				continue
			}
			for _, l := range strings.Split(ansi.Wrap(strings.ToLower(t.head[k])+": "+c, width-4, ""), "\n") {
				b.WriteString("    " + l + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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
	switch {
	case e.ToolCallID != nil:
		return "args " + *e.ToolCallID
	case e.Place != "":
		return e.Place
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
	case v.LeftInside != nil:
		l := v.LeftInside
		name := l.Source.Who()
		inside := "inside a longer token"
		if l.Token != nil {
			inside = "inside " + *l.Token
		}
		return fmt.Sprintf("left %s of %s (run %d, sent on %s)", inside, name, l.Source.Run, places.span(l.Source.SentOn)),
			fmt.Sprintf("%d %s", l.Source.EvictedAt, advise.RuleWords(l.Source.Rule, l.Source.Rules))
	case len(sources) == 0 && v.EarlierPass != nil:
		s := v.EarlierPass.Say(places.span(v.EarlierPass.SentOn))
		if v.Nearest != nil {
			s += " — nearest: " + nearestWords(v.Nearest)
		}
		return s, "-"
	case len(sources) == 0 && v.LookedFor != nil:
		s := "typed, not read — " + v.LookedFor.Words()
		if v.Nearest != nil {
			s += " — nearest: " + nearestWords(v.Nearest)
		}
		return s, "-"
	case len(sources) == 0 && v.Nearest != nil:
		return "typed, not read — nearest: " + nearestWords(v.Nearest), "-"
	case len(sources) == 0:
		return "-", "-"
	}
	var ss, as []string
	for _, s := range sources {
		name := s.Who()
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

// nearestWords is "web-3e6f41 (get_deploy call_0004, in view)".
func nearestWords(n *provenance.Nearest) string {
	name := "a tool result"
	if n.ToolName != nil {
		name = *n.ToolName
		if n.ToolCallID != nil {
			name += " " + *n.ToolCallID
		}
	}
	view := "out of view"
	if n.InView {
		view = "in view"
	}
	return fmt.Sprintf("%s (%s, %s)", n.Value, name, view)
}

// countLine counts the flagged values of one side (the answers, or the
// arguments and narration) by verdict, and those §10.2 does not flag by
// rule, e.g. "answers: 8 flagged — 7 left the window, 1 never read; 1
// not flagged (1 refuted)".
func countLine(side string, n, not map[string]int) string {
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
	line := side + ": nothing flagged"
	if total > 0 {
		line = fmt.Sprintf("%s: %d flagged — %s", side, total, strings.Join(parts, ", "))
	}
	if len(not) > 0 {
		rules := slices.Sorted(maps.Keys(not))
		nn, words := 0, make([]string, len(rules))
		for k, r := range rules {
			nn += not[r]
			words[k] = fmt.Sprintf("%d %s", not[r], r)
		}
		line += fmt.Sprintf("; %d not flagged (%s)", nn, strings.Join(words, ", "))
	}
	return line
}
