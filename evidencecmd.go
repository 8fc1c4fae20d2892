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

// flaggedValue is one value inspect flags, with where it was and what
// would have kept its source.
type flaggedValue struct {
	Call      int    `json:"call"`
	Run       int    `json:"run"`
	RunID     string `json:"runId"`
	Agent     string `json:"agent"`
	Iteration int    `json:"iteration"`
	provenance.Entry
	// Typed is the value as the model typed it (Value is normalized:
	// lower-cased, its punctuation trimmed).
	Typed string                 `json:"typed"`
	Keep  *provenance.Suggestion `json:"keep"` // null: none found, or never read
}

type libraryRow struct {
	Call int `json:"call"`
	provenance.Library
	// Listed: the library lists only its first 12 unsupported values;
	// Unsupported is how many inspect's rules find in that answer.
	UnsupportedCount int `json:"unsupportedCount"`
	// OtherWindow: the replayed window of the call is not the one the
	// library judged (another policy): the two verdicts are not compared.
	OtherWindow bool `json:"otherWindow"`
}

type agentPolicyDoc struct {
	Agent  string       `json:"agent"`
	Policy exportPolicy `json:"policy"`
}

// verdictCounts counts inspect's own verdicts of every value, the
// answers' apart from the arguments'.
type verdictCounts struct {
	Answers   map[string]int `json:"answers"`
	Arguments map[string]int `json:"arguments"`
}

type evidenceDoc struct {
	Format  string           `json:"format"`
	Source  string           `json:"source"`
	In      string           `json:"in"`
	Policy  exportPolicy     `json:"policy"`
	Agents  []agentPolicyDoc `json:"agents"`
	Counts  verdictCounts    `json:"counts"`
	Values  []flaggedValue   `json:"values"`
	Library []libraryRow     `json:"library"`

	replay *window.Replay // for the table: which windows were the library's
	policy string         // for the table: the policy, and the other agents'
	others []string
}

// evidenceReport judges every call and collects the flagged values that
// --in selects.
func evidenceReport(source string, s session, in string) evidenceDoc {
	doc := evidenceDoc{Format: evidenceFormat, Source: source, In: in,
		Policy: policyObject(s.policy, s.inferred, s.given, s.evidence), Agents: []agentPolicyDoc{},
		Counts: verdictCounts{Answers: map[string]int{}, Arguments: map[string]int{}},
		Values: []flaggedValue{}, Library: []libraryRow{}, replay: s.replay, policy: s.policy.String()}
	for _, a := range s.agents[min(1, len(s.agents)):] { // the first is Policy
		doc.others = append(doc.others, "policy of "+a.agent.Key+": "+a.policy.String())
	}
	for _, a := range s.agents {
		doc.Agents = append(doc.Agents, agentPolicyDoc{Agent: a.agent.Key, Policy: policyObject(a.policy, a.inferred, s.given, a.evidence)})
	}
	book := provenance.Walk(s.rec, s.replay) // every call, in order
	defer book.Stop()
	search := provenance.NewSearcher(s.replay, s.replayWith, s.strategies()...)
	for i := range s.replay.Calls {
		c := &s.replay.Calls[i]
		ce := book.Call(i)
		var typed []string
		for k, e := range ce.Values {
			count(doc.Counts, e)
			if !e.Flagged() || !selected(in, e.In) {
				continue
			}
			if typed == nil {
				typed = provenance.Typed(c.Call.Facts.Response, ce)
			}
			fv := flaggedValue{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Agent: agentKey(c.Run),
				Iteration: c.Call.Iteration, Entry: e, Typed: typed[k]}
			if sug, ok := search.Keep(i, e); ok {
				fv.Keep = &sug
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
			doc.Library = append(doc.Library, libraryRow{Call: c.Call.Number, Library: l, UnsupportedCount: n,
				OtherWindow: c.Recorded() == window.Differs})
		}
	}
	return doc
}

// count adds e's own verdict to the counts of where it was typed.
func count(c verdictCounts, e provenance.Entry) {
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
			src, at := sourceCells(doc.replay, v)
			keep := "-"
			switch {
			case v.Keep != nil:
				keep = v.Keep.Text
			case v.Own() == evidence.Left:
				keep = provenance.NoneText()
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
func sourceCells(r *window.Replay, v flaggedValue) (src, at string) {
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
		sent := "sent on " + span(s.SentOn)
		if n := differing(r, v.Call, s.SentOn); n > 0 {
			sent = fmt.Sprintf("in the replay's windows on %s, %d of them not the library's", span(s.SentOn), n)
		}
		ss = append(ss, fmt.Sprintf("%s (run %d, %s)", name, s.Run, sent))
		as = append(as, fmt.Sprintf("%d %s", s.EvictedAt, s.Rule))
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

// parseIn checks --in.
func parseIn(in string) error {
	if !slices.Contains(inChoices, in) {
		return fmt.Errorf("--in: unknown selection %q (%s)", in, strings.Join(inChoices, ", "))
	}
	return nil
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
