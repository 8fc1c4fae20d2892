// Command inspect opens a recorded agentfootprint run and shows, call by
// call, which messages the model was sent, which the window policy evicted,
// and why each one stayed.
//
//	inspect [FILE]                 the terminal UI (no FILE: an embedded demo run)
//	inspect export [flags] FILE    the replay as JSON (inspect.export.v1)
//	inspect report [flags] FILE    the replay as a plain-text table
//	inspect evidence [flags] FILE  every value the model typed that was not in view
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

//go:embed testdata/demo-evidence/run.jsonl
var demoRun []byte

const usage = `inspect — step through a recorded agentfootprint run and see what the model was sent.

Usage:
  inspect [FILE]                  open FILE in the terminal UI (no FILE: the embedded demo run)
  inspect export [flags] FILE     print the replay as JSON (format inspect.export.v1)
  inspect report [flags] FILE     print the replay as a plain-text table, one row per call
  inspect evidence [flags] FILE   every number and identifier the model typed that the
                                  library's answer check would not ground: left the window (its
                                  source, when it left, what would have kept it), in view only
                                  inside a longer token, never read, or only in a summary that
                                  no tool result backs; the answers by default (--in)
  inspect help | --help | --version

FILE is the library's NDJSON event log (run.jsonl) or its recording envelope
(agentfootprint.recording.v1, a single object or an array); .gz is read too.

Flags may come before or after FILE.

Policy flags (export, report, and the UI); an absent flag is inferred from the recording:
  --strategy NAME              sliding-window | token-budget | summarize-oldest (its
                               summaries are the ones the library recorded; a fold the
                               library never made gets a placeholder, marked as such)
  --keep-recent-turns N        turns always kept at the end of the window
  --keep-last-tool-results N   last-tool-result pins; 0 switches pins off
  --threshold-tokens N         token-budget and summarize-oldest threshold
  --no-anchor                  replay without the current-request anchor (before 9.55)
  --agent KEY                  export, report or evidence only this agent's calls (same
                               numbers); the policy flags then apply to it alone
  --format json                export format (json is the only one); evidence: table or json

Keys in the UI (? lists them all): ←/→ call · g/G first/last · : go to call · / search every
message, n/N next/previous hit · e/E eviction · d/D call differing from its record · >/< run ·
c/C drop notice · ↑/↓ turn · enter open folded gone turns · tab focus · pgup/pgdn space b
ctrl+u ctrl+d scroll · w agents and conversations · W recorded window beside the replay ·
i response and its values · A final answer · x/X value typed, not read · K apply the policy
that would have kept it · v transcript · o $PAGER · y copy (OSC 52) · m mouse off/on · F follow ·
R reload · [ ] { } p a s t T r policy knobs · z hide gone · ! problems · esc close · q quit

UI flags:
  -f, --follow                 follow a log still being written (new calls appear; F in the UI)
  --theme auto|dark|light      colours for a dark or a light background; auto reads
                               COLORFGBG when the terminal sets it, else asks the terminal

Output flags (export, report):
  -q, --quiet                  no "policy inferred" line and no progress on stderr
  --fail-on-differs            exit 3 when any recorded window is not reproduced (for CI)
  --in answers|arguments|all   evidence: judge the answers (default), the tool-call arguments,
                               or both; the two are counted apart either way
  --fail-on V[,V…]             evidence: exit 4 when a value --in selects has one of these
                               verdicts: left, in-view-text, never-read, summary-unsupported
                               (for CI)

Input flags (export, report, and the UI):
  --max-line-mb N              skip and report a line longer than N MB (default 256)

FILE "-" reads standard input (the UI then takes its keys from the terminal).

Exit status: 0 done; 1 the file could not be read; 2 a usage error; 3 --fail-on-differs found a
difference; 4 --fail-on found a value.
`

// seeHelp closes a usage error.
const seeHelp = "run inspect --help for the commands and flags\n"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command line; every line it writes to stderr goes through
// termtext (a file name or a strategy name may carry escapes), and a
// stderr that cannot be written makes the exit status non-zero.
func run(args []string, stdout, stderr io.Writer) int {
	errw := termtext.NewWriter(stderr)
	code := run1(args, stdout, errw, stderr)
	if errw.Err() != nil && code == 0 {
		return 1
	}
	return code
}

// run1 is run with stderr sanitized; raw is the same stream unsanitized,
// for the progress line's own cursor controls.
func run1(args []string, stdout io.Writer, stderr *termtext.Writer, raw io.Writer) int {
	cmd := "ui"
	if len(args) > 0 && slices.Contains(commands, args[0]) {
		cmd, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o options
	o.register(fs)
	showVersion := fs.Bool("version", false, "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	files, err := parseArgs(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n%s", err, seeHelp)
		return 2
	}
	o.noteGiven(fs)
	if cmd == "ui" {
		if err := unknownCommand(files); err != nil {
			fmt.Fprintf(stderr, "inspect: %v\n%s", err, seeHelp)
			return 2
		}
	}
	switch {
	case *help || cmd == "help":
		fmt.Fprint(stdout, usage)
		return 0
	case *showVersion:
		fmt.Fprintf(stdout, "inspect %s\n", version)
		return 0
	case len(files) > 1:
		fmt.Fprintf(stderr, "inspect: one file at a time (got %d: %s)\n", len(files), strings.Join(files, " "))
		return 2
	case cmd != "ui" && len(files) == 0:
		fmt.Fprintf(stderr, "inspect %s: which file? (inspect %s [flags] FILE)\n", cmd, cmd)
		return 2
	case cmd != "ui" && o.follow:
		fmt.Fprintf(stderr, "inspect %s: -f follows a file in the terminal UI only (inspect -f FILE)\n", cmd)
		return 2
	case cmd != "ui" && o.theme != "auto":
		fmt.Fprintf(stderr, "inspect %s: --theme colours the terminal UI only (inspect --theme %s FILE)\n", cmd, termtext.Line(o.theme))
		return 2
	case cmd == "export" && o.format != "json":
		fmt.Fprintf(stderr, "inspect export: unknown --format %q (json is the only one)\n", o.format)
		return 2
	case cmd == "evidence" && o.format != "json" && o.format != "table":
		fmt.Fprintf(stderr, "inspect evidence: unknown --format %q (table or json)\n", o.format)
		return 2
	case o.failOn != "" && cmd != "evidence":
		fmt.Fprintf(stderr, "inspect: --fail-on is for inspect evidence (--fail-on-differs for %s)\n", cmd)
		return 2
	case o.given["in"] && cmd != "evidence":
		fmt.Fprintf(stderr, "inspect: --in is for inspect evidence\n")
		return 2
	}
	if err := parseIn(o.in); err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 2
	}
	failVerdicts, err := failOn(o.failOn)
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 2
	}
	if err := o.validate(); err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 2
	}
	path := ""
	if len(files) == 1 {
		path = files[0]
		if err := checkFile(path); err != nil {
			fmt.Fprintf(stderr, "inspect: %v\n", err)
			return 1
		}
	}
	if cmd == "ui" {
		return runUI(path, o, stderr)
	}
	if cmd == "evidence" {
		return runEvidence(path, o, failVerdicts, stdout, stderr, raw)
	}
	return runBatch(cmd, path, o, stdout, stderr, raw)
}

// runBatch is export and report: load, settle the policy, replay, print.
// Raw is stderr unsanitized, for the progress line's cursor controls.
func runBatch(cmd, path string, o options, stdout, stderr, raw io.Writer) int {
	s, code := batchSession(path, o, stderr, raw)
	if code >= 0 {
		return code
	}
	var werr error
	if cmd == "export" {
		werr = writeExport(stdout, path, s)
	} else {
		werr = writeReport(stdout, s, useColor(stdout))
	}
	if werr != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", werr)
		return 1
	}
	if differ, compared := s.differs(); o.failDiffer && differ > 0 {
		fmt.Fprintf(stderr, "inspect: %d of %d recorded windows not reproduced under %s (--fail-on-differs)\n", differ, compared, s.policy)
		return 3
	}
	return 0
}

// runEvidence is `inspect evidence`: every flagged value, and exit 4 when
// --fail-on names the verdict of one.
func runEvidence(path string, o options, fail []string, stdout, stderr, raw io.Writer) int {
	s, code := batchSession(path, o, stderr, raw)
	if code >= 0 {
		return code
	}
	doc := evidenceReport(path, s, o.in)
	out := bufio.NewWriterSize(stdout, 1<<16) // a table writes cell by cell
	err := writeEvidence(out, doc, o.given["format"] && o.format == "json")
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return 1
	}
	if n := failing(doc, fail); n > 0 {
		fmt.Fprintf(stderr, "inspect: %d value(s) %s in the %s (--fail-on %s)\n", n, strings.Join(fail, " or "), inWords(o.in), o.failOn)
		return 4
	}
	return 0
}

// batchSession loads path and replays it for a batch command; code is the
// exit status when that failed, -1 when it did not.
func batchSession(path string, o options, stderr, raw io.Writer) (session, int) {
	var progress io.Writer
	if isTerminal(raw) && !o.quiet {
		progress = raw
	}
	rec, err := open(path, o.maxLine(), progress)
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return session{}, 1
	}
	if progress != nil && !o.complete() {
		fmt.Fprint(progress, "\r\x1b[Kinspect: inferring the recorded policy…")
	}
	var only *model.Agent
	if o.agent != "" {
		if only, err = findAgent(rec, o.agent); err != nil {
			fmt.Fprintf(stderr, "inspect: %s\n", termtext.Line(err.Error()))
			return session{}, 2
		}
	}
	s, err := newSession(rec, o, only)
	if progress != nil && !o.complete() {
		fmt.Fprint(progress, "\r\x1b[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "inspect: %v\n", err)
		return s, 2
	}
	for _, p := range s.problems {
		fmt.Fprintln(stderr, termtext.Line(p.Message))
	}
	if s.inferred && !o.quiet {
		fmt.Fprintf(stderr, "inspect: policy %s (%s): %s\n", termtext.Line(s.policy.String()), s.sources(), termtext.Line(s.evidence))
	}
	return s, -1
}

// start begins loading FILE in the background, or the embedded demo when
// path is empty.
// "-" reads standard input (the UI then reads keys from the terminal).
func start(path string, maxLine int) *loader.Loading {
	switch path {
	case "":
		return loader.StartReader(bytes.NewReader(demoRun), "demo", int64(len(demoRun)))
	case "-":
		return loader.StartReaderLimited(os.Stdin, "stdin", 0, maxLine)
	}
	return loader.StartLimited(path, maxLine)
}

// open loads FILE (or the demo) whole; on a terminal, progress is shown
// on progress while it loads.
func open(path string, maxLine int, progress io.Writer) (*model.Recording, error) {
	l := start(path, maxLine)
	if progress != nil {
		showProgress(l, progress)
	}
	return l.Wait()
}

// useColor: only on a terminal, and never under NO_COLOR.
func useColor(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
