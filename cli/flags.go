package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// options are the flags of a command; each command registers the groups
// it takes (policy, output, input, the UI's). A knob left at -1 (or "")
// is inferred.
type options struct {
	strategy    string
	keepRecent  int
	keepPins    int
	threshold   int
	noAnchor    bool
	format      string
	agent       string // --agent KEY
	quiet       bool   // -q: no "policy inferred" line, no progress
	failDiffer  bool   // --fail-on-differs: exit 3 when a recorded window is not reproduced
	maxLineMB   int    // --max-line-mb: the longest line read; 0 is the loader's default
	allProblems bool   // --all-problems: every problem on stderr as it is met
	failOn      string // evidence --fail-on left,never-read: exit 4 when such a value exists
	in          string // evidence --in answers|arguments|all: the values judged
	wide        bool   // evidence --wide: the table unfitted
	width       int    // evidence --width N: the table fitted to N columns
	theme       string // --theme auto|dark|light (the UI)
	follow      bool   // -f: the UI reads the file again as it grows
	library     string // --library-version X.Y.Z: replay under that version's window rules
	given       map[string]bool
}

// policyFlags are the knobs; an absent one is inferred from the
// recording.
func (o *options) policyFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.strategy, "strategy", "", "the window strategy `NAME`: sliding-window | token-budget | summarize-oldest | none\n(summarize-oldest's summaries are the ones the library recorded; a fold it never\nmade gets a placeholder, marked as such)")
	o.keepRecent, o.keepPins, o.threshold = -1, -1, -1
	fs.Var(optInt{&o.keepRecent}, "keep-recent-turns", "keep the last `N` turns at the end of the window")
	fs.Var(optInt{&o.keepPins}, "keep-last-tool-results", "keep `N` last-tool-result pins; 0 switches pins off")
	fs.Var(optInt{&o.threshold}, "threshold-tokens", "token-budget's and summarize-oldest's threshold, `N` tokens (none recorded or\ngiven: the largest input the agent's calls recorded)")
	fs.BoolVar(&o.noAnchor, "no-anchor", false, "replay without the current-request anchor (before 9.55)")
	fs.StringVar(&o.library, "library-version", "", "replay under agentfootprint `X.Y.Z`'s window rules (before 9.57.0 no pins, the\nplain notice only, the notice veto; before 9.55.0 no anchor); else the envelope's\nproducer, else the log's own evidence, else 9.57.0–9.62.0")
}

// agentFlag restricts a batch command to one agent.
func (o *options) agentFlag(fs *pflag.FlagSet) {
	fs.StringVar(&o.agent, "agent", "", "only agent `KEY`'s calls (same numbers); the policy flags then apply to it alone")
}

// quietFlag silences stderr's policy line and progress.
func (o *options) quietFlag(fs *pflag.FlagSet) {
	fs.BoolVarP(&o.quiet, "quiet", "q", false, `no "policy inferred" line and no progress on stderr`)
}

// failDifferFlag is export's and report's CI switch.
func (o *options) failDifferFlag(fs *pflag.FlagSet) {
	fs.BoolVar(&o.failDiffer, "fail-on-differs", false, "exit 3 when any recorded window is not reproduced (for CI)")
}

// inputFlags are how the file is read.
func (o *options) inputFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.maxLineMB, "max-line-mb", 0, "skip and report a line longer than `N` MB (default 256)")
}

// optInt is a whole-number flag that may be absent (-1: inferred), which
// --help then shows without a default.
type optInt struct{ v *int }

func (o optInt) String() string {
	if o.v == nil || *o.v < 0 {
		return ""
	}
	return strconv.Itoa(*o.v)
}

func (o optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	*o.v = n
	return nil
}

func (o optInt) Type() string { return "int" }

// noteGiven records which flags were on the command line.
func (o *options) noteGiven(fs *pflag.FlagSet) {
	o.given = map[string]bool{}
	fs.Visit(func(f *pflag.Flag) { o.given[f.Name] = true })
}

// maxLine is the line limit in bytes, 0 for the loader's default.
func (o *options) maxLine() int { return o.maxLineMB << 20 }

func (o *options) validate() error {
	if (o.given["max-line-mb"] || o.maxLineMB != 0) && (o.maxLineMB < 1 || o.maxLineMB > 1<<20) {
		return fmt.Errorf("--max-line-mb must be between 1 and 1048576 (MB)")
	}
	switch o.strategy {
	case "", model.SlidingWindow, model.TokenBudget, model.SummarizeOldest, model.StrategyNone:
	default:
		return fmt.Errorf("unknown --strategy %q (sliding-window, token-budget, summarize-oldest or none)", o.strategy)
	}
	if o.given["strategy"] && o.strategy == "" {
		return fmt.Errorf("--strategy needs a value (sliding-window, token-budget, summarize-oldest or none)")
	}
	for _, n := range []struct {
		flag string
		v    int
		note string
	}{
		{"keep-recent-turns", o.keepRecent, ""},
		{"keep-last-tool-results", o.keepPins, " (0 switches pins off)"},
	} {
		if o.given[n.flag] && n.v < 0 {
			return fmt.Errorf("--%s must be 0 or more%s (got %d)", n.flag, n.note, n.v)
		}
	}
	if o.given["library-version"] {
		if _, err := window.ParseVersion(o.library); err != nil {
			return fmt.Errorf("--library-version: %v (e.g. 9.56.0)", err)
		}
	}
	if o.given["threshold-tokens"] && o.threshold <= 0 {
		// §7: a token threshold is required and > 0; 0 would engage on
		// every measured call, which no library configuration can do
		return fmt.Errorf("--threshold-tokens must be more than 0 (got %d)", o.threshold)
	}
	return nil
}

// files checks a batch command's arguments: one file, named.
// someFiles are the FILE arguments of cmd: one or more, read as one
// application's history.
func (a *app) someFiles(cmd string, files []string) ([]string, error) {
	switch {
	case len(files) == 0:
		return nil, a.usageError("inspect %s: which file? (inspect %s [flags] FILE…)", cmd, cmd)
	case countOf(files, "-") > 0 && len(files) > 1:
		return nil, a.usageError("inspect %s: standard input (-) is read alone, not with other files", cmd)
	}
	return files, nil
}

// ready validates the flags and that path can be read: status 2 for a
// flag, 1 for the file.
func (a *app) ready(o *options, paths ...string) error {
	if err := o.validate(); err != nil {
		return a.fail(exitUsage, err)
	}
	for _, path := range paths {
		if path == "" {
			continue
		}
		if err := checkFile(path); err != nil {
			return a.fail(exitFile, err)
		}
	}
	return nil
}
