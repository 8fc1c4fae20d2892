package cli

import (
	"strings"
	"testing"
)

const attacks = "../testdata/attacks/"

// A summarize-oldest log cut before its first llm_end names no threshold
// and recorded no input to take one from: every command opens it, as the
// UI does, and says so in a problem (no flag asked for the strategy, so
// it is no usage error).
func TestSummarizeCutBeforeFirstLLMEnd(t *testing.T) {
	path := attacks + "summarize-cut-before-first-llm_end.jsonl"
	const said = "summarize-oldest names no threshold and no call recorded its input"
	for _, cmd := range []string{"report", "export", "evidence", "advise"} {
		code, out, errs := runCLI(cmd, path)
		if code != 0 || out == "" {
			t.Errorf("%s: exit %d, %d bytes out; stderr %q", cmd, code, len(out), errs)
		}
		if !strings.Contains(out+errs, said) {
			t.Errorf("%s does not say why there is no threshold:\n%s", cmd, errs)
		}
	}
	// a strategy asked for by flag still needs its threshold
	if code, _, errs := runCLI("report", "--strategy", "token-budget", path); code != exitUsage || !strings.Contains(errs, "needs --threshold-tokens") {
		t.Errorf("--strategy token-budget on it: exit %d, %q", code, errs)
	}
}
