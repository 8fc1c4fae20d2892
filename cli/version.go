package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// versionInfo is what the binary says it is: a release's version, else
// the module's, and the commit it was built from when the build stamped
// one (go build in a checkout does; -buildvcs=false or a build outside
// one does not).
type versionInfo struct {
	Version  string // v1.2.3, a pseudo-version, or (devel)
	Module   string
	Go       string
	Revision string
	Time     string
	Modified bool
}

// versionOf reads what a build says of itself: release, when set at
// link time (-ldflags -X main.version=…, as a release build does), comes
// first; else the module's version from bi.
func versionOf(release string, bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: release}
	if bi == nil {
		if v.Version == "" {
			v.Version = "(unknown)"
		}
		return v
	}
	v.Module, v.Go = bi.Main.Path, bi.GoVersion
	if v.Version == "" {
		v.Version = bi.Main.Version
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Line is the version on one line, as --version prints it: "inspect
// v1.2.3", and the commit when stamped ("(9f3c2a1b7d4e, 2026-12-01T22:00:00Z,
// modified)").
func (v versionInfo) Line() string {
	s := "inspect " + v.Version
	if v.Revision == "" {
		return s
	}
	rev := v.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	parts := []string{rev}
	if v.Time != "" {
		parts = append(parts, v.Time)
	}
	if v.Modified {
		parts = append(parts, "modified")
	}
	return s + " (" + strings.Join(parts, ", ") + ")"
}

// versionCmd is `inspect version`: the version and everything the build
// says of itself.
func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version, the commit it was built from and the Go that built it",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := a.version()
			fmt.Fprintln(a.stdout, v.Line())
			row := func(k, val string) {
				if val != "" {
					fmt.Fprintf(a.stdout, "  %-9s %s\n", k, val)
				}
			}
			row("module", v.Module)
			row("go", v.Go)
			row("revision", v.Revision)
			row("time", v.Time)
			if v.Revision != "" {
				row("modified", fmt.Sprint(v.Modified))
			} else {
				row("revision", "not stamped (built with -buildvcs=false or outside a checkout)")
			}
			return nil
		},
	}
}

func (a *app) version() versionInfo { return versionOf(a.build.Version, a.build.Info) }

// manCmd is `inspect man`: the manual pages, made from the commands'
// own help.
func (a *app) manCmd() *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:   "man [-d DIR]",
		Short: "print the manual page inspect(1), or write one page per command into DIR",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root := c.Root()
			root.DisableAutoGenTag = true // the pages are the same for the same binary
			// inspect(1)'s description is --help's text, kept as laid out
			// (indented, it is a block md2man does not reflow)
			root.Long = "    " + strings.ReplaceAll(strings.TrimRight(usage, "\n"), "\n", "\n    ")
			header := &doc.GenManHeader{Title: "INSPECT", Section: "1", Source: a.version().Line(), Manual: "inspect manual"}
			if dir == "" {
				if err := doc.GenMan(root, header, a.stdout); err != nil {
					return a.fail(exitFile, err)
				}
				return nil
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return a.fail(exitFile, err)
			}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return a.fail(exitFile, err)
			}
			pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
			fmt.Fprintf(a.stderr, "inspect: %d manual pages in %s (man -l %s)\n", len(pages), dir, filepath.Join(dir, "inspect.1"))
			return nil
		},
	}
	c.Flags().StringVarP(&dir, "dir", "d", "", "write one page per command into `DIR` (inspect.1, inspect-report.1, …)")
	return c
}
