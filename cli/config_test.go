package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tuikeys "github.com/afinspect/inspect/tui/keys"
)

// withConfig runs the command line with content as its config file.
func withConfig(t *testing.T, content string, args ...string) (code int, stdout, stderr, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	code = Run(args, &o, &e, Build{Version: "test", Config: path})
	return code, o.String(), e.String(), path
}

func TestConfigPath(t *testing.T) {
	t.Setenv("INSPECT_CONFIG", "/somewhere/c.toml")
	if p := ConfigPath(); p != "/somewhere/c.toml" {
		t.Errorf("INSPECT_CONFIG: %q", p)
	}
	t.Setenv("INSPECT_CONFIG", "")
	if p := ConfigPath(); p != "" {
		t.Errorf("INSPECT_CONFIG empty: %q", p)
	}
	os.Unsetenv("INSPECT_CONFIG")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if p := ConfigPath(); p != "/xdg/inspect/config.toml" {
		t.Errorf("XDG_CONFIG_HOME: %q", p)
	}
}

// Every key binding by name: the file's keys stand, and inspect config
// says each came from its line.
func TestConfigEveryKey(t *testing.T) {
	var b strings.Builder
	b.WriteString("[keys]\n")
	names := tuikeys.KeyNames()
	for i, n := range names {
		fmt.Fprintf(&b, "%s = [\"f%d\", \"ctrl+%c\"]\n", n, i+1, 'a'+rune(i%26))
	}
	code, out, errs, path := withConfig(t, b.String(), "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i, n := range names {
		want := fmt.Sprintf("%s = [\"f%d\", \"ctrl+%c\"]  # %s:%d\n", n, i+1, 'a'+rune(i%26), path, i+2)
		if !strings.Contains(out, want) {
			t.Errorf("inspect config does not say %q", want)
		}
	}
	c, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	km := c.keyMap()
	for i, n := range names {
		if got, _ := km.KeysOf(n); len(got) != 2 || got[0] != fmt.Sprintf("f%d", i+1) {
			t.Errorf("%s: %q", n, got)
		}
	}
	// none given: the defaults, said so
	code, out, _, _ = withConfig(t, "", "config")
	if code != 0 || !strings.Contains(out, "next_call = [\"right\", \"l\"]  # default\n") || !strings.Contains(out, "theme = \"auto\"  # default\n") {
		t.Errorf("empty file: exit %d\n%s", code, out)
	}
}

func TestConfigBadFiles(t *testing.T) {
	for _, c := range []struct {
		name, file string
		args       []string
		want       string
	}{
		{"theme", `theme = "blue"`, nil, `:1: theme: the theme is "auto", "dark" or "light", not blue`},
		{"syntax", "[keys\nquit = \"q\"\n", nil, ":2: expected '.' or ']' to end table name"},
		{"syntax later", "theme = \"dark\"\n\n[keys]\nquit = 'q\n", nil, ":4: "},
		{"unknown key binding", "[keys]\nnext_cal = [\"x\"]\n", nil, ":2: keys.next_cal: no such key binding; the names are prev_call, next_call"},
		{"key of a number", "[keys]\nquit = 3\n", nil, ":2: keys.quit: a key is a string or a list of strings"},
		{"no key", "[keys]\nquit = []\n", nil, ":2: keys.quit: an entry needs at least one key"},
		{"key list of numbers", "[keys]\nquit = [\"q\", 4]\n", nil, ":2: keys.quit: keys are strings"},
		{"unknown setting", "colour = \"red\"\n", nil, ":1: colour: no such setting"},
		{"unknown command", "[defaults.reprot]\nformat = \"markdown\"\n", nil, ":1: defaults.reprot: no such command (ui, report, export, evidence, advise, share)"},
		{"unknown flag", "\n[defaults.report]\nbogus = 1\n", nil, ":3: defaults.report.bogus: inspect report has no flag --bogus"},
		{"a float", "[defaults.report]\nkeep-recent-turns = 1.5\n", nil, ":2: defaults.report.keep-recent-turns: a float64 is no flag's value"},
		{"a bad value", "[defaults.report]\nkeep-recent-turns = \"many\"\n", []string{"report", s01}, `:2: defaults.report.keep-recent-turns: invalid argument "many" for "--keep-recent-turns" flag`},
		{"theme twice", "theme = \"dark\"\n[defaults.ui]\ntheme = \"light\"\n", nil, ":3: defaults.ui.theme: the theme is given twice"},
		{"not UTF-8", "theme = \"\xff\xfe\"\n", nil, ":1: "},
		{"a number for a table", "[defaults]\nreport = 3\n", nil, ":2: defaults.report: the flags of a command are a table ([defaults.report] and a line a flag), not integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if args == nil {
				args = []string{"report", "-q", s01}
			}
			code, out, errs, path := withConfig(t, c.file, args...)
			if code != exitUsage || !strings.Contains(errs, path+c.want) || !strings.Contains(errs, "INSPECT_CONFIG=") {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, path+c.want)
			}
			if out != "" {
				t.Errorf("a command ran: %q", out[:min(len(out), 80)])
			}
		})
	}
	// a folder where the file should be
	var o, e bytes.Buffer
	if code := Run([]string{"config"}, &o, &e, Build{Config: t.TempDir()}); code != exitUsage || !strings.Contains(e.String(), "is a directory") {
		t.Errorf("a folder: exit %d %q", code, e.String())
	}
}

// flag > config > default, for a command's own flag and a policy knob.
func TestConfigPrecedence(t *testing.T) {
	const file = "[defaults.report]\nformat = \"markdown\"\n\n[defaults.export]\nkeep-recent-turns = 3\n"
	if _, out, _, _ := withConfig(t, file, "report", "-q", s01); !strings.HasPrefix(out, "### inspect report") {
		t.Errorf("config: report is not Markdown: %q", out[:min(len(out), 60)])
	}
	if _, out, _, _ := withConfig(t, file, "report", "-q", "--format", "table", s01); !strings.HasPrefix(out, "CALL") {
		t.Errorf("flag over config: report is not the table: %q", out[:min(len(out), 60)])
	}
	if _, out, _, _ := withConfig(t, "", "report", "-q", s01); !strings.HasPrefix(out, "CALL") {
		t.Errorf("default: report is not the table")
	}
	policy := func(out string) (int, []string) {
		var d struct {
			Policy struct {
				KeepRecentTurns int      `json:"keepRecentTurns"`
				Given           []string `json:"given"`
			} `json:"policy"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d.Policy.KeepRecentTurns, d.Policy.Given
	}
	_, out, _, _ := withConfig(t, file, "export", "-q", s01)
	if k, given := policy(out); k != 3 || strings.Join(given, ",") != "keepRecentTurns" {
		t.Errorf("config: keepRecentTurns %d, given %v; want 3 from the file", k, given)
	}
	_, out, _, _ = withConfig(t, file, "export", "-q", "--keep-recent-turns", "1", s01)
	if k, _ := policy(out); k != 1 {
		t.Errorf("flag over config: keepRecentTurns %d, want 1", k)
	}
	_, out, _, _ = withConfig(t, "", "export", "-q", s01)
	if k, given := policy(out); k != 2 || len(given) != 0 {
		t.Errorf("default: keepRecentTurns %d given %v, want 2 inferred (s01's recorded policy)", k, given)
	}
	// the UI's theme: the file's, unless --theme says otherwise
	for _, c := range []struct {
		args []string
		want string
	}{{nil, "light"}, {[]string{"--theme", "dark"}, "dark"}} {
		path := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(path, []byte("theme = \"light\"\n"), 0o644)
		cfg, err := loadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		a := &app{config: cfg, build: Build{}}
		root := a.root()
		if err := root.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		if err := cfg.apply(root); err != nil {
			t.Fatal(err)
		}
		if got := root.Flags().Lookup("theme").Value.String(); got != c.want {
			t.Errorf("%v: theme %q, want %q", c.args, got, c.want)
		}
	}
	if _, out, _, path := withConfig(t, file, "config"); !strings.Contains(out, "[defaults.report]\n") || !strings.Contains(out, "format = \"markdown\"  # "+path+":2\n") || !strings.Contains(out, "keep-recent-turns = 3  # "+path+":5\n") {
		t.Errorf("inspect config:\n%s", out)
	}
}

// No file makes loading panic: it is read or refused.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{"theme = \"dark\"\n[keys]\nquit = [\"q\"]\n[defaults.report]\nformat = \"markdown\"\n",
		"[keys\n", "[defaults]\nreport = 3\n", "[[keys]]\nquit = 1\n", "keys = 4\n", "defaults = { report = { format = [[1]] } }\n",
		"[defaults.ui]\ntheme = \"light\"\ntheme = \"dark\"\n", "\xff\xfe", "a.b.c.d = 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		var o, e bytes.Buffer
		if code := Run([]string{"config"}, &o, &e, Build{Config: path}); code != 0 && code != exitUsage {
			t.Errorf("exit %d", code)
		}
	})
}
