package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
)

// studyCmd makes c a command over one recording's study (report, export,
// evidence): with the policy knobs, --agent, -q and --max-line-mb beside
// the flags the caller adds, it takes the files (several are one
// application's history), lets check refuse what else of the flags is
// wrong, checks the flags and the files, opens their study (saying what
// openStudy says) and hands it to run with the source's name.
func (a *app) studyCmd(c *cobra.Command, o *options, check func() error, run func(path string, s *study.Study) error) *cobra.Command {
	c.RunE = func(c *cobra.Command, files []string) error {
		o.noteGiven(c.Flags())
		paths, err := a.someFiles(c.Name(), files)
		if err != nil {
			return err
		}
		if err := check(); err != nil {
			return err
		}
		if err := a.ready(o, paths...); err != nil {
			return err
		}
		s, err := a.openStudy(paths, *o)
		if err != nil {
			return err
		}
		return run(strings.Join(paths, ", "), s)
	}
	fs := c.Flags()
	o.policyFlags(fs)
	o.agentFlag(fs)
	o.quietFlag(fs)
	o.inputFlags(fs)
	fs.BoolVar(&o.allProblems, "all-problems", false, "say every problem of the file on stderr as it is met (not the first 1,000 and a count by kind)")
	return c
}

// openStudy loads paths and opens them for a batch command (report,
// export, evidence), saying on stderr the problems and the policy
// inferred.
func (a *app) openStudy(paths []string, o options) (*study.Study, error) {
	var progress io.Writer
	if isTerminal(a.raw) && !o.quiet {
		progress = a.raw
	}
	var rec *model.Recording
	var err error
	streamed := 0
	if o.allProblems && len(paths) == 1 && paths[0] != "" {
		// streamed as the loader meets them: a file of bad lines is never
		// held whole to be said
		l := loader.StartListing(paths[0], o.maxLine(), func(p model.Problem) {
			streamed++
			fmt.Fprintln(a.stderr, termtext.Line(p.Message))
		})
		if progress != nil {
			showProgress(l, progress)
		}
		rec, err = l.Wait()
	} else {
		rec, err = a.openFiles(paths, o.maxLine(), progress)
	}
	if err != nil {
		return nil, a.fail(exitFile, err)
	}
	k := o.knobs()
	if progress != nil && !k.Whole() {
		fmt.Fprint(progress, "\r\x1b[Kinspect: inferring the recorded policy…")
	}
	var only *model.Agent
	if o.agent != "" {
		if only, err = findAgent(rec, o.agent); err != nil {
			fmt.Fprintf(a.stderr, "inspect: %s\n", termtext.Line(err.Error()))
			return nil, exitCode(exitUsage)
		}
	}
	s, err := study.Open(rec, study.Request{Knobs: k, Only: only, Library: o.library})
	if progress != nil && !k.Whole() {
		fmt.Fprint(progress, "\r\x1b[K")
	}
	if err != nil {
		return s, a.fail(exitUsage, err)
	}
	problems := s.Problems()
	if o.allProblems && len(paths) == 1 && paths[0] != "" {
		// the lines' problems were said as they came (the list holds the
		// first of them); what the end of the input and the study found
		// is said now
		problems = problems[min(streamed, len(rec.Problems), loader.MaxListed):]
	}
	for _, p := range problems {
		fmt.Fprintln(a.stderr, termtext.Line(p.Message))
	}
	if lead := s.Lead(); lead.Inferred && !o.quiet {
		fmt.Fprintf(a.stderr, "inspect: policy %s (%s): %s\n", termtext.Line(lead.Policy.String()), sources(s), termtext.Line(lead.Evidence))
	}
	return s, nil
}

// open loads FILE (or the demo, when path is empty) whole; on a
// terminal, progress is shown on progress while it loads.
func (a *app) open(path string, maxLine int, progress io.Writer) (*model.Recording, error) {
	var paths []string
	if path != "" {
		paths = []string{path}
	}
	return a.openFiles(paths, maxLine, progress)
}

// openFiles loads the files (several as one application's history, none
// the demo) whole, as open does.
func (a *app) openFiles(paths []string, maxLine int, progress io.Writer) (*model.Recording, error) {
	l := a.start(paths, maxLine, false)
	if progress != nil {
		showProgress(l, progress)
	}
	return l.Wait()
}

// showProgress writes a one-line progress report to w (a terminal) every
// quarter second until l is done, then clears the line. A load that is
// over before the first report prints nothing.
func showProgress(l *loader.Loading, w io.Writer) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	shown := false
	for {
		select {
		case <-l.Done():
			if shown {
				fmt.Fprint(w, "\r\x1b[K")
			}
			return
		case <-t.C:
			p := l.Progress()
			pct := ""
			if p.Total > 0 {
				pct = fmt.Sprintf("%3d%% ", p.Bytes*100/p.Total)
			}
			fmt.Fprintf(w, "\r\x1b[Kinspect: loading %s%d MB, %d calls", pct, p.Bytes>>20, p.Calls)
			shown = true
		}
	}
}

// useColor: on a terminal, or as the environment says (colorWanted).
func useColor(w io.Writer) bool { return colorWanted(isTerminal(w), os.Getenv) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
