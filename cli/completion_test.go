package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestMain lets the completion test run this test binary as `inspect`:
// the shells call `inspect __complete …` on every TAB.
func TestMain(m *testing.M) {
	if os.Getenv("INSPECT_TEST_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// hostileNames are file names that run a command when a completion
// script evaluates them: each touches its own PWNED file.
var hostileNames = []string{
	"bug-report$(touch PWNED1).jsonl",
	"bug`touch PWNED2`.jsonl",
	"bug\n;touch PWNED3;\n.jsonl",
	"bug'\"$(touch PWNED4)\"'.jsonl",
	"bug\ntouch PWNED5\n.jsonl",
}

// completionDir is a folder holding the hostile names, with an
// `inspect` on PATH that is this test binary.
func completionDir(t *testing.T) (dir, path string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "files") // HOME is the folder above
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nINSPECT_TEST_AS_CLI=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "inspect"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range hostileNames {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// shellRun runs the shell's script in dir, its stdout, and fails the
// test if any file appeared in dir (a name was run).
func shellRun(t *testing.T, dir, path string, argv ...string) string {
	t.Helper()
	before := listDir(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+filepath.Dir(dir), "XDG_CONFIG_HOME="+filepath.Join(filepath.Dir(dir), ".config"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", argv[0], err, out)
	}
	if after := listDir(t, dir); strings.Join(after, "\x00") != strings.Join(before, "\x00") {
		t.Errorf("%s ran a file name during completion: the folder went from %q to %q", argv[0], before, after)
	}
	return string(out)
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// needShell is the shell's path; the test is skipped only when the shell
// is not installed (.ci/run installs fish and zsh).
func needShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed here, so its completion script cannot be run (.ci/run installs it)", name)
	}
	return p
}

// The completion scripts hand every word to `inspect __complete` as an
// argument and evaluate none: with file names that are commands on the
// command line (as the shell's own file completion inserts them, and as
// a user types them in quotes), TAB completes and nothing runs.
func TestCompletionNeverRunsAName(t *testing.T) {
	t.Run("fish", func(t *testing.T) {
		fish := needShell(t, "fish")
		dir, path := completionDir(t)
		script := `inspect completion fish | source
for f in *.jsonl
    set -l r (complete -C"inspect report "(string escape -- $f)" --str")
    echo "line: $r[1]"
end
echo "files:"
complete -C"inspect report bug"
echo "end of files"
set -l r (complete -C"inspect rep")
echo "command: $r[1]"
`
		out := shellRun(t, dir, path, fish, "--no-config", "-c", script)
		var strategy, files, command int
		if _, rest, ok := strings.Cut(out, "files:\n"); ok {
			listed, _, _ := strings.Cut(rest, "end of files\n")
			for _, n := range hostileNames {
				if strings.Contains(listed, n+"\n") {
					files++
				}
			}
		}
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(l, "line: --strategy\t"):
				strategy++
			case strings.HasPrefix(l, "command: report\t"):
				command++
			}
		}
		if strategy != len(hostileNames) || files != len(hostileNames) || command != 1 {
			t.Errorf("fish completed --strategy after %d of %d names, listed %d of them, the command %d times:\n%s",
				strategy, len(hostileNames), files, command, out)
		}
	})

	t.Run("bash", func(t *testing.T) {
		bash := needShell(t, "bash")
		dir, path := completionDir(t)
		// the words as readline's file completion quotes them, and as
		// typed inside double quotes
		var words []string
		for _, n := range hostileNames {
			words = append(words, bashQuote(n))
		}
		words = append(words, `"$(touch PWNED6)"`, "\"`touch PWNED7`\"")
		var script strings.Builder
		// bash-completion, when installed, is what a user has loaded
		script.WriteString(`[ -r /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
source <(inspect completion bash)
f=$(complete -p inspect | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
t() {
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    "$f" inspect "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
    printf 'reply: %s\n' "${COMPREPLY[*]}"
}
t inspect rep
`)
		for _, w := range words {
			script.WriteString("t inspect report " + shellSingle(w) + " --str\n")
		}
		out := shellRun(t, dir, path, bash, "--norc", "--noprofile", "-c", script.String())
		if got, want := strings.Count(out, "reply: --strategy\n"), len(words); got != want || !strings.Contains(out, "reply: report\n") {
			t.Errorf("bash completed --strategy after %d of %d words (and report: %v):\n%s", got, want, strings.Contains(out, "reply: report\n"), out)
		}
	})

	t.Run("zsh", func(t *testing.T) {
		zsh := needShell(t, "zsh")
		dir, path := completionDir(t)
		// a real zsh line editor in a pseudo-terminal: TAB completes a
		// file name (zsh quotes it), then a flag after it; a widget prints
		// the line, quoted, once the completions are in. Each read waits
		// for what the last keys made, so no step depends on timing.
		script := `zmodload zsh/zpty
zpty -b z 'zsh -f -i'
zpty -w z 'PS1="PR""OMPT> "; autoload -U compinit; compinit -u -D; source <(inspect completion zsh); showbuf() { BUFFER="print -r -- BUF:${(q)BUFFER}; print EN\"\"D"; zle accept-line }; zle -N showbuf; bindkey "^X" showbuf; print RE""ADY'
zpty -r z line '*READY*'
zpty -r z line '*PROMPT> '
send() {
    zpty -w -n z "$1"$'\C-x'
    zpty -r z out '*END*'
    print -r -- "${out//$'\r'/}" | grep '^BUF:'
    zpty -r z line '*PROMPT> '
}
send 'inspect rep'$'\t'
for n in $@; do send "inspect report ${(q)n} --str"$'\t'; done
send 'inspect report "$(touch PWNED6)" --str'$'\t'
send 'inspect report bug-report'$'\t'' --str'$'\t'
zpty -d z
`
		argv := append([]string{zsh, "-f", "-c", script, "zsh"}, hostileNames...)
		out := shellRun(t, dir, path, argv...)
		want := []string{"BUF:inspect report "}
		for range hostileNames {
			want = append(want, ".jsonl --strategy ")
		}
		// the file name as zsh's own completion inserted it, then the flag
		want = append(want, `BUF:inspect report "$(touch PWNED6)" --strategy `, `BUF:inspect report bug-report\$\(touch\ PWNED1\).jsonl --strategy`)
		got := strings.Split(strings.TrimSpace(out), "\n")
		if len(got) != len(want) {
			t.Fatalf("zsh printed %d lines, want %d:\n%s", len(got), len(want), out)
		}
		for i, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("zsh line %d: %q, want it to hold %q", i, got[i], w)
			}
		}
	})
}

// bashQuote is a name as bash's file completion inserts it: each
// special character after a backslash, a newline as $'\n'.
func bashQuote(n string) string {
	var b strings.Builder
	for _, r := range n {
		switch {
		case r == '\n':
			b.WriteString(`$'\n'`)
		case strings.ContainsRune(" $()`'\";&|<>\\*?[]{}!#~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// shellSingle puts s in single quotes for a POSIX shell.
func shellSingle(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
