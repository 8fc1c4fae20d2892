package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/tui"
	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/tui/theme"
)

// uiCmd is `inspect [FILE]`: the terminal UI, on FILE or the embedded
// demo run.
func (a *app) uiCmd() *cobra.Command {
	var o options
	var version bool
	c := &cobra.Command{
		Use:   "inspect [FILE…]",
		Short: "step through a recorded agentfootprint run and see what the model was sent",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, files []string) error {
			o.noteGiven(c.Flags())
			if err := unknownCommand(c.Root(), files); err != nil {
				return a.misuse(err)
			}
			switch {
			case version:
				fmt.Fprintln(a.stdout, a.version().Line())
				return nil
			case len(files) > 1 && countOf(files, "-") > 0:
				return a.usageError("inspect: standard input (-) is read alone, not with other files")
			case len(files) > 1 && o.follow:
				return a.usageError("inspect: --follow follows one file (got %d)", len(files))
			}
			path := ""
			if len(files) == 1 {
				path = files[0]
			}
			if o.follow && path != "" && path != "-" && absentOrEmpty(path) {
				if err := o.validate(); err != nil {
					return a.fail(exitUsage, err)
				}
				if err := a.waitToFollow(path); err != nil {
					return err
				}
			}
			if err := a.ready(&o, files...); err != nil {
				return err
			}
			return a.runUI(files, o)
		},
	}
	fs := c.Flags()
	o.policyFlags(fs)
	fs.BoolVarP(&o.follow, "follow", "f", false, "follow a log still being written (new calls appear; F in the UI)")
	fs.StringVar(&o.theme, "theme", "auto", "auto | dark | light: colours for a dark or a light background; auto reads\nCOLORFGBG when the terminal sets it, else asks the terminal")
	o.inputFlags(fs)
	fs.BoolVar(&version, "version", false, "print the version")
	return c
}

// runUI opens the terminal UI on the files (the embedded demo when
// none). A file that cannot be opened at all is said before the screen
// is taken.
func (a *app) runUI(paths []string, o options) error {
	name := strings.Join(paths, ", ")
	path := ""
	if len(paths) == 1 {
		path = paths[0]
	}
	switch {
	case len(paths) == 0:
		name = "demo"
	case path == "-":
		name = "stdin"
	}
	if err := dumbTerminal(os.Getenv); err != nil {
		return a.fail(exitUsage, err)
	}
	if err := theme.ApplyTheme(o.theme, os.Getenv("COLORFGBG")); err != nil {
		return a.fail(exitUsage, err)
	}
	err := tui.Run(a.uiConfig(name, paths, o))
	if sig, ok := err.(*tui.SignalError); ok {
		return exitCode(128 + int(sig.Signal)) // as a shell reports a process the signal ended
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	return nil
}

// uiConfig is what the terminal UI opens: the files streamed in (the
// demo when none), under the policy knobs given.
func (a *app) uiConfig(name string, paths []string, o options) tui.Config {
	path := ""
	if len(paths) == 1 {
		path = paths[0]
	}
	return tui.Config{
		Name:    name,
		Open:    func() *session.Stream { return stream(a.start(paths, o.maxLine(), o.follow)) },
		Reopen:  func() *session.Stream { return stream(a.start(paths, o.maxLine(), len(paths) == 1)) },
		Knobs:   o.knobs(),
		Library: o.library,
		Path:    filePath(path),
		Follow:  o.follow,
		Keys:    a.config.keyMap(),
	}
}

// start begins loading the files in the background (several as one
// application's history), or the embedded demo when there are none;
// following (one file), a last line still being written is waited for.
// "-" reads standard input (the UI then reads keys from the terminal).
func (a *app) start(paths []string, maxLine int, following bool) *loader.Loading {
	path := ""
	switch len(paths) {
	case 0:
	case 1:
		path = paths[0]
	default:
		return loader.StartFiles(paths, maxLine)
	}
	switch {
	case path == "":
		return loader.StartReader(bytes.NewReader(a.build.Demo), "demo", int64(len(a.build.Demo)))
	case path == "-":
		return loader.StartReaderLimited(os.Stdin, "stdin", 0, maxLine)
	case following:
		return loader.StartFollowing(path, maxLine)
	}
	return loader.StartLimited(path, maxLine)
}

// filePath is path when it names a file that can be read again and
// may grow, "" for the demo, standard input and a directory.
func filePath(path string) string {
	if path == "-" {
		return ""
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return ""
	}
	return path
}

// stream shows a load in progress to the terminal UI.
func stream(l *loader.Loading) *session.Stream {
	return &session.Stream{
		Progress: func() (int64, int64, int) {
			p := l.Progress()
			return p.Bytes, p.Total, p.Calls
		},
		Snapshot: l.Snapshot,
		Done:     l.Done(),
		Wait:     l.Wait,
		Waiting:  func() bool { return l.Progress().Waiting },
		More: func() (*session.Stream, error) {
			next, err := l.Continue()
			if err != nil {
				return nil, err
			}
			return stream(next), nil
		},
	}
}
