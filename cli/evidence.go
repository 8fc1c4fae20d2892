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

// failVerdicts are the words --fail-on accepts: the two verdicts the
// library calls unsupported (EVIDENCE-SEMANTICS §5).
var failVerdicts = []string{evidence.Left, evidence.NeverRead}

// evidenceCmd is `inspect evidence`: every value a response used that
// was not in view.
func (a *app) evidenceCmd() *cobra.Command {
	var o options
	c := &cobra.Command{
		Use:   "evidence [flags] FILE",
		Short: "every number and identifier of a response that was not in view",
		Long: `evidence lists every number and identifier a response used that was not in
the window the model was sent: one that left the window (its source, when it
left and by which rule, and the smallest policy change that would have kept
it in view) or one never read at all; then the library's own answer check
beside inspect's (EVIDENCE-SEMANTICS). An absent policy flag is inferred.`,
		RunE: func(c *cobra.Command, files []string) error {
			o.noteGiven(c.Flags())
			path, err := a.oneFile("evidence", files)
			if err != nil {
				return err
			}
			if o.format != "json" && o.format != "table" {
				return a.usageError("inspect evidence: unknown --format %q (table or json)", o.format)
			}
			fail, err := failOn(o.failOn)
			if err != nil {
				return a.fail(exitUsage, err)
			}
			if err := a.ready(&o, path); err != nil {
				return err
			}
			s, err := a.openStudy(path, o)
			if err != nil {
				return err
			}
			return a.writeEvidence(path, s, o, fail)
		},
	}
	fs := c.Flags()
	o.policyFlags(fs)
	o.agentFlag(fs)
	fs.StringVar(&o.format, "format", "table", "`FORMAT`: table | json (format inspect.evidence.v1)")
	o.quietFlag(fs)
	fs.StringVar(&o.failOn, "fail-on", "", "exit 4 when any value has one of the `VERDICTS` left,never-read (for CI)")
	o.inputFlags(fs)
	return c
}

// writeEvidence writes every flagged value, and ends with status 4 when
// --fail-on names the verdict of one.
func (a *app) writeEvidence(path string, s *study.Study, o options, fail []string) error {
	doc := evidenceReport(path, s)
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
		fmt.Fprintf(a.stderr, "inspect: %d value(s) %s (--fail-on %s)\n", n, strings.Join(fail, " or "), o.failOn)
		return exitCode(exitFlagged)
	}
	return nil
}

// evidenceDoc is the evidence report, with what its table says besides.
type evidenceDoc struct {
	export.EvidenceDoc
	others []string       // the policies of the other agents, for the table
	replay *window.Replay // for the table: which windows were the library's
}

// evidenceReport judges every call and collects the flagged values.
func evidenceReport(source string, s *study.Study) evidenceDoc {
	r := s.Replay()
	doc := evidenceDoc{EvidenceDoc: export.EvidenceDoc{Format: export.EvidenceFormat, Source: source, Policy: s.Lead().Policy.String(),
		Values: []export.Value{}, Library: []export.LibraryRow{}}, replay: r}
	for _, a := range s.Agents[min(1, len(s.Agents)):] { // the first is Policy
		doc.others = append(doc.others, "policy of "+a.Agent.Key+": "+a.Policy.String())
	}
	book := provenance.Walk(s.Rec, r) // every call, in order
	defer book.Stop()
	search := s.Searcher(r)
	for i := range r.Calls {
		c := &r.Calls[i]
		ce := book.Call(i)
		for _, e := range ce.Values {
			if !e.Flagged() {
				continue
			}
			fv := export.Value{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Iteration: c.Call.Iteration, Entry: e}
			if sug, ok := search.Keep(i, e); ok {
				fv.Keep = &export.Keep{Policy: sug.Policy, Steps: sug.Steps, Kept: sug.Kept, Text: sug.Text}
			}
			doc.Values = append(doc.Values, fv)
		}
		if l, ok := provenance.LibraryVerdict(c.Call.Facts.EvidenceChecked, ce); ok {
			doc.Library = append(doc.Library, export.LibraryRow{Call: c.Call.Number, Library: l})
		}
	}
	return doc
}

// writeEvidenceTable prints one row per flagged value, then the library's
// own verdicts beside inspect's.
func writeEvidenceTable(w io.Writer, doc evidenceDoc) error {
	if len(doc.Values) == 0 {
		fmt.Fprintln(w, "no flagged values: every number and identifier the model wrote was in view, typed by the user, or a library note")
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "CALL\tRUN\tIN\tVALUE\tVERDICT\tSOURCE\tEVICTED AT\tWHAT WOULD HAVE KEPT IT")
		for _, v := range doc.Values {
			src, at := sourceCells(doc.replay, v)
			keep := "-"
			switch {
			case v.Keep != nil:
				keep = v.Keep.Text
			case v.Verdict == evidence.Left:
				keep = study.NoneText()
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Call, v.Run, termtext.Line(where(v.Entry)),
				termtext.Line(v.Value), v.Verdict, termtext.Line(src), at, termtext.Line(keep))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\npolicy: %s\n", termtext.Line(doc.Policy))
	for _, p := range doc.others {
		fmt.Fprintln(w, termtext.Line(p))
	}
	fmt.Fprintln(w, countLine(doc.Values))
	for _, l := range doc.Library {
		agree := "inspect agrees"
		if !l.Agrees {
			agree = "inspect DISAGREES"
		}
		fmt.Fprintf(w, "library: call %d %s, %d candidates, %d unsupported — %s\n", l.Call, termtext.Line(l.Action), l.Candidates, len(l.Unsupported), agree)
	}
	return nil
}

// where says which part of the response a value was in.
func where(e provenance.Entry) string {
	if e.ToolCallID != nil {
		return "args " + *e.ToolCallID
	}
	return e.In
}

// sourceCells names the sources of a value that left and the calls their
// visits removed them at (with the rule). A source was sent on its calls
// only where the replay's windows there are the ones the library recorded.
func sourceCells(r *window.Replay, v export.Value) (src, at string) {
	if len(v.Sources) == 0 {
		return "-", "-"
	}
	var ss, as []string
	for _, s := range v.Sources {
		name := "user text"
		if s.ToolName != nil {
			name = *s.ToolName + " " + *s.ToolCallID
		}
		sent := "sent on " + span(s.SentOn)
		if n := differing(r, v.Call, s.SentOn); n > 0 {
			sent = fmt.Sprintf("in the replay's windows on %s, %d of them not the library's", span(s.SentOn), n)
		}
		ss = append(ss, fmt.Sprintf("%s (run %d, %s)", name, s.Run, sent))
		as = append(as, fmt.Sprintf("%d %s", s.EvictedAt, s.Rule))
	}
	return strings.Join(ss, "; "), strings.Join(as, "; ")
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

func countLine(vs []export.Value) string {
	n := map[string]int{}
	for _, v := range vs {
		n[v.Verdict]++
	}
	return fmt.Sprintf("flagged: %d left the window, %d never read", n[evidence.Left], n[evidence.NeverRead])
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

// failing counts the values whose verdict --fail-on names.
func failing(doc evidenceDoc, on []string) int {
	n := 0
	for _, v := range doc.Values {
		if slices.Contains(on, v.Verdict) {
			n++
		}
	}
	return n
}
