// Package cli is inspect's command line: one file per command (the
// terminal UI, report, export, evidence, advise), each declaring its own
// flags on cobra, with the help, the shell completion and the exit
// statuses. A command parses its flags, opens the file, asks study for
// the answers and writes them (a table here, JSON through export, a
// screen through tui).
//
// It never decides a window, a verdict or a policy: study settles the
// policy and replays, window and evidence hold the rules.
package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/termtext"
)

// Build is what the program was built with: its version, and the
// embedded demo run that `inspect` alone opens.
type Build struct {
	// Version is a release's, set at link time; "" reads the module's
	// from Info.
	Version string
	Info    *debug.BuildInfo // runtime/debug.ReadBuildInfo's; nil when the binary has none
	Demo    []byte
	// Config is the config file to read (ConfigPath); "" reads none.
	Config string
}

// Exit statuses.
const (
	exitOK      = 0
	exitFile    = 1 // the file could not be read (or an output could not be written)
	exitUsage   = 2
	exitDiffers = 3 // --fail-on-differs found a window not reproduced
	exitFlagged = 4 // --fail-on found a value
)

// exitCode is how a command ends with a status other than 0; what it had
// to say was said before.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// seeHelp closes a usage error.
const seeHelp = "run inspect --help for the commands and flags\n"

// app is one run of the command line: where it writes, and what it was
// built with.
type app struct {
	build  Build
	stdout io.Writer
	stderr *termtext.Writer // every line to stderr goes through termtext
	raw    io.Writer        // stderr unsanitized, for the progress line's cursor controls
	config *config          // the config file's settings
}

// Run is the command line: args are os.Args[1:]. Every line it writes to
// stderr goes through termtext (a file name or a strategy name may carry
// escapes), and a stderr that cannot be written makes the exit status
// non-zero.
func Run(args []string, stdout, stderr io.Writer, build Build) int {
	a := &app{build: build, stdout: stdout, stderr: termtext.NewWriter(stderr), raw: stderr}
	cfg, err := loadConfig(build.Config)
	if err != nil {
		return a.badConfig(err)
	}
	a.config = cfg
	root := a.root()
	if err := cfg.checkFlags(root); err != nil {
		return a.badConfig(err)
	}
	root.SetArgs(args)
	code := exitOK
	if err := root.Execute(); err != nil {
		var e exitCode
		if !errors.As(err, &e) {
			errors.As(a.misuse(err), &e) // cobra's own: an unknown help topic, say
		}
		code = int(e)
	}
	if a.stderr.Err() != nil && code == exitOK {
		return exitFile
	}
	return code
}

// badConfig says what is wrong with the config file, and ends with
// status 2 before any command runs.
func (a *app) badConfig(err error) int {
	fmt.Fprintf(a.stderr, "inspect: config %v\n(fix the file, or run with INSPECT_CONFIG= to read none)\n", err)
	if a.stderr.Err() != nil {
		return exitFile
	}
	return exitUsage
}

// root is `inspect [FILE]` (the terminal UI) with the other commands
// beneath it.
func (a *app) root() *cobra.Command {
	root := a.uiCmd()
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(a.flagError)
	for _, c := range []*cobra.Command{a.reportCmd(), a.exportCmd(), a.evidenceCmd(), a.adviseCmd(), a.diffCmd(), a.compareCmd(), a.shareCmd()} {
		c.Args = cobra.ArbitraryArgs // counted by the command, in its own words
		root.AddCommand(c)
	}
	commandHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root {
			fmt.Fprint(a.stdout, usage)
			return
		}
		commandHelp(c, args)
	})
	root.AddCommand(a.versionCmd(), a.manCmd(), a.configCmd(), a.completionCmd())
	// the config file's flags for the command that runs, where the
	// command line gave none
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if err := a.config.apply(c); err != nil {
			return exitCode(a.badConfig(err))
		}
		return nil
	}
	root.InitDefaultHelpCmd()
	registerCompletions(root)
	return root
}

// flagError rewords a flag that cannot be parsed in the words --help
// uses (two dashes, the value named), and a flag another command takes
// as that command's.
func (a *app) flagError(c *cobra.Command, err error) error {
	var (
		unknown  *pflag.NotExistError
		noValue  *pflag.ValueRequiredError
		badValue *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &unknown):
		name := unknown.GetSpecifiedName()
		if len(name) == 1 {
			if f := c.Root().Flags().ShorthandLookup(name); f != nil {
				name = f.Name // a UI flag's short form
			} else if home := flagHome(c.Root(), name); home != nil {
				name = home.Flags().ShorthandLookup(name).Name
			}
		}
		if msg, ok := elsewhere(c, name); ok {
			fmt.Fprintln(a.stderr, msg)
			return exitCode(exitUsage)
		}
		err = fmt.Errorf("unknown flag --%s", name)
	case errors.As(err, &noValue):
		err = fmt.Errorf("--%s needs a value", noValue.GetFlag().Name)
	case errors.As(err, &badValue):
		err = fmt.Errorf("--%s: %q is not a whole number", badValue.GetFlag().Name, badValue.GetValue())
	}
	return a.misuse(err)
}

// misuse says what is wrong with the command line, and where to read
// how it goes, and ends it with status 2.
func (a *app) misuse(err error) error {
	fmt.Fprintf(a.stderr, "inspect: %v\n%s", err, seeHelp)
	return exitCode(exitUsage)
}

// flagHome is the command whose flag has shorthand short, nil for none.
func flagHome(root *cobra.Command, short string) *cobra.Command {
	for _, c := range root.Commands() {
		if c.Flags().ShorthandLookup(short) != nil {
			return c
		}
	}
	return nil
}

// elsewhere says which command takes flag name, when c does not and
// another does.
func elsewhere(c *cobra.Command, name string) (string, bool) {
	cmd := "inspect " + c.Name()
	if c == c.Root() {
		cmd = "inspect"
	}
	switch name {
	case "follow":
		return fmt.Sprintf("%s: -f follows a file in the terminal UI only (inspect -f FILE)", cmd), true
	case "theme":
		return fmt.Sprintf("%s: --theme colours the terminal UI only (inspect --theme auto|dark|light FILE)", cmd), true
	case "fail-on":
		return fmt.Sprintf("inspect: --fail-on is for inspect evidence (--fail-on-differs for %s)", c.Name()), true
	}
	var homes []string
	for _, h := range append([]*cobra.Command{c.Root()}, c.Root().Commands()...) {
		if h != c && h.Flags().Lookup(name) != nil {
			if h == c.Root() {
				homes = append(homes, "the terminal UI")
			} else {
				homes = append(homes, "inspect "+h.Name())
			}
		}
	}
	if len(homes) == 0 {
		return "", false
	}
	return fmt.Sprintf("%s: --%s is for %s", cmd, name, strings.Join(homes, ", ")), true
}

// usageError says what is wrong with a command line and ends it with
// status 2.
func (a *app) usageError(format string, args ...any) error {
	fmt.Fprintf(a.stderr, format+"\n", args...)
	return exitCode(exitUsage)
}

// fail says why the command could not go on and ends it with code.
func (a *app) fail(code int, err error) error {
	fmt.Fprintf(a.stderr, "inspect: %v\n", err)
	return exitCode(code)
}
