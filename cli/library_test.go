package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

const v956 = "../testdata/v9.56.0-demo-evidence/run.jsonl"

// --library-version X.Y.Z (§13.2): any other value is a usage error, on
// every command that replays; a version before 9.57.0 replays the 9.56.0
// log as the library made it, flags and all (its wire policy: K 2, no pins).
func TestLibraryVersionFlag(t *testing.T) {
	for _, cmd := range []string{"export", "report", "evidence", ""} {
		args := []string{"--library-version", "9.56", v956}
		if cmd != "" {
			args = append([]string{cmd}, args...)
		}
		code, _, errs := runCLI(args...)
		if code != 2 || !strings.Contains(errs, "--library-version") {
			t.Errorf("%v: exit %d, %q; want 2 naming the flag", args, code, errs)
		}
	}
	code, out, errs := runCLI("export", "-q", "--library-version", "9.56.0", "--strategy", "sliding-window",
		"--keep-recent-turns", "2", "--keep-last-tool-results", "0", v956)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc exported
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Calls {
		if c.RecordedWindow != "match" {
			t.Errorf("call %d: %s under 9.56.0's rules", c.Call, c.RecordedWindow)
		}
	}
	// the same flags under 9.62.0's rules: the notices name tool results
	// and the follow-up's iteration 3 is no longer vetoed
	_, out, _ = runCLI("export", "-q", "--library-version", "9.62.0", "--strategy", "sliding-window",
		"--keep-recent-turns", "2", "--keep-last-tool-results", "0", v956)
	if !strings.Contains(out, `"recordedWindow":"differs"`) {
		t.Errorf("9.62.0's rules reproduce every 9.56.0 window")
	}
}
