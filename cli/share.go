package cli

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/share"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/toolbytes"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// shareCmd is `inspect share`: the replay as one HTML page to send.
func (a *app) shareCmd() *cobra.Command {
	var o options
	var out, calls string
	var sel callRange
	c := a.studyCmd(&cobra.Command{
		Use:   "share [flags] FILE -o PAGE.html",
		Short: "write the replay as one self-contained HTML page to send (--call N or N-M for one finding)",
		Long: `share writes the replay as one HTML page that needs nothing else: no network,
no asset, nothing that runs; it opens from file:// in any browser. It holds
the timeline, every call's window with each turn's fate and the reason for
it, a tool result's own bytes apart from the library's note, the response,
and the flagged values with why each is flagged and what would have kept it
in view: what the terminal UI shows, at the recorded policy or the policy
flags given (the numbers are export's and evidence's). --call N or N-M keeps
those calls only (the file's numbers, as report numbers them).`,
	}, &o, func() error {
		if out == "" {
			return a.usageError("inspect share: name the page to write with -o PAGE.html (- for standard output)")
		}
		if !slices.Contains(inChoices, o.in) {
			return a.usageError("inspect: --in: unknown selection %q (%s)", o.in, strings.Join(inChoices, ", "))
		}
		var err error
		if sel, err = parseCallRange(calls); err != nil {
			return a.usageError("inspect share: --call: %v", err)
		}
		return nil
	}, func(path string, s *study.Study) error {
		if r := s.Replay(); sel.lo > 0 && !hasCallIn(r, sel) {
			if len(r.Calls) == 0 {
				return a.usageError("inspect share: --call %s: the file has no calls", calls)
			}
			return a.usageError("inspect share: --call %s: no call replayed has that number (they are %d–%d, the file's numbers)", calls, r.Calls[0].Call.Number, r.Calls[len(r.Calls)-1].Call.Number)
		}
		p := sharePage(path, s, o.in, sel)
		if out == "-" {
			if err := share.Write(a.stdout, p); err != nil {
				return a.fail(exitFile, err)
			}
			return nil
		}
		f, err := os.Create(out)
		if err == nil {
			err = share.Write(f, p)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return a.fail(exitFile, err)
		}
		if len(p.Views) > manyCalls && !o.quiet {
			fmt.Fprintf(a.stderr, "inspect: %s holds %d calls: a browser may be slow on it; --call N-M writes fewer\n", out, len(p.Views))
		}
		return nil
	})
	fs := c.Flags()
	fs.StringVarP(&out, "output", "o", "", "write the page to `PAGE.html` (- for standard output)")
	fs.StringVar(&calls, "call", "", "only call `N`, or calls N-M (the file's numbers)")
	fs.StringVar(&o.in, "in", inAnswers, "flag the `VALUES` typed in the answers (default), the tool-call arguments, or all")
	return c
}

// manyCalls is how many calls a page holds before share says a browser
// may be slow on it.
const manyCalls = 2000

// callRange is the calls --call keeps, by the file's numbers; lo 0 is
// every call.
type callRange struct{ lo, hi int }

func (r callRange) has(n int) bool { return r.lo == 0 || (n >= r.lo && n <= r.hi) }

// parseCallRange reads "N" or "N-M".
func parseCallRange(s string) (callRange, error) {
	if s == "" {
		return callRange{}, nil
	}
	lo, hi, ranged := strings.Cut(s, "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	b := a
	if err == nil && ranged {
		b, err = strconv.Atoi(strings.TrimSpace(hi))
	}
	if err != nil || a < 1 || b < a {
		return callRange{}, fmt.Errorf("%q is not a call N or a range N-M (1 ≤ N ≤ M)", s)
	}
	return callRange{a, b}, nil
}

func hasCallIn(r *window.Replay, sel callRange) bool {
	for i := range r.Calls {
		if sel.has(r.Calls[i].Call.Number) {
			return true
		}
	}
	return false
}

// sharePage is the page of the replay: the calls as export makes them,
// the flagged values as evidence finds them, each turn's reason in the
// UI's words.
func sharePage(source string, s *study.Study, in string, sel callRange) *share.Page {
	r := s.Replay()
	doc := evidenceReport(source, s, in) // the values judged once, as inspect evidence judges them
	outcomes := provenance.OutcomesByCall(s.Rec)
	minimal := s.Rec.Tier == model.TierMinimal
	policies := map[string]model.Policy{}
	for _, a := range s.Agents {
		policies[a.Agent.Key] = a.Policy
	}
	byCall := map[int][]share.Value{}
	p := &share.Page{Source: termtext.Text(source), Calls: len(r.Calls)}
	for _, v := range doc.Values {
		if !sel.has(v.Call) || !v.Flagged() {
			continue // a value §10 does not flag is information: the count line says how many
		}
		sv := shareValue(doc, v, minimal)
		p.Values = append(p.Values, sv)
		byCall[v.Call] = append(byCall[v.Call], sv)
	}
	p.Facts = shareFacts(s, doc)
	for _, pr := range s.Problems() {
		p.Problems = append(p.Problems, termtext.Text(pr.Message))
	}
	largest := 1
	for i := range r.Calls {
		largest = max(largest, r.Calls[i].WindowChars())
	}
	full := map[*model.Message]share.Message{} // the messages shown in full, by where
	shown, first, last := 0, 0, 0
	for i := range r.Calls {
		c := &r.Calls[i]
		num := c.Call.Number
		on := sel.has(num)
		p.Timeline = append(p.Timeline, share.Tick{Call: num, Height: 8 * c.WindowChars() / largest,
			Evicted: len(c.Visit.Evicted) > 0, Flagged: len(byCall[num]) > 0, Differs: c.Recorded() == window.Differs, Shown: on,
			Title: fmt.Sprintf("call %d: %d messages, %d chars; %s", num, len(c.Visit.After), c.WindowChars(), c.Recorded())})
		if !on {
			continue
		}
		if shown == 0 {
			first = num
		}
		shown, last = shown+1, num
		view := shareCall(r, outcomes, i, policies[agentKey(c.Run)], full)
		view.Values = byCall[num]
		view.Open = sel.lo > 0
		p.Views = append(p.Views, view)
	}
	if sel.lo > 0 {
		p.Shown = fmt.Sprintf("this page holds %s of them", pick(shown, fmt.Sprintf("call %d", first), fmt.Sprintf("calls %d–%d (%d calls)", first, last, shown)))
	}
	return p
}

// shareFacts are the lines above the calls: each agent's policy, the
// windows reproduced, the library rules, the values counted.
func shareFacts(s *study.Study, doc evidenceDoc) []string {
	lead := s.Lead()
	head := "policy"
	if len(s.Agents) > 1 {
		head = "policy of " + lead.Agent.Key
	}
	out := []string{fmt.Sprintf("%s: %s%s (%s); evidence: %s", head, lead.Policy, guessWords(lead), sources(s), lead.Evidence)}
	out = append(out, doc.others...)
	differ, compared := differs(s)
	if compared == 0 {
		out = append(out, "recorded windows reproduced: none to compare (the recording holds no window the library sent)")
	} else {
		out = append(out, fmt.Sprintf("recorded windows reproduced: %d/%d", compared-differ, compared))
	}
	out = append(out, libraryLine(s.Rec), countLine("answers", doc.FlaggedCounts.Answers, doc.NotFlagged.Answers), countLine("arguments", doc.FlaggedCounts.Arguments, doc.NotFlagged.Arguments))
	for i, l := range out {
		out[i] = termtext.Text(l)
	}
	return out
}

// shareValue is a flagged value with its verdict in words.
func shareValue(doc evidenceDoc, v export.Value, minimal bool) share.Value {
	expl := present.VerdictSentence(v.Entry, minimal)
	if v.Own() == evidence.Left || expl == "" {
		src, _ := sourceCells(doc.replay, doc.places, v)
		expl = "left the window: read in " + src
		sources := v.Sources
		if v.Read != nil {
			sources = v.Read.Sources
		}
		var at []string
		for _, s := range sources {
			at = append(at, fmt.Sprintf("call %d (%s)", s.EvictedAt, advise.RuleWords(s.Rule, s.Rules)))
		}
		if len(at) > 0 {
			expl += "; evicted at " + strings.Join(at, ", ")
		}
	}
	keep := ""
	switch {
	case v.Keep != nil:
		keep = v.Keep.Text
	case v.Own() == evidence.Left:
		keep = advise.NoneText()
	}
	return share.Value{Call: v.Call, In: termtext.Text(where(v.Entry)), Typed: termtext.Text(v.Typed), Verdict: v.Own(),
		Explanation: termtext.Text(expl), Keep: termtext.Text(keep)}
}

// shareCall is call i's window as the UI's call view shows it: every
// turn open at it with its fate and reason, the response, the numbers
// report gives.
func shareCall(r *window.Replay, outcomes map[*model.Call]string, i int, p model.Policy, full map[*model.Message]share.Message) share.Call {
	c := &r.Calls[i]
	ec := callFacts(r, outcomes, i)
	v := &c.Visit
	conv := "conversation " + strconv.Itoa(c.Conversation)
	if c.Run.Composition {
		conv = "a composition's own call"
	}
	out := share.Call{Number: c.Call.Number, Recorded: ec.RecordedWindow,
		Head: termtext.Text(fmt.Sprintf("run %d · %s · agent %s · iteration %d · %d messages, %d chars", c.Run.RunNo, conv, agentKey(c.Run), c.Call.Iteration, len(ec.Window), c.WindowChars()))}
	in, tokOut := tokens(c.Call)
	left, why := "-", "-"
	if v.Engaged {
		left, why = leftLine(v), stayedLine(v)
	}
	out.Facts = []string{
		fmt.Sprintf("the window sent: %d messages, %d chars; the provider counted %s tokens in, %s out", len(ec.Window), c.WindowChars(), in, tokOut),
		"left at this call: " + left, "stayed because: " + why, "pins: " + pinsLine(v),
	}
	for k, f := range out.Facts {
		out.Facts[k] = termtext.Text(f)
	}
	if c.Run.Composition && c.Call.Recorded == nil {
		out.NoWindow = "the log holds no window of this call (a composition's own model call)"
	}
	l := r.LedgerAt(i)
	out.Gone = l.Gone()
	for _, row := range l.Own() {
		t := share.Turn{Fate: string(row.Fate), Reason: termtext.Text(present.TurnReason(*row, c, p))}
		for _, m := range row.Messages {
			t.Messages = append(t.Messages, shareMessage(m, c.Call.Number, full))
		}
		out.Turns = append(out.Turns, t)
	}
	resp := ec.Response
	out.Response = share.Response{Content: termtext.Text(resp.Content), Calls: shareToolCalls(resp.ToolCalls)}
	if ec.Usage != nil {
		out.Response.Usage = fmt.Sprintf("%d tokens in, %d out", ec.Usage.Input, ec.Usage.Output)
	}
	if resp.Outcome != nil {
		out.Response.Outcome = present.OutcomeSentence(*resp.Outcome)
	}
	return out
}

// callFacts is what export says of call i besides its turns and its
// values' evidence (which the page takes from evidence and the ledger).
func callFacts(r *window.Replay, outcomes map[*model.Call]string, i int) export.Call {
	c := &r.Calls[i]
	ec := export.Call{Window: c.Visit.After, CallTail: export.CallTail{RecordedWindow: c.Recorded(), Response: export.ResponseOf(c.Call, outcomes[c.Call])}}
	if c.Call.Ended {
		u := c.Call.Usage
		ec.Usage = &u
	}
	return ec
}

// previewRunes is how much of a message a call shows when its full text
// is on the page at an earlier call.
const previewRunes = 160

// shareMessage is m as call number shows it: in full the first time the
// page holds it, after that its start and a link to the full text.
func shareMessage(m *model.Message, number int, full map[*model.Message]share.Message) share.Message {
	if f, ok := full[m]; ok {
		f.Full, f.Own, f.Note = false, "", ""
		f.Calls = slices.Clone(f.Calls)
		for k := range f.Calls {
			f.Calls[k].Args = "" // with the full text
		}
		return f
	}
	sm := share.Message{Anchor: fmt.Sprintf("m%d-%d", number, len(full)), Role: termtext.Text(m.Role), Chars: m.Chars(), Full: true, FirstAt: number}
	if m.ToolName != "" || m.ToolCallID != "" {
		sm.Tool = termtext.Text(strings.TrimSpace(m.ToolName + " " + m.ToolCallID))
	}
	own, note := m.Content, ""
	if m.Role == model.RoleTool {
		own, note = toolbytes.Split(m.Content, m.ToolChars)
	}
	sm.Own, sm.Note, sm.Calls = termtext.Text(own), termtext.Text(note), shareToolCalls(m.ToolCalls)
	var marks []string
	if m.Ephemeral {
		marks = append(marks, "ephemeral")
	}
	if m.Placeholder {
		marks = append(marks, "placeholder: a fold the library never made; its summary is not known")
	}
	sm.Ephemera = strings.Join(marks, ", ")
	sm.Preview = preview(m.Content)
	full[m] = sm
	return sm
}

// preview is the start of s on one line.
func preview(s string) string {
	n := 0
	for i := range s {
		if n == previewRunes {
			return termtext.Line(s[:i]) + "…"
		}
		n++
	}
	return termtext.Line(s)
}

func shareToolCalls(tcs []model.ToolCall) []share.ToolCall {
	var out []share.ToolCall
	for _, tc := range tcs {
		out = append(out, share.ToolCall{ID: termtext.Text(tc.ID), Name: termtext.Text(tc.Name), Args: termtext.Text(string(tc.Args))})
	}
	return out
}
