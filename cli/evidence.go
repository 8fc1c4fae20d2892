package cli

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// failVerdicts are the words --fail-on accepts: the verdicts a value
// out of view may have (docs/rules/evidence.md §9.1.3), and failFlagged.
var failVerdicts = []string{evidence.Left, evidence.InViewText, evidence.NeverRead, evidence.SummaryUnsupported, failFlagged}

// failFlagged in --fail-on counts flagged values only (§10): alone, any
// flagged value fails; beside verdicts, the flagged values of those
// verdicts. A verdict without it counts every value of that verdict, as
// §9.1.3 has it, so a gate written before §10 keeps its meaning.
const failFlagged = "flagged"

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
library's own answer check beside inspect's (docs/rules/evidence.md §9). Each is
flagged or not, by the rule that decided (§10: a time the model composed for
its query, characters in view inside a longer token, a value named only to
be refuted are listed, not flagged); the counts take flagged values only, and so
does --fail-on flagged (--fail-on flagged,never-read: the flagged never-read
ones; a verdict alone counts every value of it). Where inspect judges beyond
the library it says so: an answer's number under the library's 4 digits with a
unit whose source left ("p99 802 ms") is listed, judged by inspect below the
library's floor, and never flagged. An absent policy flag is inferred.`,
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
	fs.StringVar(&o.failOn, "fail-on", "", "exit 4 when a value --in selects has one of the `VERDICTS` left, in-view-text,\nnever-read, summary-unsupported — a verdict alone counts every value of it, flagged\nor not; with flagged among them, only the flagged values of those; flagged alone:\nany flagged value (what a person would act on; the gate for CI)")
	fs.IntVar(&o.width, "width", 0, "fit the table to `N` columns (default: the terminal's, 120 when piped)")
	fs.BoolVar(&o.wide, "wide", false, "the table as wide as its widest cells (else it fits the terminal, or 120\ncolumns when piped)")
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
		width := outputWidth(a.stdout)
		switch {
		case o.wide:
			width = 0
		case o.width > 0:
			width = o.width
		}
		err = writeEvidenceTable(out, doc, width)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	if n := failing(doc, fail); n > 0 {
		fmt.Fprintf(a.stderr, "inspect: %d %s value(s) in the %s (--fail-on %s)\n", n, failWords(fail), inWords(o.in), o.failOn)
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
	// narration is how many judged values were typed in narration
	narration int
}

// evidenceReport judges every call and collects the flagged values that
// --in selects.
func evidenceReport(source string, s *study.Study, in string) evidenceDoc {
	r, lead := s.Replay(), s.Lead()
	doc := evidenceDoc{EvidenceDoc: export.EvidenceDoc{Format: export.EvidenceFormat, Source: source, In: in,
		Policy: policyObject(lead.Policy, lead.Inferred, s.Given, lead.Evidence), Agents: []export.AgentPolicy{},
		Counts:        export.Counts{Answers: map[string]int{}, Arguments: map[string]int{}},
		FlaggedCounts: export.Sides{Answers: map[string]int{}, Arguments: map[string]int{}},
		NotFlagged:    export.Sides{Answers: map[string]int{}, Arguments: map[string]int{}},
		Values:        []export.Value{}, BelowFloor: []export.Value{}, Library: []export.LibraryRow{}}, replay: r, policy: lead.Policy.String() + guessWords(lead)}
	for _, a := range s.Agents[min(1, len(s.Agents)):] { // the first is Policy
		doc.others = append(doc.others, "policy of "+a.Agent.Key+": "+a.Policy.String()+guessWords(a))
	}
	for _, a := range s.Agents {
		doc.Agents = append(doc.Agents, export.AgentPolicy{Agent: a.Agent.Key, Policy: policyObject(a.Policy, a.Inferred, s.Given, a.Evidence)})
	}
	book := provenance.Walk(s.Rec, r) // every call, in order
	defer book.Stop()
	search := advise.FileSearcher(s, r)
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
			doc.countFlag(e)
			if !e.Judged() || !selected(in, e.In) {
				continue
			}
			if typed == nil {
				typed = provenance.Typed(c.Call.Facts.Response, ce)
			}
			fv := export.Value{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Agent: agentKey(c.Run),
				Iteration: c.Call.Iteration, Entry: guess(e), Typed: typed[k]}
			if !e.Flagged() {
				// not flagged: nothing to fix
			} else if sug, ok := search.Keep(i, e); ok {
				fv.Keep = &export.Keep{Policy: sug.Policy, Steps: sug.Steps, Kept: sug.Kept, Text: sug.Text}
			}
			doc.Values = append(doc.Values, fv)
		}
		for _, e := range ce.BelowFloor {
			doc.NotFlagged.Answers[e.Rule]++
			if selected(in, e.In) {
				doc.BelowFloor = append(doc.BelowFloor, export.Value{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Agent: agentKey(c.Run),
					Iteration: c.Call.Iteration, Entry: guess(e), Typed: provenance.TypedOf(c.Call.Facts.Response.Content, e.Value)})
			}
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

// countFlag adds a judged value to the flagged counts (by verdict) or
// the others (by rule) of its side: the answers, or the arguments and
// narration.
func (doc *evidenceDoc) countFlag(e provenance.Entry) {
	if !e.Judged() {
		return
	}
	side := doc.FlaggedCounts
	if !e.Flagged() {
		side = doc.NotFlagged
	}
	m := side.Answers
	if e.Place != provenance.PlaceAnswer {
		m = side.Arguments
	}
	if e.Place == provenance.PlaceNarration {
		doc.narration++
	}
	if e.Flagged() {
		m[e.Own()]++
	} else {
		m[e.Rule]++
	}
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

// failWords says what --fail-on on counts: "never-read or left" (every
// value of those verdicts), "flagged" (every flagged value), "flagged
// never-read" (the flagged ones of that verdict).
func failWords(on []string) string {
	verdicts := slices.DeleteFunc(slices.Clone(on), func(v string) bool { return v == failFlagged })
	words := strings.Join(verdicts, " or ")
	switch {
	case len(verdicts) == len(on):
		return words
	case len(verdicts) == 0:
		return failFlagged
	}
	return failFlagged + " " + words
}

// failing counts the values listed that --fail-on names: of its
// verdicts, and flagged when it says flagged (a value §10.2 does not flag
// — a query window the model composed, characters in view inside a longer
// token — fails no pipeline then).
func failing(doc evidenceDoc, on []string) int {
	flaggedOnly := slices.Contains(on, failFlagged)
	verdicts := slices.DeleteFunc(slices.Clone(on), func(v string) bool { return v == failFlagged })
	n := 0
	for _, v := range doc.Values {
		switch {
		case flaggedOnly && !v.Flagged():
		case len(verdicts) == 0 && flaggedOnly, slices.Contains(verdicts, v.Own()):
			n++
		}
	}
	return n
}
