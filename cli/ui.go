package cli

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/tui"
)

// uiCmd is `inspect [FILE]`: the terminal UI, on FILE or the embedded
// demo run.
func (a *app) uiCmd() *cobra.Command {
	var o options
	var version bool
	c := &cobra.Command{
		Use:   "inspect [FILE]",
		Short: "step through a recorded agentfootprint run and see what the model was sent",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, files []string) error {
			o.noteGiven(c.Flags())
			if err := unknownCommand(c.Root(), files); err != nil {
				return a.misuse(err)
			}
			switch {
			case version:
				fmt.Fprintf(a.stdout, "inspect %s\n", a.build.Version)
				return nil
			case len(files) > 1:
				return a.manyFiles(files)
			}
			path := ""
			if len(files) == 1 {
				path = files[0]
			}
			if err := a.ready(&o, path); err != nil {
				return err
			}
			return a.runUI(path, o)
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

// runUI opens the terminal UI on path (the embedded demo when empty). A
// file that cannot be opened at all is said before the screen is taken.
func (a *app) runUI(path string, o options) error {
	name := path
	switch path {
	case "":
		name = "demo"
	case "-":
		name = "stdin"
	}
	if err := tui.ApplyTheme(o.theme, os.Getenv("COLORFGBG")); err != nil {
		return a.fail(exitUsage, err)
	}
	err := tui.Run(a.uiConfig(name, path, o))
	if sig, ok := err.(*tui.SignalError); ok {
		return exitCode(128 + int(sig.Signal)) // as a shell reports a process the signal ended
	}
	if err != nil {
		return a.fail(exitFile, err)
	}
	return nil
}

// uiConfig is what the terminal UI opens: path streamed in (the demo
// when empty), under the policy knobs given.
func (a *app) uiConfig(name, path string, o options) tui.Config {
	return tui.Config{
		Name:    name,
		Open:    func() *tui.Stream { return stream(a.start(path, o.maxLine(), o.follow)) },
		Reopen:  func() *tui.Stream { return stream(a.start(path, o.maxLine(), true)) },
		Knobs:   o.knobs(),
		Library: o.library,
		Path:    filePath(path),
		Follow:  o.follow,
	}
}

// start begins loading FILE in the background, or the embedded demo when
// path is empty; following, a last line still being written is waited
// for. "-" reads standard input (the UI then reads keys from the
// terminal).
func (a *app) start(path string, maxLine int, following bool) *loader.Loading {
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

// filePath is path when it names a file that can be read again, ""
// for the demo and standard input.
func filePath(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

// stream shows a load in progress to the terminal UI.
func stream(l *loader.Loading) *tui.Stream {
	return &tui.Stream{
		Progress: func() (int64, int64, int) {
			p := l.Progress()
			return p.Bytes, p.Total, p.Calls
		},
		Snapshot: l.Snapshot,
		Done:     l.Done(),
		Wait:     l.Wait,
		Waiting:  func() bool { return l.Progress().Waiting },
		More: func() (*tui.Stream, error) {
			next, err := l.Continue()
			if err != nil {
				return nil, err
			}
			return stream(next), nil
		},
	}
}
