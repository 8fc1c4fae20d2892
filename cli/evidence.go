package cli

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// failVerdicts are the words --fail-on accepts: the verdicts inspect
// flags (EVIDENCE-SEMANTICS §9.1.3).
var failVerdicts = []string{evidence.Left, evidence.InViewText, evidence.NeverRead, evidence.SummaryUnsupported}

// The values --in selects: the answers' (the default: what reaches the
// caller, and what the library checks), the tool calls' arguments', or
// both. Counted apart always (§9.1).
const (
	inAnswers   = "answers"
	inArguments = "arguments"
	inAll       = "all"
)

var inChoices = []string{inAnswers, inArguments, inAll}

// selected reports whether --in sel takes a value typed in in.
func selected(sel, in string) bool {
	switch sel {
	case inAnswers:
		return in == provenance.InAnswer
	case inArguments:
		return in == provenance.InToolCall
	}
	return true
}

// evidenceCmd is `inspect evidence`: every value the model typed that the
// library's answer check would not ground.
func (a *app) evidenceCmd() *cobra.Command {
	var o options
	var fail []string
	c := a.studyCmd(&cobra.Command{
		Use:   "evidence [flags] FILE",
		Short: "every number and identifier the model typed that the answer check would not ground",
		Long: `evidence lists every number and identifier the model typed that the library's
answer check would not ground in the window it was sent: one that left the
window (its source, when it left and by which rule, and the smallest policy
change that would have kept it in view), one in view only inside a longer
token, one never read at all, or one only a summary held that no tool result
backs; the answers by default (--in), the arguments counted apart; then the
library's own answer check beside inspect's (EVIDENCE-SEMANTICS §9). An
absent policy flag is inferred.`,
	}, &o, func() error {
		if o.format != "json" && o.format != "table" {
			return a.usageError("inspect evidence: unknown --format %q (table or json)", o.format)
		}
		if !slices.Contains(inChoices, o.in) {
			return a.usageError("inspect: --in: unknown selection %q (%s)", o.in, strings.Join(inChoices, ", "))
		}
		var err error
		if fail, err = failOn(o.failOn); err != nil {
			return a.fail(exitUsage, err)
		}
		return nil
	}, func(path string, s *study.Study) error {
		return a.writeEvidence(path, s, o, fail)
	})
	fs := c.Flags()
	fs.StringVar(&o.format, "format", "table", "`FORMAT`: table | json (format inspect.evidence.v1)")
	fs.StringVar(&o.in, "in", inAnswers, "judge the `VALUES` typed in the answers (default), the tool-call arguments, or\nall; the two are counted apart either way")
	fs.StringVar(&o.failOn, "fail-on", "", "exit 4 when a value --in selects has one of the `VERDICTS` left, in-view-text,\nnever-read, summary-unsupported (for CI)")
	return c
}

// writeEvidence writes every flagged value, and ends with status 4 when
// --fail-on names the verdict of one.
func (a *app) writeEvidence(path string, s *study.Study, o options, fail []string) error {
	doc := evidenceReport(path, s, o.in)
	out := bufio.NewWriterSize(a.stdout, 1<<16) // a table writes cell by cell
	var err error
	if o.format == "json" {
		err = export.WriteEvidence(out, doc.EvidenceDoc)
	} else {
		err = writeEvidenceTable(out, doc)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	if n := failing(doc, fail); n > 0 {
		fmt.Fprintf(a.stderr, "inspect: %d value(s) %s in the %s (--fail-on %s)\n", n, strings.Join(fail, " or "), inWords(o.in), o.failOn)
		return exitCode(exitFlagged)
	}
	return nil
}

// evidenceDoc is the evidence report, with what its table says besides.
type evidenceDoc struct {
	export.EvidenceDoc
	replay *window.Replay // for the table: which windows were the library's
	policy string         // for the table: the policy, and the other agents'
	others []string
	// unjudged are the calls whose window is not in the log (a
	// composition's own), and how many values they hold: none is judged
	unjudged       []int
	unjudgedValues int
	// places numbers each call in its conversation, when the file holds
	// several (nil otherwise): a range of calls is said in those
	places *callPlaces
}

// evidenceReport judges every call and collects the flagged values that
// --in selects.
func evidenceReport(source string, s *study.Study, in string) evidenceDoc {
	r, lead := s.Replay(), s.Lead()
	doc := evidenceDoc{EvidenceDoc: export.EvidenceDoc{Format: export.EvidenceFormat, Source: source, In: in,
		Policy: policyObject(lead.Policy, lead.Inferred, s.Given, lead.Evidence), Agents: []export.AgentPolicy{},
		Counts: export.Counts{Answers: map[string]int{}, Arguments: map[string]int{}},
		Values: []export.Value{}, Library: []export.LibraryRow{}}, replay: r, policy: lead.Policy.String() + guessWords(lead)}
	for _, a := range s.Agents[min(1, len(s.Agents)):] { // the first is Policy
		doc.others = append(doc.others, "policy of "+a.Agent.Key+": "+a.Policy.String()+guessWords(a))
	}
	for _, a := range s.Agents {
		doc.Agents = append(doc.Agents, export.AgentPolicy{Agent: a.Agent.Key, Policy: policyObject(a.Policy, a.Inferred, s.Given, a.Evidence)})
	}
	book := provenance.Walk(s.Rec, r) // every call, in order
	defer book.Stop()
	search := s.Searcher(r)
	doc.places = placesOf(r)
	guess := guessRules(s, r)
	for i := range r.Calls {
		c := &r.Calls[i]
		ce := book.Call(i)
		if provenance.Unjudged(c) && len(ce.Values) > 0 {
			doc.unjudged, doc.unjudgedValues = append(doc.unjudged, c.Call.Number), doc.unjudgedValues+len(ce.Values)
		}
		var typed []string
		for k, e := range ce.Values {
			count(doc.Counts, e)
			if !e.Flagged() || !selected(in, e.In) {
				continue
			}
			if typed == nil {
				typed = provenance.Typed(c.Call.Facts.Response, ce)
			}
			fv := export.Value{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Agent: agentKey(c.Run),
				Iteration: c.Call.Iteration, Entry: guess(e), Typed: typed[k]}
			if sug, ok := search.Keep(i, e); ok {
				fv.Keep = &export.Keep{Policy: sug.Policy, Steps: sug.Steps, Kept: sug.Kept, Text: sug.Text}
			}
			doc.Values = append(doc.Values, fv)
		}
		if l, ok := provenance.LibraryVerdict(c.Call.Facts.EvidenceChecked, ce); ok {
			n := 0
			for _, e := range ce.Values {
				if e.In == provenance.InAnswer && e.Unsupported() {
					n++
				}
			}
			doc.Library = append(doc.Library, export.LibraryRow{Call: c.Call.Number, Library: l, UnsupportedCount: n,
				OtherWindow: c.Recorded() == window.Differs})
		}
	}
	return doc
}

// count adds e's own verdict to the counts of where it was typed.
func count(c export.Counts, e provenance.Entry) {
	v := e.Own()
	if v == "" { // a JSON number's read that is no value
		return
	}
	if e.In == provenance.InToolCall {
		c.Arguments[v]++
	} else {
		c.Answers[v]++
	}
}

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
				keep = study.NoneText()
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
		as = append(as, fmt.Sprintf("%d %s", s.EvictedAt, study.RuleWords(s.Rule, s.Rules)))
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

// failOn parses --fail-on: verdict names separated by commas.
func failOn(list string) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	var out []string
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if !slices.Contains(failVerdicts, v) {
			return nil, fmt.Errorf("--fail-on: unknown verdict %q (%s)", v, strings.Join(failVerdicts, ", "))
		}
		out = append(out, v)
	}
	return out, nil
}

// failing counts the values listed whose verdict (inspect's own) --fail-on
// names.
func failing(doc evidenceDoc, on []string) int {
	n := 0
	for _, v := range doc.Values {
		if slices.Contains(on, v.Own()) {
			n++
		}
	}
	return n
}
