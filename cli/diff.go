package cli

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/compare"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
)

// What diff --fail-on accepts.
const (
	failMoreOut = "more-out-of-view" // B has more answer values out of view than A
	failParted  = "parted"           // the runs part ways somewhere
)

var diffFailChoices = []string{failMoreOut, failParted}

// pairOptions are the flags of a command over two files (diff, compare):
// the policy flags for both sides, and each again with a- or b- before
// its name for one side only.
type pairOptions struct {
	both, a, b options
	format     string
	failOn     string
	flags      *pflag.FlagSet
	// conv, convA, convB: --conversation N for both sides, --a-conversation
	// and --b-conversation for one (0: every one)
	conv, convA, convB int
}

// sideFlags are the policy flags that take a side's prefix.
var sideFlags = []string{"strategy", "keep-recent-turns", "keep-last-tool-results", "threshold-tokens", "no-anchor", "library-version"}

// register adds the flags to fs.
func (p *pairOptions) register(fs *pflag.FlagSet) {
	p.flags = fs
	p.both.policyFlags(fs)
	for _, s := range []struct {
		prefix, name string
		o            *options
	}{{"a-", "A", &p.a}, {"b-", "B", &p.b}} {
		side := pflag.NewFlagSet(s.prefix, pflag.ContinueOnError)
		s.o.policyFlags(side)
		side.VisitAll(func(f *pflag.Flag) {
			arg, _ := pflag.UnquoteUsage(f)
			if arg != "" && f.Value.Type() != "bool" {
				arg = " `" + arg + "`"
			} else {
				arg = ""
			}
			f.Usage = fmt.Sprintf("--%s%s for %s alone", f.Name, arg, s.name)
			f.Name = s.prefix + f.Name
			f.DefValue = ""
			fs.AddFlag(f)
		})
	}
	fs.IntVar(&p.conv, "conversation", 0, "compare conversation `N` of each file alone (report and export number them)")
	fs.IntVar(&p.convA, "a-conversation", 0, "A's conversation `N` alone")
	fs.IntVar(&p.convB, "b-conversation", 0, "B's conversation `N` alone")
	p.both.quietFlag(fs)
	p.both.inputFlags(fs)
}

// progressLine says on a terminal's stderr (not with -q) what the two
// files are waiting for, on one line for both; done clears it.
func (a *app) progressLine(p *pairOptions, what string) (done func()) {
	if !isTerminal(a.raw) || p.both.quiet {
		return func() {}
	}
	fmt.Fprint(a.raw, "\r\x1b[Kinspect: "+what)
	return func() { fmt.Fprint(a.raw, "\r\x1b[K") }
}

// compare lines the two studies up, one conversation of a side when the
// flags name one; a conversation a file does not have is a usage error.
func (a *app) compare(p *pairOptions, sa, sb *study.Study) (*compare.Comparison, error) {
	only := compare.Only{A: p.conv, B: p.conv}
	if p.flags.Changed("a-conversation") {
		only.A = p.convA
	}
	if p.flags.Changed("b-conversation") {
		only.B = p.convB
	}
	done := a.progressLine(p, "replaying, judging and lining up both files…")
	c := compare.Runs(sa, sb, only)
	done()
	for _, x := range []struct {
		side string
		n    int
		s    *compare.Side
	}{{"A", only.A, c.A}, {"B", only.B, c.B}} {
		if x.n != 0 && !x.s.Has(x.n) {
			return nil, a.usageError("inspect: %s has no conversation %d (its conversations: %s)", x.side, x.n, strings.Trim(fmt.Sprint(x.s.Numbers()), "[]"))
		}
	}
	return c, nil
}

// side is the options of one side: the flags given for both, then those
// given for it alone.
func (p *pairOptions) side(prefix string) options {
	out := p.both
	o := p.a
	if prefix == "b-" {
		o = p.b
	}
	out.given = map[string]bool{}
	for k, v := range p.both.given {
		out.given[k] = v
	}
	for _, name := range sideFlags {
		if !p.flags.Changed(prefix + name) {
			continue
		}
		out.given[name] = true
		switch name {
		case "strategy":
			out.strategy = o.strategy
		case "keep-recent-turns":
			out.keepRecent = o.keepRecent
		case "keep-last-tool-results":
			out.keepPins = o.keepPins
		case "threshold-tokens":
			out.threshold = o.threshold
		case "no-anchor":
			out.noAnchor = o.noAnchor
		case "library-version":
			out.library = o.library
		}
	}
	return out
}

// twoFiles checks a two-file command's arguments.
func (a *app) twoFiles(cmd string, files []string) (string, string, error) {
	if len(files) != 2 {
		return "", "", a.usageError("inspect %s: two files, A and B (inspect %s [flags] A B; got %d)", cmd, cmd, len(files))
	}
	return files[0], files[1], nil
}

// openPair checks the flags and files of both sides, then loads and opens
// the two files at once, each on its own goroutine, and says each one's
// problems and inferred policy on stderr (A's first).
func (a *app) openPair(cmd *cobra.Command, p *pairOptions, files []string) (*study.Study, *study.Study, error) {
	p.both.noteGiven(cmd.Flags())
	pathA, pathB, err := a.twoFiles(cmd.Name(), files)
	if err != nil {
		return nil, nil, err
	}
	oa, ob := p.side("a-"), p.side("b-")
	for _, x := range []struct {
		o            *options
		path, prefix string
	}{{&oa, pathA, "a-"}, {&ob, pathB, "b-"}} {
		if err := x.o.validate(); err != nil {
			// the side's own flag is named as it was given
			msg := err.Error()
			for _, name := range sideFlags {
				if p.flags.Changed(x.prefix + name) {
					msg = strings.ReplaceAll(msg, "--"+name+" ", "--"+x.prefix+name+" ")
				}
			}
			return nil, nil, a.fail(exitUsage, errors.New(msg))
		}
		if err := a.ready(x.o, x.path); err != nil {
			return nil, nil, err
		}
	}
	type opened struct {
		s        *study.Study
		loadErr  error
		studyErr error
	}
	var out [2]opened
	done := a.progressLine(p, "loading both files and settling their policies…")
	var wg sync.WaitGroup
	for k, x := range []struct {
		o    options
		path string
	}{{oa, pathA}, {ob, pathB}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := a.open(x.path, x.o.maxLine(), nil)
			if err != nil {
				out[k].loadErr = err
				return
			}
			out[k].s, out[k].studyErr = study.Open(rec, study.Request{Knobs: x.o.knobs(), Library: x.o.library})
		}()
	}
	wg.Wait()
	done()
	for k, o := range out {
		side := "AB"[k : k+1]
		switch {
		case o.loadErr != nil:
			return nil, nil, a.fail(exitFile, o.loadErr)
		case o.studyErr != nil:
			return nil, nil, a.fail(exitUsage, fmt.Errorf("%s: %w", side, o.studyErr))
		}
		for _, pr := range o.s.Problems() {
			fmt.Fprintln(a.stderr, termtext.Line(pr.Message))
		}
		if lead := o.s.Lead(); lead.Inferred && !p.both.quiet {
			fmt.Fprintf(a.stderr, "inspect: %s: policy %s (%s): %s\n", side, termtext.Line(lead.Policy.String()), sources(o.s), termtext.Line(lead.Evidence))
		}
	}
	return out[0].s, out[1].s, nil
}

// diffCmd is `inspect diff A B`: two recordings lined up call by call.
func (a *app) diffCmd() *cobra.Command {
	var p pairOptions
	c := &cobra.Command{
		Use:   "diff [flags] A B",
		Short: "two runs lined up call by call: where they part ways, what one had in view the other did not",
		Long: `diff lines two recordings up call by call — each conversation with the one of
the same agent and place, then the calls by their requests and tool calls, so
that an extra call on one side shifts nothing after it — and says of each pair
whether it is the same, changed, or made by one side only: the window's size
each side, the messages one side had and the other did not or had with other
text, and each answer value's verdict on both sides. The first pair where the
runs part ways (another request, tool call, argument or answer) is marked.
Each policy flag applies to both sides; with a- or b- before its name
(--b-keep-recent-turns 4) to one side alone, so a recording can be compared
with itself under another policy.`,
		RunE: func(cmd *cobra.Command, files []string) error {
			if p.format != "table" && p.format != "json" {
				return a.usageError("inspect diff: unknown --format %q (table or json)", p.format)
			}
			var fail []string
			if p.failOn != "" {
				for _, f := range strings.Split(p.failOn, ",") {
					f = strings.TrimSpace(f)
					if !slices.Contains(diffFailChoices, f) {
						return a.fail(exitUsage, fmt.Errorf("--fail-on: unknown condition %q (%s)", f, strings.Join(diffFailChoices, ", ")))
					}
					fail = append(fail, f)
				}
			}
			sa, sb, err := a.openPair(cmd, &p, files)
			if err != nil {
				return err
			}
			cmp, err := a.compare(&p, sa, sb)
			if err != nil {
				return err
			}
			out := bufio.NewWriterSize(a.stdout, 1<<16)
			if p.format == "json" {
				err = writeDiffJSON(out, files[0], files[1], cmp)
			} else {
				err = writeDiffTable(out, files[0], files[1], cmp, tableWidth(a.stdout))
			}
			if err == nil {
				err = out.Flush()
			}
			if err != nil {
				return a.fail(exitFile, err)
			}
			return a.diffFails(cmp, fail, p.failOn)
		},
	}
	fs := c.Flags()
	p.register(fs)
	fs.StringVar(&p.format, "format", "table", "`FORMAT`: table | json (format inspect.diff.v1)")
	fs.StringVar(&p.failOn, "fail-on", "", "exit 4 on `CONDITIONS`: more-out-of-view (B has more answer values out of view\nthan A), parted (the runs part ways) (for CI)")
	return c
}

// diffFails ends with status 4 when a --fail-on condition holds.
func (a *app) diffFails(c *compare.Comparison, fail []string, flag string) error {
	var why []string
	if slices.Contains(fail, failMoreOut) && c.B.OutOfView > c.A.OutOfView {
		why = append(why, fmt.Sprintf("B has %d answer value(s) out of view, A %d", c.B.OutOfView, c.A.OutOfView))
	}
	if slices.Contains(fail, failParted) && c.Parted >= 0 {
		why = append(why, fmt.Sprintf("the runs part ways at pair %d", c.Parted+1))
	}
	if len(why) == 0 {
		return nil
	}
	fmt.Fprintf(a.stderr, "inspect: %s (--fail-on %s)\n", strings.Join(why, "; "), flag)
	return exitCode(exitFlagged)
}
