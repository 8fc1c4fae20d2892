package cli

import (
	"strings"
	"testing"
)

// Each command has its own help, naming its own flags and no other's,
// and the shells get a completion script.
func TestPerCommandHelpAndCompletion(t *testing.T) {
	for _, c := range []struct {
		cmd       string
		has, hasn []string
	}{
		{"report", []string{"inspect report [flags] FILE", "--keep-recent-turns", "--agent", "--fail-on-differs", "-q, --quiet", "--format FORMAT"}, []string{"--follow", "--fail-on "}},
		{"share", []string{"inspect share [flags] FILE -o PAGE.html", "-o, --output PAGE.html", "--call N", "--keep-recent-turns", "--in VALUES"}, []string{"--format", "--fail-on", "--follow"}},
		{"evidence", []string{"--agent", "--fail-on VERDICTS", "--format"}, []string{"--fail-on-differs", "--theme"}},
		{"export", []string{"--format", "--fail-on-differs"}, []string{"--fail-on ", "--follow"}},
		{"advise", []string{"inspect advise [flags] FILE…", "--agent", "--format", "--library-version", "-q, --quiet", "--max-line-mb", "RECORDED responses"},
			[]string{"--keep-recent-turns", "--fail-on-differs", "--follow"}},
	} {
		for _, args := range [][]string{{"help", c.cmd}, {c.cmd, "--help"}} {
			code, out, errs := runCLI(args...)
			if code != 0 || errs != "" {
				t.Fatalf("%v: exit %d, %q", args, code, errs)
			}
			for _, w := range c.has {
				if !strings.Contains(out, w) {
					t.Errorf("%v does not show %q:\n%s", args, w, out)
				}
			}
			for _, w := range c.hasn {
				if strings.Contains(out, w) {
					t.Errorf("%v shows %q, another command's:\n%s", args, w, out)
				}
			}
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, _ := runCLI("completion", sh)
		if code != 0 || !strings.Contains(out, "inspect") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes", sh, code, len(out))
		}
	}
	// a shell with no script, or none named, is a usage error, not the
	// help with status 0
	for _, args := range [][]string{{"completion", "tcsh"}, {"completion", "powershell"}, {"completion"}} {
		code, out, errs := runCLI(args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "bash, zsh or fish") {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 2 naming the shells", args, code, len(out), errs)
		}
	}
}

// A flag another command takes is named as that command's, not as
// unknown.
func TestFlagOfAnotherCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-q", s01}, "inspect: --quiet is for inspect advise, inspect compare, inspect diff, inspect evidence, inspect export, inspect report"},
		{[]string{"evidence", "--fail-on-differs", s01}, "inspect evidence: --fail-on-differs is for inspect export, inspect report"},
		{[]string{"report", "--bogus", s01}, "inspect: unknown flag --bogus"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, errs, c.want)
		}
	}
}
