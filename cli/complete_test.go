package cli

import (
	"strings"
	"testing"
)

// completed is what `inspect __complete ARGS` offers, without the
// directive line.
func completed(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, _ := runCLI(append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d", args, code)
	}
	var words []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, ":") {
			words = append(words, l)
		}
	}
	return words
}

func TestFlagValuesComplete(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evidence", "--in", ""}, "answers arguments all"},
		{[]string{"share", "--in", "a"}, "answers arguments all"},
		{[]string{"evidence", "--fail-on", ""}, "left in-view-text never-read summary-unsupported flagged"},
		{[]string{"evidence", "--fail-on", "left,"}, "left,in-view-text left,never-read left,summary-unsupported left,flagged"},
		{[]string{"report", "--strategy", ""}, "sliding-window token-budget summarize-oldest none"},
		{[]string{"--theme", ""}, "auto dark light"},
		{[]string{"report", "--format", ""}, "table markdown"},
		{[]string{"evidence", "--format", ""}, "table json"},
		{[]string{"export", "--format", ""}, "json"},
		// the agents of the file on the line (c02: two agents; n06: a
		// Parallel of two branches, and the composition itself)
		{[]string{"report", "../testdata/c02-interleaved-agents/run.jsonl", "--agent", ""}, "oncall billing"},
		{[]string{"evidence", "../testdata/n06-parallel-composition/run.jsonl", "--agent", ""}, "triage/metrics triage/logs triage"},
		{[]string{"report", "../testdata/no-such-file.jsonl", "--agent", ""}, ""},
	} {
		if got := strings.Join(completed(t, c.args...), " "); got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}
