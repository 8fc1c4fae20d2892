package advisor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/tui/theme"
)

// What the advisor's view draws: while the sweep runs, how far it has
// got; then the chart beside the frontier's table, the picks, and what
// the numbers do not say. The recording's own text on it is the agent's
// key and a strategy's name, both through termtext.

// The least room the answer is drawn in: the chart's columns beside the
// table, the lines of the chart and the table; below, the view says it
// needs more.
const (
	advisorMinChart = 16
	advisorMinBody  = 6
)

// honestWords is what every row is, and what it is not.
const honestWords = "The RECORDED responses judged against each policy's windows: what the model would then have typed is unknown."

// Title is the view's frame Title.
func (a *Pane) Title() string {
	return "Policy advisor · agent " + termtext.Line(a.agent) + " (↑/↓ frontier, enter applies, q closes)"
}

func (a *Pane) View() string {
	w, h := a.width, a.height
	say := func(s string) string { return present.Lines(ansi.Wrap(s, max(1, w), ""), w, h) }
	switch {
	case a.none != "":
		return say(a.st.Dim.Render("nothing to advise: " + a.none))
	case a.failed != nil:
		return say(a.st.Error.Render("the sweep stopped: " + termtext.Line(a.failed.Error())))
	case a.advice == nil:
		return say(a.progressText(w))
	}
	if s, ok := a.answerView(w, h); ok {
		return present.Lines(s, w, h)
	}
	return say(a.st.Unknown.Render(fmt.Sprintf("the advisor needs more room than %d×%d inside its frame: make the terminal larger (80×24 will do)", w, h)))
}

// progressText is the sweep's progress.
func (a *Pane) progressText(w int) string {
	var b strings.Builder
	doing, count := session.AdviseProgress(termtext.Line(a.agent), a.done, a.total)
	b.WriteString(doing + "\n\n")
	if a.total > 0 {
		bar := theme.NewLoadBar()
		bar.Width = max(10, min(40, w-30))
		fmt.Fprintf(&b, "%s  %s\n", bar.ViewAs(float64(a.done)/float64(a.total)), count)
	} else {
		b.WriteString(count + "\n")
	}
	b.WriteString("\n" + a.st.Dim.Render("esc, q or P closes the view and gives the sweep up"))
	return b.String()
}

// answerView lays the answer out: a summary line when there is room,
// the chart beside the table, then the lines under them — the picks,
// the legend and the honest sentence always; the row under the cursor,
// what the columns count, how tokens are estimated, the values never
// read, while room is left. Not ok when the least room is not there.
func (a *Pane) answerView(w, h int) (string, bool) {
	ad := a.advice
	short := w < 110
	legend := chartLegend
	if short {
		legend = chartLegendShort
	}
	picks := append(a.pickLines(short, w), a.st.Dim.Render(present.Fit(legend, w)))
	honest := wrapped(a.st.Title.Render(honestWords), w)
	dim := func(s string) []string { return wrapped(a.st.Dim.Render(s), w) }
	opt := [][]string{wrapped(a.cursorLine(), w), dim(a.columnsWords()), dim(fitWords(ad.Fit)), dim(a.neverWords())}
	if n := len(ad.Unbounded); n > 0 {
		opt = append(opt, dim(fmt.Sprintf("left out, %d token-threshold policies: their windows grew past %d times the recorded ones (a threshold a replay seldom engages keeps whole histories), so their replay was given up",
			n, session.AdviseGrowth)))
	}
	need := max(1+len(a.rows), 2*advisorMinBody) // the table whole, or a usable chart
	body := h - len(picks) - len(honest)
	if body < advisorMinBody {
		return "", false
	}
	var top []string
	if body > need {
		top, body = []string{present.Fit(a.summaryLine(), w)}, body-1
	}
	var more []string
	for _, ls := range opt {
		if body-len(ls) >= need {
			more, body = append(more, ls...), body-len(ls)
		}
	}
	table := a.tableLines(short, body)
	tw := 0
	for _, l := range table {
		tw = max(tw, ansi.StringWidth(l))
	}
	cw := w - tw - 2
	if cw < advisorMinChart {
		return "", false
	}
	chart := a.chartView(a.Selected(), cw, body)
	out := append(top, present.JoinColumns(present.Lines(chart, cw+2, body), present.Lines(strings.Join(table, "\n"), tw, body)))
	out = append(out, picks...)
	out = append(out, more...)
	return strings.Join(append(out, honest...), "\n"), true
}

// summaryLine names the agent, its calls and its recorded policy.
func (a *Pane) summaryLine() string {
	ad := a.advice
	how := "stated by the log"
	if ad.Inferred {
		how = "inferred"
	}
	files := ""
	if ad.Disagree {
		files = "; the files disagree"
	}
	return a.st.Label.Render("agent ") + a.st.Value.Render(termtext.Line(ad.Agent)) +
		a.st.Label.Render(fmt.Sprintf(" · %s in the file · recorded ", present.Plural(ad.Calls, "call"))) +
		a.st.Value.Render(PolicyName(ad.Recorded, false)) + a.st.Label.Render(fmt.Sprintf(" (%s%s) · %d policies tried", how, files, len(ad.Rows)))
}

// tableLines are the table's header and as many of its rows as fit in
// n lines, the cursor's among them.
func (a *Pane) tableLines(short bool, n int) []string {
	ad := a.advice
	head := []string{"", "POLICY", "≈TOKENS", "VS REC", "ANS OUT", "ARG OUT", "NOTICES", "DIFFERS"}
	gap := 2
	if short {
		head, gap = []string{"", "POLICY", "≈TOK", "VS REC", "ANS", "ARG", "NOTE", "DIFF"}, 1
	}
	rec := ad.Rows[ad.RecordedRow]
	cells := [][]string{head}
	for k, i := range a.rows {
		r := ad.Rows[i]
		mark := " "
		if k == a.cursor {
			mark = "▸"
		}
		if i == ad.RecordedRow {
			mark += string(glyphRecorded)
		} else {
			mark += " "
		}
		if a.onScreen(i) {
			mark += string(glyphOnScreen)
		}
		cells = append(cells, []string{mark, PolicyName(r.Policy, short), present.Thousands(r.Tokens), against(r.Tokens, rec.Tokens),
			strconv.Itoa(r.OutOfView.Answers), strconv.Itoa(r.OutOfView.Arguments), strconv.Itoa(r.DropNotices), strconv.Itoa(r.Differs)})
	}
	width := make([]int, len(head))
	for _, row := range cells {
		for c, s := range row {
			width[c] = max(width[c], ansi.StringWidth(s))
		}
	}
	first := max(0, min(a.cursor-(n-1)/2, len(a.rows)-(n-1))) // the rows on screen keep the cursor in their middle
	var out []string
	for k, row := range cells {
		if k > 0 && (k-1 < first || k-1 >= first+n-1) {
			continue
		}
		var b strings.Builder
		for c, s := range row {
			if c > 0 {
				b.WriteString(strings.Repeat(" ", gap))
			}
			padding := strings.Repeat(" ", width[c]-ansi.StringWidth(s))
			if c >= 2 { // numbers, right-aligned
				s = padding + s
			} else {
				s += padding
			}
			b.WriteString(s)
		}
		l := b.String()
		switch {
		case k == 0:
			l = a.st.Label.Render(l)
		case k-1 == a.cursor:
			l = a.st.Hit.Render(l)
		}
		out = append(out, l)
	}
	return out
}

// pickLines name the two picks, each with its saving or cost against
// the recorded policy.
func (a *Pane) pickLines(short bool, w int) []string {
	ad := a.advice
	line := func(name string, p *session.Pick, none string) string {
		if p == nil {
			return present.Fit(a.st.Label.Render(name+": ")+none, w)
		}
		return present.Fit(a.st.Label.Render(name+": ")+a.st.Value.Render(PolicyName(ad.Rows[p.Row].Policy, short))+", "+saving(p, short), w)
	}
	return []string{
		line("keeps everything", ad.KeepsEverything, "no policy tried keeps in view every value the recorded answers used"),
		line("no worse", ad.NoWorse, "none"),
	}
}

// saving is a pick's tokens against the recorded policy's.
func saving(p *session.Pick, short bool) string {
	switch {
	case p.Delta == 0:
		return "as many ≈tokens as the recorded policy"
	case p.Delta < 0 && short:
		return fmt.Sprintf("saves ≈%s tokens (%.1f%%)", present.Thousands(-p.Delta), -p.Percent)
	case p.Delta < 0:
		return fmt.Sprintf("saves ≈%s tokens (%.1f%%) against the recorded policy", present.Thousands(-p.Delta), -p.Percent)
	case short:
		return fmt.Sprintf("costs ≈%s tokens more (+%.1f%%)", present.Thousands(p.Delta), p.Percent)
	}
	return fmt.Sprintf("costs ≈%s tokens more (+%.1f%%) than the recorded policy", present.Thousands(p.Delta), p.Percent)
}

// cursorLine says the row under the cursor in full.
func (a *Pane) cursorLine() string {
	ad := a.advice
	i := a.Selected()
	r := ad.Rows[i]
	return fmt.Sprintf("▸ %s%s: ≈%s tokens, the largest window ≈%s; out of view: %s, %s; %s; %s not as recorded. enter applies it",
		PolicyName(r.Policy, false), RowRole(ad, i)+a.onScreenWords(i), present.Thousands(r.Tokens), present.Thousands(r.PeakTokens),
		present.Plural(r.OutOfView.Answers, "answer value"), present.Plural(r.OutOfView.Arguments, "argument value"),
		present.Plural(r.DropNotices, "drop notice"), present.Plural(r.Differs, "call"))
}

// columnsWords says what the table's columns count.
func (a *Pane) columnsWords() string {
	return "ANS OUT, ARG OUT: values typed in the answers, in tool-call arguments, whose source was out of view · NOTICES: drop notices written · DIFFERS: calls whose window is not the recorded one"
}

// neverWords counts the values no policy changes.
func (a *Pane) neverWords() string {
	n := a.advice.NeverRead
	return fmt.Sprintf("never read under any policy (in no message of the conversation), not counted above: %s, %s",
		present.Plural(n.Answers, "answer value"), present.Plural(n.Arguments, "argument value"))
}

// wrapped is s wrapped at w, a line each.
func wrapped(s string, w int) []string { return strings.Split(ansi.Wrap(s, max(1, w), ""), "\n") }

// fitWords says how tokens are estimated from characters.
func fitWords(f session.Fit) string {
	switch {
	case f.Calls == 0:
		return "≈tokens: " + fitChars(f) + "s / 4 (the log records no usage.input to fit them on)"
	case f.Base == 0:
		return fmt.Sprintf("≈tokens: %.3f a "+fitChars(f)+", the recorded calls' usage.input over their characters (%s)", f.PerChar, present.Plural(f.Calls, "call"))
	}
	return fmt.Sprintf("≈tokens: %.0f + %.3f a "+fitChars(f)+" per call, fitted on %s' usage.input (R² %.2f)", f.Base, f.PerChar, present.Plural(f.Calls, "recorded call"), f.R2)
}

// onScreen reports whether row i is the policy on screen, the knobs
// having moved it off the recorded one.
func (a *Pane) onScreen(i int) bool {
	return a.Shown != nil && a.advice != nil && a.advice.Rows[i].Policy == *a.Shown
}

// onScreenWords is " (on screen)" for the row of the policy on screen.
func (a *Pane) onScreenWords(i int) string {
	if a.onScreen(i) {
		return " (" + string(glyphOnScreen) + " on screen)"
	}
	return ""
}

// RowRole names what row i of the advice is besides a point of the
// frontier: the recorded policy, a pick.
func RowRole(ad *session.Advice, i int) string {
	var out []string
	if i == ad.RecordedRow {
		out = append(out, "recorded")
	}
	if ad.KeepsEverything != nil && ad.KeepsEverything.Row == i {
		out = append(out, "keeps everything")
	}
	if ad.NoWorse != nil && ad.NoWorse.Row == i {
		out = append(out, "no worse")
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

// RowCost is what applying row i costs, in the advisor's own figures:
// "≈41,230 tok vs 38,100 recorded (+8.2%); 2 values still out of view
// (1 in answers)".
func RowCost(ad *session.Advice, i int) string {
	row, rec := ad.Rows[i], ad.Rows[ad.RecordedRow]
	return CostWords(session.Cost{Tokens: row.Tokens, Recorded: rec.Tokens, OutOfView: row.OutOfView})
}

// against is tokens against the recorded policy's, in %.
func against(tokens, recorded int) string {
	if tokens == recorded || recorded == 0 {
		return "="
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(tokens-recorded)/float64(recorded))
}

// PolicyName is a policy in a few words: K keepRecentTurns, L
// keepLastToolResults, T thresholdTokens; short, the strategy in one
// word.
func PolicyName(p model.Policy, short bool) string {
	name := termtext.Line(p.Strategy)
	if short {
		switch p.Strategy {
		case model.SlidingWindow:
			name = "sliding"
		case model.TokenBudget:
			name = "budget"
		case model.SummarizeOldest:
			name = "summarize"
		}
	}
	s := fmt.Sprintf("%s K%d L%d", name, p.KeepRecentTurns, p.KeepLastToolResults)
	if p.NeedsThreshold() {
		s = fmt.Sprintf("%s T%d K%d L%d", name, p.ThresholdTokens, p.KeepRecentTurns, p.KeepLastToolResults)
	}
	if p.NoAnchor {
		s += " no-anchor"
	}
	return s
}

// fitChars names the characters the fit counts: the window's, and the
// system prompt's where the log holds its length.
func fitChars(f session.Fit) string {
	if f.Prompt {
		return "window or system-prompt character"
	}
	return "window character"
}

// CostWords says what a policy costs: "≈41,038 tok vs 34,790 recorded,
// +18.0%; 2 values still out of view, 1 in answers".
func CostWords(c session.Cost) string {
	s := fmt.Sprintf("≈%s tok vs %s recorded, %s", present.Thousands(c.Tokens), present.Thousands(c.Recorded), against(c.Tokens, c.Recorded))
	n := c.OutOfView.Answers + c.OutOfView.Arguments
	if n == 0 {
		return s + "; no value out of view"
	}
	return s + fmt.Sprintf("; %d %s still out of view, %d in answers", n, present.Pick(n == 1, "value", "values"), c.OutOfView.Answers)
}
