package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// The response block (EVIDENCE-SEMANTICS §5, §6): what the model answered
// on the call on screen, each of its values with its verdict against the
// replayed window, and for a value whose evidence left, where it went and
// what would have kept it. The verdicts come from package provenance; this
// file only draws them.

// evidenceAt is call i's judged values, nil before the book is made.
func (s *session) evidenceAt(i int) *provenance.CallEvidence {
	if s == nil || s.book == nil || i < 0 || i >= s.calls() {
		return nil
	}
	return s.book.Call(i)
}

// judgedCounts is call i's values that left and that were never read,
// as the background judge (judgeCmd) found them; zero until it answers.
// What is drawn every frame reads this, never the book itself.
func (s *session) judgedCounts(i int) (left, never int) {
	if s == nil || s.book == nil {
		return 0, 0
	}
	c := s.judgements[s.book].counts
	if i < 0 || i >= len(c) {
		return 0, 0
	}
	return c[i][0], c[i][1]
}

// flagCounts counts a call's values that left the window and that were
// never read.
func flagCounts(ce *provenance.CallEvidence) (left, never int) {
	if ce == nil {
		return 0, 0
	}
	for _, e := range ce.Values {
		switch e.Verdict {
		case evidence.Left:
			left++
		case evidence.NeverRead:
			never++
		}
	}
	return left, never
}

// evidenceCount is the header's `evidence: 2 left · 1 never read`, "" for
// a call with nothing flagged.
func evidenceCount(s *session, st *Styles) string {
	left, never := s.judgedCounts(s.call)
	if left+never == 0 {
		return ""
	}
	var parts []string
	if left > 0 {
		parts = append(parts, st.Verdict(evidence.Left).Render(fmt.Sprintf("%d left", left)))
	}
	if never > 0 {
		parts = append(parts, st.Verdict(evidence.NeverRead).Render(fmt.Sprintf("%d never read", never)))
	}
	return st.Label.Render("evidence: ") + strings.Join(parts, st.Label.Render(" · ")) + st.Label.Render(" (i)")
}

// Verdict is the style of a verdict word; the word itself always says it.
func (s *Styles) Verdict(v string) lipgloss.Style {
	switch v {
	case evidence.InView:
		return s.Match
	case evidence.UserSupplied:
		return s.Anchor
	case evidence.Summary:
		return s.Summary
	case evidence.LibraryNote:
		return s.LibraryNote
	case evidence.Left:
		return s.Evicted
	case evidence.NeverRead:
		return s.Error
	}
	return s.Value
}

// responseText is the response at width w, for the overlay (i) and for
// the detail of the response row alike; sel is the selected one of the
// values that left (▸), whose source enter goes to, or -1 in the detail,
// where no value is selected.
func responseText(s *session, st *Styles, sugs suggestions, sel, w int) string {
	c := s.current()
	if c == nil {
		return ""
	}
	r := c.Call.Facts.Response
	var b strings.Builder
	line := func(t string) { b.WriteString(t + "\n") }
	rule := func(t string) {
		line(st.Label.Render("── " + t + " " + strings.Repeat("─", max(0, w-ansi.StringWidth(t)-4))))
	}
	ce := s.evidenceAt(s.call)
	for _, l := range wrapText(st.Label.Render(responseHead(c, runPosition(s.rec, c.Run), r)), w) {
		line(l)
	}
	if ce == nil { // the replay's book is still being made (bookCmd)
		rule("values")
		line(st.Dim.Render("judging… the values are being checked against the replayed window"))
	} else {
		responseValues(&b, rule, s, st, sugs, sel, w, c, ce)
	}
	rule(fmt.Sprintf("text · %s chars", thousands(model.Len(r.Content))))
	if r.Content == "" {
		line(st.Dim.Render("(no text)"))
	}
	for _, l := range wrapText(termtext.Screen(r.Content, nil), w) {
		line(l)
	}
	for _, tc := range r.ToolCalls {
		for _, l := range wrapText(st.ToolCall.Render("→ "+termtext.Line(tc.Name))+" "+st.Dim.Render(termtext.Line(string(tc.Args))), w) {
			line(l)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// responseValues writes the values of a judged response: the library's
// own check, each value with its verdict, and what the keys do.
func responseValues(b *strings.Builder, rule func(string), s *session, st *Styles, sugs suggestions, sel, w int, c *window.CallReplay, ce *provenance.CallEvidence) {
	line := func(t string) { b.WriteString(t + "\n") }
	if lib, ok := provenance.LibraryVerdict(c.Call.Facts.EvidenceChecked, ce); ok {
		t := st.Label.Render("the library's own check: ") + fmt.Sprintf("%s, %d candidates, %d unsupported — %s",
			termtext.Line(lib.Action), lib.Candidates, len(lib.Unsupported), libraryAgreement(s, st, lib))
		for _, l := range wrapText(t, w) {
			line(l)
		}
	}
	rule(fmt.Sprintf("values · %d in the text, %d in the arguments", ce.Candidates, len(ce.Values)-answerValues(ce)))
	if len(ce.Values) == 0 {
		line(st.Dim.Render("no numbers or identifiers"))
	}
	left, hint, vw := 0, "", 0
	for _, e := range ce.Values {
		vw = max(vw, ansi.StringWidth(termtext.Line(e.Value)))
	}
	vw = min(vw, max(1, w/3)) // a long value does not push the others' places off screen
	for _, e := range ce.Values {
		mark := " "
		if e.Verdict == evidence.Left {
			if left == sel {
				mark = "▸"
			}
			left++
		}
		valueLines(b, s, st, sugs, mark, e, vw, w)
	}
	if left > 0 {
		for _, l := range wrapText(stripLegend, w) {
			line(st.Dim.Render(l))
		}
	}
	switch {
	case left > 0 && sel >= 0:
		hint = "tab selects the next value that left; enter goes to the last call its source was in view; K applies its suggestion"
	case left > 0:
		hint = "i (or enter on this row) opens the values: select one that left and go to its source"
	}
	for _, l := range wrapText(hint, w) {
		line(st.Dim.Render(l))
	}
}

// responseHead names the call, its run as the header numbers it (in the
// conversation on screen), and the response's stop reason and usage.
func responseHead(c *window.CallReplay, run int, r model.Response) string {
	h := fmt.Sprintf("call %d (run %d, iteration %d)", c.Index+1, run, c.Call.Iteration)
	if r.StopReason != nil {
		h += " · stop reason " + termtext.Line(*r.StopReason)
	}
	if r.Usage != nil {
		h += fmt.Sprintf(" · %s in / %s out tokens", thousands(r.Usage.Input), thousands(r.Usage.Output))
	}
	return h
}

func answerValues(ce *provenance.CallEvidence) int {
	n := 0
	for _, e := range ce.Values {
		if e.In == provenance.InAnswer {
			n++
		}
	}
	return n
}

// valueLines writes one value: its verdict word, the value (padded to vw
// columns, so where each value was lines up; never cut), where it was, and for a
// value that left its sources, lifetime strip and suggestion.
func valueLines(b *strings.Builder, s *session, st *Styles, sugs suggestions, mark string, e provenance.Entry, vw, w int) {
	where := "text"
	if e.ToolCallID != nil {
		where = "args " + termtext.Line(*e.ToolCallID)
	}
	word := st.Verdict(e.Verdict).Render(fmt.Sprintf("%-13s", e.Verdict))
	v := st.Value.Render(termtext.Line(e.Value)) // whole: a longer one pushes its place right
	v += strings.Repeat(" ", max(0, vw-ansi.StringWidth(v)))
	b.WriteString(fit(mark+word+" "+v+"  "+st.Dim.Render(where), w) + "\n")
	indent := strings.Repeat(" ", 15)
	for _, src := range e.Sources {
		name := "the user's text"
		if src.ToolName != nil {
			name = termtext.Line(*src.ToolName + " " + *src.ToolCallID)
		}
		for _, l := range wrapText(sourceText(s.replay, name, src), w-len(indent)) {
			b.WriteString(indent + l + "\n")
		}
		for _, l := range lifetimeLines(s, st, src.Message(), "", w-len(indent)) {
			b.WriteString(indent + l + "\n")
		}
	}
	if e.Verdict == evidence.NeverRead {
		b.WriteString(fit(indent+st.Dim.Render("in no message this conversation sent: typed, not read"), w) + "\n")
	}
	if e.Verdict != evidence.Left {
		return
	}
	switch sug, state := sugs.of(s.call, e.Value); state {
	case sugFound:
		for _, l := range wrapText("would have kept it: "+termtext.Line(sug.Text)+" (K applies)", w-len(indent)) {
			b.WriteString(indent + st.Changed.Render(l) + "\n")
		}
	case sugNone:
		b.WriteString(fit(indent+st.Dim.Render(study.NoneText()), w) + "\n")
	default:
		b.WriteString(fit(indent+st.Dim.Render("looking for a policy that would have kept it…"), w) + "\n")
	}
}

// sourceText says where a source was in view and when it left, in the
// call numbers of the screen: "in list_hosts call_0001 · sent on calls
// 2–6 · evicted at 7 (yielded)".
func sourceText(r *window.Replay, name string, src provenance.Source) string {
	first, last := onScreen(r, src.SentOn[0]), onScreen(r, src.SentOn[1])
	return fmt.Sprintf("in %s · %s · evicted at %d (%s)", name, sentOn(r, first, last), onScreen(r, src.EvictedAt), termtext.Line(src.Rule))
}

// wrapText wraps plain text to w columns.
func wrapText(s string, w int) []string {
	if s == "" {
		return nil
	}
	return strings.Split(ansi.Wrap(s, max(1, w), ""), "\n")
}

// libraryAgreement marks whether inspect's verdict is the library's. Under
// knobs the user changed, the library's (recorded under the recorded
// policy) is shown for reference and not compared.
func libraryAgreement(s *session, st *Styles, lib provenance.Library) string {
	switch {
	case s.changed():
		return st.Dim.Render("recorded under the recorded policy")
	case lib.Agrees:
		return st.Match.Render("inspect agrees")
	}
	return st.Differs.Render("inspect DISAGREES")
}
