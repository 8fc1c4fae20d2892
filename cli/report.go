package cli

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// reportCmd is `inspect report`: the replay as a plain-text table.
func (a *app) reportCmd() *cobra.Command {
	var o options
	c := a.studyCmd(&cobra.Command{
		Use:   "report [flags] FILE",
		Short: "print the replay as a plain-text table, one row per call",
		Long: `report prints the replay as a plain-text table, one row per call: the window
the replay sent (MSGS, CHARS), the provider's tokens, what left and what
stayed, the pins, whether the window is the one the library recorded, and
what the model answered; then each agent's policy and the problems.
An absent policy flag is inferred from the recording.`,
	}, &o, func() error {
		if o.format != "table" && o.format != "markdown" {
			return a.usageError("inspect report: unknown --format %q (table or markdown)", o.format)
		}
		return nil
	}, func(path string, s *study.Study) error {
		var err error
		if o.format == "markdown" {
			err = writeReportMarkdown(a.stdout, path, s)
		} else {
			err = writeReport(a.stdout, s, useColor(a.stdout))
		}
		if err != nil {
			return a.fail(exitFile, err)
		}
		return a.failOnDiffers(o, s)
	})
	c.Flags().StringVar(&o.format, "format", "table", "`FORMAT`: table | markdown (to paste into an issue: the table, the flagged\nvalues, each call's window in a collapsible block)")
	o.failDifferFlag(c.Flags())
	return c
}

// failOnDiffers ends with status 3 under --fail-on-differs when a
// recorded window is not reproduced.
func (a *app) failOnDiffers(o options, s *study.Study) error {
	if differ, compared := differs(s); o.failDiffer && differ > 0 {
		fmt.Fprintf(a.stderr, "inspect: %d of %d recorded windows not reproduced under %s (--fail-on-differs)\n", differ, compared, s.Lead().Policy)
		return exitCode(exitDiffers)
	}
	return nil
}

// writeReport prints the replay as a table, one row per call, then the
// policy and the problems. Colour only marks a recorded-window mismatch.
// MSGS and CHARS are the replayed window's; RECORDED says whether it is
// the one the library sent (TOK IN counted what the library sent).
func writeReport(out io.Writer, s *study.Study, color bool) error {
	w := bufio.NewWriterSize(out, 1<<16) // the table writes cell by cell: one write a cell without it
	if err := writeReportTo(w, s, color); err != nil {
		return err
	}
	return w.Flush()
}

func writeReportTo(w io.Writer, s *study.Study, color bool) error {
	calls := s.Replay().Calls
	outcomes := provenance.OutcomesByCall(s.Rec)
	rows := make([]string, len(calls)+1)
	rows[0] = "CALL\tRUN\tCONV\tAGENT\tITER\tMSGS\tCHARS\tTOK IN\tTOK OUT\tLEFT\tSTAYED BECAUSE\tPINS\tRECORDED\tOUTCOME\tPRODUCED\n"
	half := len(calls) / 2 // rows are independent: two goroutines make them
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range calls[:half] {
			rows[i+1] = callRow(&calls[i], outcomes[calls[i].Call], color)
		}
	})
	for i := half; i < len(calls); i++ {
		rows[i+1] = callRow(&calls[i], outcomes[calls[i].Call], color)
	}
	wg.Wait()
	if err := writeTable(w, rows); err != nil {
		return err
	}
	for i := range calls {
		if outcomes[calls[i].Call] == provenance.Refused {
			fmt.Fprintf(w, "call %d refused: run() threw UnsupportedValuesError; the caller got nothing\n", calls[i].Call.Number)
		}
	}
	// one agent: "policy:"; several: each line names its agent
	head, lead := "policy", s.Lead()
	if len(s.Agents) > 1 {
		head = "policy of " + termtext.Line(lead.Agent.Key)
	}
	fmt.Fprintf(w, "\n%s: %s%s\n  %s\n  evidence: %s\n", head, termtext.Line(lead.Policy.String()), guessWords(lead), sources(s), termtext.Line(lead.Evidence))
	for _, a := range s.Agents[min(1, len(s.Agents)):] { // the first is the line above
		how := "given"
		switch {
		case a.Agent.Composition:
			how = "composition"
		case a.Inferred:
			how = "inferred"
		}
		fmt.Fprintf(w, "policy of %s (%s): %s%s\n  evidence: %s\n", termtext.Line(a.Agent.Key), how, termtext.Line(a.Policy.String()), guessWords(a), termtext.Line(a.Evidence))
	}
	for _, a := range s.Agents {
		if a.GuessFor(a.Policy).Any() {
			fmt.Fprintln(w, "  (a guess: PINS and STAYED BECAUSE are under the value chosen; the same windows were sent under each)")
			break
		}
	}
	differ, compared := differs(s)
	if compared == 0 {
		fmt.Fprintln(w, "recorded windows reproduced: none to compare (the recording holds no window the library sent)")
	} else {
		fmt.Fprintf(w, "recorded windows reproduced: %d/%d\n", compared-differ, compared)
	}
	fmt.Fprintln(w, termtext.Line(libraryLine(s.Rec)))
	if problems := s.Problems(); len(problems) > 0 {
		fmt.Fprintf(w, "problems (%d):\n", s.ProblemCount())
		for _, p := range problems {
			fmt.Fprintf(w, "  %s\n", termtext.Line(p.Message))
		}
	}
	return nil
}

// libraryLine says whose window rules the replay followed and how that
// was decided (docs/rules/versions-and-tiers.md §17.2), and the tier the log was written
// at (§16.2).
func libraryLine(rec *model.Recording) string {
	l := libraryObject(rec)
	named := "no version named"
	if l.Version != nil {
		named = "version " + *l.Version
	}
	if o := rec.Library.Others; o != "" {
		named += "; replayed under each: " + o
	}
	return fmt.Sprintf("library: the %s window rules (%s; from %s: %s); written at tier %s", window.RulesNamed(l.Rules).Versions(), named, l.Source, l.Evidence, tierOf(rec))
}

// callRow is one call's row of the table, tab-separated; outcome is what
// became of its answer ("" for a call that is no answer).
func callRow(c *window.CallReplay, outcome string, color bool) string {
	v := &c.Visit
	left, why := "-", "-"
	if v.Engaged {
		left, why = leftLine(v), stayedLine(v)
	}
	recorded := c.Recorded()
	if color && recorded == window.Differs {
		recorded = "\x1b[31m" + recorded + "\x1b[0m"
	}
	in, out := tokens(c.Call)
	conv, msgs, chars := strconv.Itoa(c.Conversation), strconv.Itoa(len(v.After)), strconv.Itoa(c.WindowChars())
	if c.Run.Composition { // a composition's own call: no conversation, and no window unless the log has it (§15.5)
		conv = "-"
		if c.Call.Recorded == nil {
			msgs, chars = "-", "-"
		}
	}
	if outcome == "" {
		outcome = "-"
	}
	return fmt.Sprintf("%d\t%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Call.Number, c.Run.RunNo, conv,
		termtext.Line(agentKey(c.Run)), c.Call.Iteration, msgs, chars, in, out,
		termtext.Line(left), termtext.Line(why), termtext.Line(pinsLine(v)), recorded, outcome, termtext.Line(produced(c.Call)))
}

// leftLine names what left at this call's head: the tools each evicted
// turn called or answered for (its role when it had none), and whether a
// drop notice or a summary frame took their place — words a grep can find.
func leftLine(v *window.Visit) string {
	if len(v.Evicted) == 0 {
		return "-"
	}
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, t := range v.Turns() {
		if !t.Evicted {
			continue
		}
		msgs := v.Before[t.Start : t.Start+t.Length]
		tools := 0
		for _, m := range msgs {
			for _, tc := range m.ToolCalls {
				add(tc.Name)
				tools++
			}
			if m.ToolName != "" {
				add(m.ToolName)
				tools++
			}
		}
		switch {
		case tools > 0:
		case msgs[0].IsNotice():
			add("notice")
		case msgs[0].IsFrame():
			add("summary")
		default:
			add(msgs[0].Role)
		}
	}
	s := strings.Join(names, ",")
	switch {
	case v.Notice != nil:
		s += " +notice"
	case v.Frame != nil && v.Frame.Placeholder:
		s += " folded +summary (placeholder: not recorded)"
	case v.Frame != nil:
		s += " folded +summary"
	}
	return s
}

// tokens is the provider-reported input and output of a call, "-" for a
// call that never ended.
func tokens(c *model.Call) (in, out string) {
	if !c.Ended {
		return "-", "-"
	}
	return strconv.Itoa(c.Usage.Input), strconv.Itoa(c.Usage.Output)
}

// stayedLine names the refusals that kept turns out of the span (the keep
// window is implied), in the library's words.
func stayedLine(v *window.Visit) string {
	var reasons []string
	for _, r := range v.Record.Refusals {
		if r.Reason != model.ReasonInsideKeepWindow && !slices.Contains(reasons, r.Reason) {
			reasons = append(reasons, r.Reason)
		}
	}
	if v.StandDown {
		reasons = append(reasons, "(pins stood down)")
	}
	if len(reasons) == 0 {
		return "-"
	}
	return strings.Join(reasons, ",")
}

func pinsLine(v *window.Visit) string {
	if len(v.Pins) == 0 {
		return "-"
	}
	names := make([]string, len(v.Pins))
	for i, p := range v.Pins {
		names[i] = p.ToolName
	}
	s := strings.Join(names, ",")
	if v.Yielded > 0 {
		s += fmt.Sprintf(" (+%d yielded)", v.Yielded)
	}
	return s
}

// agentKey is the key of a run's agent ("-" for a run built by hand).
func agentKey(r *model.Run) string {
	if r.Agent == nil {
		return "-"
	}
	return r.Agent.Key
}

// writeTable writes lines (each tab-separated cells and a line end) as
// text/tabwriter with padding 2 and spaces lays them out, without its
// copy of every cell: on 20,000 runs the copy was the largest thing the
// report held. Lines of another shape than one table of equal columns
// go through tabwriter itself.
func writeTable(w io.Writer, lines []string) error {
	widths, ok := columnWidths(lines)
	if !ok {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, l := range lines {
			io.WriteString(tw, l)
		}
		return tw.Flush()
	}
	pad := strings.Repeat(" ", slices.Max(append(widths, 0)))
	for _, l := range lines {
		for j := range widths {
			cell, rest, _ := strings.Cut(l, "\t")
			l = rest
			if _, err := io.WriteString(w, cell); err != nil {
				return err
			}
			if _, err := io.WriteString(w, pad[:widths[j]-utf8.RuneCountInString(cell)]); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, l); err != nil {
			return err
		}
	}
	return nil
}

// columnWidths is each column's width as tabwriter gives it (the most
// runes of its cells, plus 2), when every line has the same number of
// cells, ends with its one line end and holds none of the bytes
// tabwriter reads otherwise (\v, \f, its escape 0xff).
func columnWidths(lines []string) ([]int, bool) {
	if len(lines) == 0 {
		return nil, false
	}
	n := strings.Count(lines[0], "\t")
	widths := make([]int, n)
	for _, l := range lines {
		if !strings.HasSuffix(l, "\n") || strings.IndexByte(l, '\n') != len(l)-1 || strings.ContainsAny(l, "\v\f") || strings.IndexByte(l, 0xff) >= 0 || strings.Count(l, "\t") != n {
			return nil, false
		}
		for j := range n {
			cell, rest, _ := strings.Cut(l, "\t")
			l = rest
			widths[j] = max(widths[j], utf8.RuneCountInString(cell)+2)
		}
	}
	return widths, true
}
