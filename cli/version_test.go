package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

func TestVersionOfBuildInfo(t *testing.T) {
	vcs := &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/afinspect/inspect", Version: "v0.0.0-20261201220000-9f3c2a1b7d4e+dirty"},
		Settings: []debug.BuildSetting{{Key: "-trimpath", Value: "true"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "9f3c2a1b7d4e5f60718293a4b5c6d7e8f9a0b1c2"}, {Key: "vcs.time", Value: "2026-12-01T22:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		name    string
		release string
		info    *debug.BuildInfo
		want    string
	}{
		{"a checkout's commit", "", vcs, "inspect v0.0.0-20261201220000-9f3c2a1b7d4e+dirty (9f3c2a1b7d4e, 2026-12-01T22:00:00Z, modified)"},
		{"a release's version first", "1.2.0", vcs, "inspect 1.2.0 (9f3c2a1b7d4e, 2026-12-01T22:00:00Z, modified)"},
		{"go install …@v1.2.0", "", &debug.BuildInfo{Main: debug.Module{Path: "github.com/afinspect/inspect", Version: "v1.2.0"}}, "inspect v1.2.0"},
		{"-buildvcs=false in a checkout", "", &debug.BuildInfo{Main: debug.Module{Path: "github.com/afinspect/inspect", Version: "(devel)"}}, "inspect (devel)"},
		{"no build info", "", nil, "inspect (unknown)"},
		{"clean", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.1"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "inspect v1.0.1 (abc)"},
	} {
		if got := versionOf(c.release, c.info).Line(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	var out, errs bytes.Buffer
	if code := Run([]string{"--version"}, &out, &errs, Build{Info: vcs}); code != 0 || out.String() != "inspect v0.0.0-20261201220000-9f3c2a1b7d4e+dirty (9f3c2a1b7d4e, 2026-12-01T22:00:00Z, modified)\n" {
		t.Errorf("--version: exit %d, %q %q", code, out.String(), errs.String())
	}
	out.Reset()
	if code := Run([]string{"version"}, &out, &errs, Build{Info: vcs}); code != 0 {
		t.Fatalf("version: exit %d, %q", code, errs.String())
	}
	for _, w := range []string{"module    github.com/afinspect/inspect\n", "go        go1.26.1\n", "revision  9f3c2a1b7d4e5f60718293a4b5c6d7e8f9a0b1c2\n", "time      2026-12-01T22:00:00Z\n", "modified  true\n"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("version does not say %q:\n%s", w, out.String())
		}
	}
	// the test binary's own build info, as main reads it
	bi, ok := debug.ReadBuildInfo()
	if !ok || versionOf("", bi).Go == "" {
		t.Error("no build info in the test binary")
	}
}

func TestManPages(t *testing.T) {
	code, out, errs := runCLI("man")
	if code != 0 {
		t.Fatalf("man: exit %d %q", code, errs)
	}
	for _, w := range []string{`.TH "INSPECT" "1"`, ".SH NAME\ninspect - step through a recorded agentfootprint run", ".SH SYNOPSIS", ".SH OPTIONS", `\fB--theme\fP`, ".SH SEE ALSO", `\fBinspect-share(1)\fP`, `\fBinspect-report(1)\fP`, "inspect share [flags] FILE -o PAGE.html   one self-contained HTML page"} {
		if !strings.Contains(out, w) {
			t.Errorf("inspect(1) lacks %q", w)
		}
	}
	dir := t.TempDir()
	if code, _, errs := runCLI("man", "-d", dir); code != 0 || !strings.Contains(errs, "manual pages in") {
		t.Fatalf("man -d: exit %d %q", code, errs)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	var names []string
	for _, p := range pages {
		names = append(names, filepath.Base(p))
	}
	for _, w := range []string{"inspect.1", "inspect-report.1", "inspect-export.1", "inspect-evidence.1", "inspect-advise.1", "inspect-share.1", "inspect-version.1", "inspect-man.1"} {
		if !slices.Contains(names, w) {
			t.Errorf("no %s among %v", w, names)
		}
	}
	share, err := os.ReadFile(filepath.Join(dir, "inspect-share.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`.TH "INSPECT" "1"`, `\fB-o\fP, \fB--output\fP`, `\fB--call\fP`, "self-contained HTML page"} {
		if !strings.Contains(string(share), w) {
			t.Errorf("inspect-share(1) lacks %q", w)
		}
	}
}

func TestColorWanted(t *testing.T) {
	for _, c := range []struct {
		env      map[string]string
		terminal bool
		want     bool
	}{
		{nil, true, true},
		{nil, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"NO_COLOR": ""}, true, true}, // set but empty: no-color.org's "not an empty string"
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "1"}, true, true},
		{map[string]string{"CLICOLOR": "0"}, true, false},
		{map[string]string{"TERM": "xterm-256color"}, true, true},
	} {
		if got := colorWanted(c.terminal, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v on a terminal %v: colour %v, want %v", c.env, c.terminal, got, c.want)
		}
	}
}

// CLICOLOR_FORCE colours report's "differs" in a pipe; NO_COLOR wins.
func TestReportColourFromEnvironment(t *testing.T) {
	args := []string{"report", "-q", "--keep-last-tool-results", "0", s01}
	t.Setenv("CLICOLOR_FORCE", "1")
	if _, out, _ := runCLI(args...); !strings.Contains(out, "\x1b[31mdiffers\x1b[0m") {
		t.Error("CLICOLOR_FORCE=1: no colour in a pipe")
	}
	t.Setenv("NO_COLOR", "1")
	if _, out, _ := runCLI(args...); strings.Contains(out, "\x1b[") {
		t.Error("NO_COLOR=1 with CLICOLOR_FORCE=1: colour")
	}
}

func TestDumbTerminalRefusesTheUI(t *testing.T) {
	t.Setenv("TERM", "dumb")
	code, _, errs := runCLI(s01)
	if code != exitUsage || !strings.Contains(errs, "TERM=dumb: this terminal cannot move the cursor") || !strings.Contains(errs, "inspect report FILE") {
		t.Errorf("TERM=dumb: exit %d, %q", code, errs)
	}
	if code, out, _ := runCLI("report", "-q", s01); code != 0 || !strings.HasPrefix(out, "CALL") {
		t.Errorf("TERM=dumb report: exit %d", code)
	}
}
