// Package response draws a call's response in full: its text, tool calls,
// usage, and every value the model typed with its verdict, why, and what
// would have kept it (the i overlay and the detail's response row).
package response

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// The response block (docs/rules/evidence.md §5, §6): what the model answered
// on the call on screen, each of its values with its verdict against the
// replayed window, and for a value whose evidence left, where it went and
// what would have kept it. The verdicts come from package provenance; this
// file only draws them.

// Text is the response at width w, for the overlay (i) and for
// the detail of the response row alike; sel is the selected one of the
// values that left (▸), whose source enter goes to, or -1 in the detail,
// where no value is selected.
func Text(s *session.Session, st *theme.Styles, sugs session.Suggestions, sel, w int) string {
	c := s.Current()
	if c == nil {
		return ""
	}
	r := c.Call.Facts.Response
	var b strings.Builder
	line := func(t string) { b.WriteString(t + "\n") }
	rule := func(t string) {
		line(st.Label.Render("── " + t + " " + strings.Repeat("─", max(0, w-ansi.StringWidth(t)-4))))
	}
	ce := s.EvidenceAt(s.Call)
	file := 0
	if s.FileNumbers() {
		file = c.Call.Number
	}
	for _, l := range wrapText(st.Label.Render(responseHead(c, present.RunPosition(s.Rec, c.Run), file, r)), w) {
		line(l)
	}
	if present.FailedCall(c) {
		t := "the call failed: no reply (no llm_end); the run ended with agentfootprint.error.fatal"
		if c.Run.FatalLine > 0 && c.Run.FatalFile != "" {
			t += fmt.Sprintf(" (%s, line %d)", termtext.Line(c.Run.FatalFile), c.Run.FatalLine)
		} else if c.Run.FatalLine > 0 {
			t += fmt.Sprintf(" (line %d)", c.Run.FatalLine)
		}
		for _, l := range wrapText(st.Error.Render(t), w) {
			line(l)
		}
	}
	if c.Run.Composition {
		for _, l := range wrapText(st.Label.Render("outcome: ")+st.Value.Render(present.CompositionOutcome), w) {
			line(l)
		}
	}
	if o := s.Outcomes[c.Call]; o != "" {
		style := st.Value
		if o == provenance.Refused {
			style = st.Error // nothing reached the caller: never to be read as returned
		}
		for _, l := range wrapText(st.Label.Render("outcome: ")+style.Render(present.OutcomeSentence(o)), w) {
			line(l)
		}
	}
	if c.Recorded() == window.Unknown && !provenance.Unjudged(c) {
		for _, l := range wrapText(st.Unknown.Render("the log does not record what this call was sent: its values are judged against the replay's window"), w) {
			line(l)
		}
	}
	if ce == nil { // the replay's book is still being made (BookFor)
		rule("values")
		line(st.Dim.Render("judging… the values are being checked against the replayed window"))
	} else {
		responseValues(&b, rule, s, st, sugs, sel, w, c, ce)
	}
	rule(fmt.Sprintf("text · %s chars", present.Thousands(model.Len(r.Content))))
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
// own check, then the answer's values and the arguments' apart, each
// with its verdict, and what the keys do.
func responseValues(b *strings.Builder, rule func(string), s *session.Session, st *theme.Styles, sugs session.Suggestions, sel, w int, c *window.CallReplay, ce *provenance.CallEvidence) {
	line := func(t string) { b.WriteString(t + "\n") }
	if lib, ok := provenance.LibraryVerdict(c.Call.Facts.EvidenceChecked, ce); ok {
		t := st.Label.Render("the library's own check: ") + fmt.Sprintf("%s, %d candidates, %s — %s",
			termtext.Line(lib.Action), lib.Candidates, listedWords(lib, ce), libraryAgreement(s, st, lib))
		for _, l := range wrapText(t, w) {
			line(l)
		}
	}
	if provenance.Unjudged(c) {
		rule("values")
		for _, l := range wrapText(present.VerdictSentence(provenance.Entry{Verdict: evidence.Unknown}, false)+"; nothing is flagged or counted", w) {
			line(st.Unknown.Render(l))
		}
		return
	}
	vw, ww := 0, 13
	for _, e := range ce.Values {
		vw = max(vw, ansi.StringWidth(termtext.Line(shownValue(e))))
		ww = max(ww, len(e.Own())) // the verdicts' words are ASCII
	}
	vw = min(vw, max(1, w/3)) // a long value does not push the others' places off screen
	t := provenance.TallyOf(ce)
	left := 0
	// the text of a call that is no answer is narration: it does not
	// reach the caller, and its flags are counted with the arguments
	text, textCount := "answer", t.Answer
	narration := len(c.Call.Facts.Response.ToolCalls) > 0 && s.Outcomes[c.Call] == "" && !c.Run.Composition
	if narration {
		text = "narration"
	}
	for _, side := range []struct {
		in, name string
		count    provenance.Tally
	}{{provenance.InAnswer, text, textCount}, {provenance.InToolCall, "arguments", t.Args}} {
		n := 0
		for _, e := range ce.Values {
			if e.In == side.in {
				n++
			}
		}
		if n == 0 && side.in == provenance.InToolCall {
			continue
		}
		if narration && side.in == provenance.InAnswer {
			side.count = provenance.Tally{}
			for _, e := range ce.Values {
				if e.In == side.in && e.Flagged() {
					side.count.Add(e.Own())
				}
			}
		}
		head := fmt.Sprintf("%s · %s", side.name, present.Plural(n, "value"))
		if side.count.Total() > 0 {
			head += " · " + present.TallyWords(side.count, nil)
		}
		rule(head)
		if n == 0 {
			line(st.Dim.Render("no numbers or identifiers"))
		}
		for _, e := range ce.Values {
			if e.In != side.in {
				continue
			}
			mark := " "
			if e.Own() == evidence.Left {
				if left == sel {
					mark = "▸"
				}
				left++
			}
			valueLines(b, s, st, sugs, mark, e, ww, vw, w)
		}
	}
	responseHints(b, st, left, sel, w)
}

// responseHints are the legend of the strips and what the keys do.
func responseHints(b *strings.Builder, st *theme.Styles, left, sel, w int) {
	hint := ""
	if left > 0 {
		for _, l := range wrapText(present.StripLegend, w) {
			b.WriteString(st.Dim.Render(l) + "\n")
		}
	}
	switch {
	case left > 0 && sel >= 0:
		hint = "tab selects the next value that left; enter goes to the last call its source was in view; K applies its suggestion"
	case left > 0:
		hint = "i (or enter on this row) opens the values: select one that left and go to its source"
	}
	for _, l := range wrapText(hint, w) {
		b.WriteString(st.Dim.Render(l) + "\n")
	}
}

// responseHead names the call — its number in the conversation on
// screen and, when that is not the file's (file is not 0), in the file —,
// its run as the header numbers it, and the response's stop reason and
// usage.
func responseHead(c *window.CallReplay, run, file int, r model.Response) string {
	h := fmt.Sprintf("call %d (run %d, iteration %d)", c.Index+1, run, c.Call.Iteration)
	if file > 0 {
		h = fmt.Sprintf("call %d (file call %d, run %d, iteration %d)", c.Index+1, file, run, c.Call.Iteration)
	}
	if r.StopReason != nil {
		h += " · stop reason " + termtext.Line(*r.StopReason)
	}
	if r.Usage != nil {
		h += fmt.Sprintf(" · %s in / %s out tokens", present.Thousands(r.Usage.Input), present.Thousands(r.Usage.Output))
	}
	return h
}

// listedWords is how many values the library's event lists as
// unsupported, saying so when that is its first 12 of more.
func listedWords(lib provenance.Library, ce *provenance.CallEvidence) string {
	n := 0
	for _, e := range ce.Values {
		if e.In == provenance.InAnswer && e.Unsupported() {
			n++
		}
	}
	if n > len(lib.Unsupported) && len(lib.Unsupported) == evidence.ListedLimit {
		return fmt.Sprintf("%d unsupported listed (the library lists only its first %d; inspect finds %d)", len(lib.Unsupported), evidence.ListedLimit, n)
	}
	return fmt.Sprintf("%d unsupported", len(lib.Unsupported))
}

// shownValue is a value as the screen shows it: a JSON number's token
// (":3727") as the number it stands for (§9.5).
func shownValue(e provenance.Entry) string {
	if e.Read != nil {
		return e.Read.Value
	}
	return e.Value
}

// valueLines writes one value: inspect's own verdict (a JSON number's
// read value's, padded to ww columns), the value (padded to vw columns, so where each value
// was lines up; never cut), where it was — the answer's text, or the
// arguments of a tool call —, and what the verdict says: for a value
// that left its sources, lifetime strip and suggestion.
func valueLines(b *strings.Builder, s *session.Session, st *theme.Styles, sugs session.Suggestions, mark string, e provenance.Entry, ww, vw, w int) {
	where := "text"
	if e.ToolCallID != nil {
		where = "args " + termtext.Line(*e.ToolCallID)
	}
	own := e.Own()
	word := st.Verdict(own).Render(fmt.Sprintf("%-*s", ww, present.Pick(own == "", "no value", own)))
	v := st.Value.Render(termtext.Line(shownValue(e))) // whole: a longer one pushes its place right
	v += strings.Repeat(" ", max(0, vw-ansi.StringWidth(v)))
	b.WriteString(present.Fit(mark+word+" "+v+"  "+st.Dim.Render(where), w) + "\n")
	indent := strings.Repeat(" ", ww+2)
	// every sentence here quotes the recording (tool names, ids, tokens):
	// made safe whole, before it is wrapped and measured
	say := func(t string, style lipgloss.Style) {
		for _, l := range wrapText(termtext.Line(t), w-len(indent)) {
			b.WriteString(indent + style.Render(l) + "\n")
		}
	}
	if e.Read != nil {
		say(readSentence(e), st.Dim)
	}
	if t := present.VerdictSentence(e, s.Rec.Tier == model.TierMinimal); t != "" {
		say(t, st.Dim)
	}
	if t := present.FlagSentence(e); t != "" {
		say(t, st.Dim)
	}
	if c := s.Current(); c != nil {
		if i, ok := present.PieceHolding(c.Call.Request, own, e.Value); ok {
			say("in the system prompt: its "+present.PieceName(c.Call.Request.SystemPrompt.Pieces[i])+" piece (S shows it)", st.Dim)
		}
	}
	if own != evidence.Left {
		return
	}
	for _, src := range e.OwnSources() {
		say(sourceText(s, present.SourceWho(src), src), lipgloss.NewStyle())
		for _, l := range present.LifetimeLines(common.StripOf(s), st, src.Message(), "", w-len(indent)) {
			b.WriteString(indent + l + "\n")
		}
	}
	if !e.Flagged() {
		return // nothing to fix
	}
	switch sug, state := sugs.Of(s.Call, e.Value); state {
	case session.SugFound:
		say("would have kept it: "+termtext.Line(sug.Text)+" (K applies)", st.Changed)
	case session.SugNone:
		t := session.NoPolicyKeeps()
		if sugs.KeepsAll != "" && e.In == provenance.InAnswer { // further than the search goes, the advisor's pick keeps every answer value
			t += "; the advisor's " + sugs.KeepsAll + ", further away, keeps every answer's values in view (P)"
		}
		say(t, st.Dim)
	default:
		say("looking for a policy that would have kept it…", st.Dim)
	}
}

// readSentence says what a JSON number's token is read as (§9.5): the
// library reads ":3727" as a token no tool result holds; it is 3727.
func readSentence(e provenance.Entry) string {
	if e.Own() == "" {
		return fmt.Sprintf("typed as %s in JSON: the library reads the token %s (%s); the number %s has too few digits to be a value", termtext.Line(e.Value), termtext.Line(e.Value), e.Verdict, termtext.Line(e.Read.Value))
	}
	return fmt.Sprintf("typed as %s in JSON: the library reads the token %s (%s); inspect reads the number %s", termtext.Line(e.Value), termtext.Line(e.Value), e.Verdict, termtext.Line(e.Read.Value))
}

// sourceText says where a source was in view and when it left, in the
// call numbers of the screen: "in list_hosts call_0001 · sent on calls
// 2–6 · evicted at 7 (yielded)"; where the policy on screen is a guess
// among equally good ones that give other rules, all of them
// ("superseded or pins-off").
func sourceText(s *session.Session, name string, src provenance.Source) string {
	r := s.Replay
	first, last := session.OnScreen(r, src.SentOn[0]), session.OnScreen(r, src.SentOn[1])
	return fmt.Sprintf("in %s · %s · evicted at %d (%s)", name, present.SentOn(r, first, last), session.OnScreen(r, src.EvictedAt), termtext.Line(s.RuleWords(src)))
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
func libraryAgreement(s *session.Session, st *theme.Styles, lib provenance.Library) string {
	switch {
	case s.Changed():
		return st.Dim.Render("recorded under the recorded policy")
	case lib.Agrees:
		return st.Match.Render("inspect agrees")
	}
	return st.Differs.Render("inspect DISAGREES")
}
