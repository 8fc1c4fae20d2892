package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
)

// adviseCmd is `inspect advise`: which window policy each agent should
// run, from its own recordings.
func (a *app) adviseCmd() *cobra.Command {
	var o options
	c := &cobra.Command{
		Use:   "advise [flags] FILE…",
		Short: "which window policy each agent should run: tokens against values out of view, over a grid of policies",
		Long: `advise replays each agent's calls under a grid of window policies —
sliding-window at keepRecentTurns 1–10 × keepLastToolResults 0–5; token-budget
and (where its folds are recorded) summarize-oldest at 0.5, 0.75, 1, 1.5 and 2×
the recorded threshold (else the largest input) × keepRecentTurns 1–10, less
the thresholds no replay engages; and the recorded policy — and gives for each
the characters sent, the input tokens (≈, fitted on the recorded calls'
usage.input), the largest window, and the values of the recorded responses
that would have been out of view when typed (answers and tool-call arguments
apart). Then the Pareto frontier (fewest tokens for each number of answer
values out of view) and two picks: the cheapest policy that keeps in view
every value the recorded answers used, and the cheapest that loses no more
than the recorded one. Several files are read as one application's history
(a rotated log, a directory of envelopes), as every command reads them.

These are the RECORDED responses judged against another policy's windows:
what the model would have typed under that policy is unknown.`,
		RunE: func(c *cobra.Command, files []string) error {
			o.noteGiven(c.Flags())
			return a.advise(files, o)
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.agent, "agent", "", "only agent `KEY` (default: every agent but a composition's own calls)")
	fs.StringVar(&o.format, "format", "table", "`FORMAT`: table or json (inspect.advise.v1)")
	fs.StringVar(&o.library, "library-version", "", "replay under agentfootprint `X.Y.Z`'s window rules (before 9.57.0 no pins, so\nkeepLastToolResults 0 only); else each file's envelope, else its own evidence")
	o.quietFlag(fs)
	o.inputFlags(fs)
	return c
}

func (a *app) advise(files []string, o options) error {
	switch {
	case len(files) == 0:
		return a.usageError("inspect advise: which file? (inspect advise [flags] FILE…)")
	case o.format != "table" && o.format != "json":
		return a.usageError("inspect advise: unknown --format %q (table or json)", o.format)
	case countOf(files, "-") > 1:
		return a.usageError("inspect advise: standard input (-) can be read once")
	}
	if err := a.ready(&o, ""); err != nil {
		return err
	}
	for _, f := range files {
		if err := checkFile(f); err != nil {
			return a.fail(exitFile, err)
		}
	}
	memoryTarget()
	studies, err := a.openAll(files, o)
	if err != nil {
		return err
	}
	if o.agent != "" {
		if err := hasAgent(studies, o.agent); err != nil {
			fmt.Fprintf(a.stderr, "inspect: %s\n", termtext.Line(err.Error()))
			return exitCode(exitUsage)
		}
	}
	var progress func(done, total int)
	if isTerminal(a.raw) && !o.quiet {
		progress = adviseProgress(a.raw, termtext.Line(o.agent), outputWidth(a.raw))
	}
	room := memoryRoom()
	show := progress
	progress = func(done, total int) {
		room(done)
		if show != nil {
			show(done, total)
		}
	}
	advice, err := advise.Files(context.Background(), studies, o.agent, progress)
	if show != nil {
		fmt.Fprint(a.raw, "\r\x1b[K")
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	if o.format == "json" {
		err = export.WriteAdvise(a.stdout, adviseDoc(files, advice))
	} else {
		err = writeAdvice(a.stdout, advice)
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	return nil
}

// adviseProgress draws the advisor's progress on the terminal w of width
// columns, in the UI's words (advise.Progress), on one line the next
// draw (and the end) erases: at once, then at most every 100 ms, and
// the last policy. What is doing is shortened before the count is.
func adviseProgress(w io.Writer, agent string, width int) func(done, total int) {
	draw := func(done, total int) {
		doing, count := advise.Progress(agent, done, total)
		line := "inspect: " + doing + " " + count
		if room := width - 1; ansi.StringWidth(line) > room {
			keep := room - ansi.StringWidth("inspect:  "+count)
			line = "inspect: " + ansi.Truncate(doing, max(0, keep), "…") + " " + count
			line = ansi.Truncate(line, max(0, room), "")
		}
		fmt.Fprint(w, "\r\x1b[K"+line)
	}
	draw(0, 0)
	last := time.Now()
	return func(done, total int) {
		if done == total || time.Since(last) >= 100*time.Millisecond {
			draw(done, total)
			last = time.Now()
		}
	}
}

// memoryTarget has the runtime collect once the heap has grown by half
// of what the last collection left (GOGC=50), unless GOGC or GOMEMLIMIT
// say otherwise: the sweep makes a replay after another and lets each go
// once tallied, and the default collector would let that garbage double
// the heap. A fixed limit (it was 0.4 of the files' size) has the
// collector run without pause once what the sweep holds nears it: on
// 16,000 follow-ups of a 123 MB log advise took five times the CPU of
// 8,000, most of it collecting.
func memoryTarget() {
	_, gogc := os.LookupEnv("GOGC")
	if _, limit := os.LookupEnv("GOMEMLIMIT"); gogc || limit {
		return
	}
	debug.SetGCPercent(50)
}

// memoryRoom is told each policy replayed and keeps memoryTarget's limit
// at least twice the live heap: the sweep keeps what it found of every
// agent (about 2.5 times a many-agent file's size, linear in it), and a
// limit below twice that has the collector run without end (400 agents
// of 208 KB: 12 s instead of 4). It looks every 16 policies.
func memoryRoom() func(done int) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return func(int) {}
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	return func(done int) {
		if done%16 != 0 {
			return
		}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		live := int64(s[0].Value.Uint64())
		if limit := debug.SetMemoryLimit(-1); 2*live > limit {
			debug.SetMemoryLimit(2 * live)
		}
	}
}

// openAll opens the files as one application's history (a rotated log,
// the envelopes of one conversation, a directory), as every command
// does: a follow-up in a later file continues its run in an earlier one.
// The problems are said on stderr.
func (a *app) openAll(files []string, o options) ([]*study.Study, error) {
	rec, err := a.start(files, o.maxLine(), false).Wait()
	if err != nil {
		return nil, a.fail(exitFile, err)
	}
	s, err := study.Open(rec, study.Request{Library: o.library})
	if err != nil {
		return nil, a.fail(exitUsage, err)
	}
	for _, p := range s.Problems() {
		fmt.Fprintln(a.stderr, termtext.Line(p.Message))
	}
	return []*study.Study{s}, nil
}

// hasAgent is nil when some file has the agent key, else an error naming
// the files' agents.
func hasAgent(studies []*study.Study, key string) error {
	var keys []string
	for _, s := range studies {
		for _, a := range s.Rec.Agents {
			if a.Key == key {
				return nil
			}
			if !slices.Contains(keys, a.Key) {
				keys = append(keys, a.Key)
			}
		}
	}
	return fmt.Errorf("no agent %q in these files; their agents: %s", key, strings.Join(keys, ", "))
}

// adviseDoc is the advice as inspect.advise.v1.
func adviseDoc(files []string, advice []*advise.Advice) export.AdviseDoc {
	doc := export.AdviseDoc{Schema: export.AdviseSchema, Files: files, Agents: []export.AdviseAgent{}}
	for _, ad := range advice {
		ea := export.AdviseAgent{Agent: ad.Agent, Calls: ad.Calls, NeverRead: ad.NeverRead.Answers,
			Recorded: policyObject(ad.Recorded, ad.Inferred, nil, ad.Evidence), Policies: []export.AdviseRow{}}
		for _, r := range ad.Rows {
			ea.Policies = append(ea.Policies, export.AdviseRow{Policy: gridPolicy(r.Policy), Chars: r.Chars, Tokens: r.Tokens,
				TokensEstimated: true, PeakChars: r.PeakChars, PeakTokens: r.PeakTokens,
				OutOfView:   export.OutOfView{Answers: r.OutOfView.Answers, Arguments: r.OutOfView.Arguments},
				DropNotices: r.DropNotices, StandDowns: r.StandDowns, Differs: r.Differs, Frontier: r.Frontier})
		}
		for _, pk := range []struct {
			pick *advise.Pick
			to   **export.Policy
		}{{ad.KeepsEverything, &ea.Picks.KeepsEverything}, {ad.NoWorse, &ea.Picks.NoWorse}} {
			if pk.pick != nil {
				p := gridPolicy(ad.Rows[pk.pick.Row].Policy)
				*pk.to = &p
			}
		}
		doc.Agents = append(doc.Agents, ea)
	}
	return doc
}

// gridPolicy is a policy of the grid as the export writes it when its
// knobs are given as flags (§13.3): what `inspect export` with those
// flags says of the agent's policy.
func gridPolicy(p model.Policy) export.Policy {
	given := []string{"strategy", "keepRecentTurns", "keepLastToolResults"}
	if p.NeedsThreshold() {
		given = append(given, "thresholdTokens")
	}
	if p.NoAnchor {
		given = append(given, "anchor")
	}
	return policyObject(p, false, given, "all knobs given as flags")
}

// writeAdvice prints each agent's advice as a table for people.
func writeAdvice(out io.Writer, advice []*advise.Advice) error {
	w := bufio.NewWriter(out)
	for i, ad := range advice {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := writeOneAdvice(w, ad); err != nil {
			return err
		}
	}
	if len(advice) == 0 {
		fmt.Fprintln(w, "no agent to advise on: the files hold no agent's model calls")
	}
	fmt.Fprintln(w, "\nThese are the RECORDED responses judged against another policy's windows: what the model\nwould have typed under that policy is unknown, and so is how its tokens would have grown.")
	return w.Flush()
}

// writeOneAdvice prints one agent's advice: how its tokens are
// estimated, the frontier with the recorded policy marked, and the picks.
func writeOneAdvice(w io.Writer, ad *advise.Advice) error {
	files, how := "1 file", "stated by the log"
	if ad.Files > 1 {
		files = fmt.Sprintf("%d files", ad.Files)
	}
	if ad.Inferred {
		how = "inferred"
	}
	fmt.Fprintf(w, "agent %s: %d calls in %s; recorded policy %s (%s)\n", termtext.Line(ad.Agent), ad.Calls, files, shortPolicy(ad.Recorded), how)
	if ad.Disagree {
		fmt.Fprintln(w, "  the files were recorded under different policies; each file's own is one of the rows")
	}
	fmt.Fprintln(w, fitLine(ad.Fit))
	fmt.Fprintf(w, "never read under any policy (typed, in no message of the conversation): %d answer values, %d argument values\n",
		ad.NeverRead.Answers, ad.NeverRead.Arguments)
	fmt.Fprintf(w, "\nthe frontier: fewest ≈tokens for each number of answer values out of view (%d policies tried;\nK keepRecentTurns, L keepLastToolResults, T thresholdTokens)\n", len(ad.Rows))
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\t≈TOKENS\tVS RECORDED\tCHARS\tPEAK ≈TOKENS\tANSWERS OUT\tARGS OUT\tNOTICES\tSTAND-DOWNS\tDIFFERS\t")
	rec := ad.Rows[ad.RecordedRow]
	rows := slices.Clone(ad.Frontier)
	if !rec.Frontier {
		at, _ := slices.BinarySearchFunc(rows, rec.Tokens, func(i, t int) int { return ad.Rows[i].Tokens - t })
		rows = slices.Insert(rows, at, ad.RecordedRow)
	}
	for _, i := range rows {
		r := ad.Rows[i]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", shortPolicy(r.Policy), r.Tokens, against(r.Tokens, rec.Tokens),
			r.Chars, r.PeakTokens, r.OutOfView.Answers, r.OutOfView.Arguments, r.DropNotices, r.StandDowns, r.Differs, marks(ad, i))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(table.String(), "\n") { // the empty last column pads the others
		io.WriteString(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
	if len(ad.Unengaged) > 0 {
		fmt.Fprintf(w, "left out: token thresholds %s, at or above the largest input recorded: a replay reads the\nrecorded counts, so they never engage\n", joinInts(ad.Unengaged))
	}
	if len(ad.Unbounded) > 0 {
		fmt.Fprintf(w, "left out: %s: their windows grew past %d times the recorded ones (a threshold a replay\nseldom engages keeps whole histories), so their replay was given up\n", unboundedText(ad.Unbounded), advise.AdviseGrowth)
	}
	if !slices.ContainsFunc(ad.Rows, func(r advise.Row) bool { return r.Policy.NeedsThreshold() }) {
		fmt.Fprintln(w, "no token-budget rows: no call of the log measured its input")
	}
	fmt.Fprintln(w, "\npicks:")
	for _, pk := range []struct {
		name string
		pick *advise.Pick
		none string
	}{
		{"keeps in view every value the recorded answers used", ad.KeepsEverything, "no policy tried does"},
		{"loses no more answer values than the recorded policy", ad.NoWorse, "-"},
	} {
		if pk.pick == nil {
			fmt.Fprintf(w, "  the cheapest that %s: %s\n", pk.name, pk.none)
			continue
		}
		fmt.Fprintf(w, "  the cheapest that %s: %s, %s\n", pk.name, shortPolicy(ad.Rows[pk.pick.Row].Policy), pickSaving(pk.pick))
	}
	return nil
}

// unboundedText names the policies left out, those that differ only in
// keepRecentTurns together: "token-budget T136 L2 K1–10".
func unboundedText(ps []model.Policy) string {
	type family struct {
		strategy string
		t, l     int
		noAnchor bool
	}
	var order []family
	ks := map[family][]int{}
	for _, p := range ps {
		f := family{p.Strategy, p.ThresholdTokens, p.KeepLastToolResults, p.NoAnchor}
		if ks[f] == nil {
			order = append(order, f)
		}
		ks[f] = append(ks[f], p.KeepRecentTurns)
	}
	var out []string
	for _, f := range order {
		k := ks[f]
		slices.Sort(k)
		ranges := fmt.Sprintf("K%d", k[0])
		if last := k[len(k)-1]; len(k) == last-k[0]+1 && len(k) > 1 {
			ranges = fmt.Sprintf("K%d–%d", k[0], last)
		} else if len(k) > 1 {
			ranges = "K" + joinInts(k)
		}
		s := fmt.Sprintf("%s T%d L%d %s", f.strategy, f.t, f.l, ranges)
		if f.noAnchor {
			s += " (no anchor)"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func joinInts(ns []int) string {
	var out []string
	for _, n := range ns {
		out = append(out, strconv.Itoa(n))
	}
	return strings.Join(out, ", ")
}

// fitLine says how the tokens are estimated.
func fitLine(f advise.Fit) string {
	switch {
	case f.Calls == 0:
		return "≈tokens: " + fitChars(f) + "s / 4 (the log records no usage.input to fit them on)"
	case f.Base == 0:
		return fmt.Sprintf("≈tokens: %.3f a "+fitChars(f)+", the recorded calls' usage.input over their characters (%d calls)", f.PerChar, f.Calls)
	}
	return fmt.Sprintf("≈tokens: %.0f + %.3f a "+fitChars(f)+" per call, fitted on %d recorded calls' usage.input (R² %.2f)", f.Base, f.PerChar, f.Calls, f.R2)
}

// pickSaving is a pick's tokens against the recorded policy's.
func pickSaving(p *advise.Pick) string {
	switch {
	case p.Delta == 0:
		return "as many ≈tokens as the recorded policy"
	case p.Delta < 0:
		return fmt.Sprintf("saves ≈%d tokens (%.1f%%) against the recorded policy", -p.Delta, -p.Percent)
	}
	return fmt.Sprintf("costs ≈%d tokens more (+%.1f%%) than the recorded policy", p.Delta, p.Percent)
}

// against is tokens against the recorded policy's, in %.
func against(tokens, recorded int) string {
	if tokens == recorded || recorded == 0 {
		return "="
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(tokens-recorded)/float64(recorded))
}

// marks names what a row of the table is besides a point of the frontier.
func marks(ad *advise.Advice, i int) string {
	var out []string
	if i == ad.RecordedRow {
		if ad.Rows[i].Frontier {
			out = append(out, "recorded")
		} else {
			out = append(out, "recorded (not on the frontier)")
		}
	}
	if ad.KeepsEverything != nil && ad.KeepsEverything.Row == i {
		out = append(out, "keeps everything")
	}
	if ad.NoWorse != nil && ad.NoWorse.Row == i {
		out = append(out, "no worse")
	}
	return strings.Join(out, ", ")
}

// shortPolicy is a policy in a table's few words.
func shortPolicy(p model.Policy) string {
	var s string
	switch p.Strategy {
	case model.SlidingWindow:
		s = fmt.Sprintf("sliding-window K%d L%d", p.KeepRecentTurns, p.KeepLastToolResults)
	case model.TokenBudget, model.SummarizeOldest:
		s = fmt.Sprintf("%s T%d K%d L%d", p.Strategy, p.ThresholdTokens, p.KeepRecentTurns, p.KeepLastToolResults)
	default:
		s = termtext.Line(p.Strategy)
	}
	if p.NoAnchor {
		s += " no-anchor"
	}
	return s
}

func countOf(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

// fitChars names the characters the fit counts: the window's, and the
// system prompt's where the log holds its length.
func fitChars(f advise.Fit) string {
	if f.Prompt {
		return "window or system-prompt character"
	}
	return "window character"
}
