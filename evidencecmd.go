package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// evidenceFormat names the JSON shape `inspect evidence --format json` writes.
const evidenceFormat = "inspect.evidence.v1"

// failVerdicts are the words --fail-on accepts: the two verdicts the
// library calls unsupported (EVIDENCE-SEMANTICS §5).
var failVerdicts = []string{evidence.Left, evidence.NeverRead}

// flaggedValue is one value the library's rules do not ground, with where
// it was and what would have kept its source.
type flaggedValue struct {
	Call      int    `json:"call"`
	Run       int    `json:"run"`
	RunID     string `json:"runId"`
	Iteration int    `json:"iteration"`
	provenance.Entry
	Keep *provenance.Suggestion `json:"keep"` // null: none found, or never read
}

type libraryRow struct {
	Call int `json:"call"`
	provenance.Library
}

type evidenceDoc struct {
	Format  string         `json:"format"`
	Source  string         `json:"source"`
	Policy  string         `json:"policy"`
	Values  []flaggedValue `json:"values"`
	Library []libraryRow   `json:"library"`

	others []string       // the policies of the other agents, for the table
	replay *window.Replay // for the table: which windows were the library's
}

// evidenceReport judges every call and collects the flagged values.
func evidenceReport(source string, s session) evidenceDoc {
	doc := evidenceDoc{Format: evidenceFormat, Source: source, Policy: s.policy.String(),
		Values: []flaggedValue{}, Library: []libraryRow{}, replay: s.replay}
	for _, a := range s.agents[min(1, len(s.agents)):] { // the first is Policy
		doc.others = append(doc.others, "policy of "+a.agent.Key+": "+a.policy.String())
	}
	book := provenance.Walk(s.rec, s.replay) // every call, in order
	defer book.Stop()
	search := provenance.NewSearcher(s.replay, s.replayWith, s.strategies()...)
	for i := range s.replay.Calls {
		c := &s.replay.Calls[i]
		ce := book.Call(i)
		for _, e := range ce.Values {
			if !e.Flagged() {
				continue
			}
			fv := flaggedValue{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Iteration: c.Call.Iteration, Entry: e}
			if sug, ok := search.Keep(i, e); ok {
				fv.Keep = &sug
			}
			doc.Values = append(doc.Values, fv)
		}
		if l, ok := provenance.LibraryVerdict(c.Call.Facts.EvidenceChecked, ce); ok {
			doc.Library = append(doc.Library, libraryRow{Call: c.Call.Number, Library: l})
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
				keep = provenance.NoneText()
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
func sourceCells(r *window.Replay, v flaggedValue) (src, at string) {
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

func countLine(vs []flaggedValue) string {
	n := map[string]int{}
	for _, v := range vs {
		n[v.Verdict]++
	}
	return fmt.Sprintf("flagged: %d left the window, %d never read", n[evidence.Left], n[evidence.NeverRead])
}

// writeEvidence prints the report as a table or JSON.
func writeEvidence(w io.Writer, doc evidenceDoc, asJSON bool) error {
	if !asJSON {
		return writeEvidenceTable(w, doc)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	out, err := withSurrogates(doc, buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(termtext.JSON(out))
	return err
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

// strategies are those the log makes replayable: sliding-window and
// token-budget always, summarize-oldest when the log recorded folds.
func (s session) strategies() []string {
	out := []string{model.SlidingWindow, model.TokenBudget}
	for _, inf := range s.infs {
		if inf.Folds != nil && inf.Folds.Folds() > 0 {
			return append(out, model.SummarizeOldest)
		}
	}
	return out
}
