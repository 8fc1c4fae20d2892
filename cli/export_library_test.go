package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportedLibrary is what the export says of the library version and the
// tier (§13.3).
type exportedLibrary struct {
	LibraryVersion struct {
		Version  *string `json:"version"`
		Rules    string  `json:"rules"`
		Source   string  `json:"source"`
		Evidence string  `json:"evidence"`
	} `json:"libraryVersion"`
	Tier string `json:"tier"`
}

// The export says whose window rules it replayed and how that was decided
// (flag, envelope, the log's evidence, default), and the tier; the report
// footer says the same.
func TestExportSaysLibraryAndTier(t *testing.T) {
	for _, c := range []struct {
		args                   []string
		version, rules, source string
		evidence, tier, named  string
	}{
		{[]string{v956}, "", "9.55", "log", "call 4 ", "standard", "9.55–9.56"},
		{[]string{"--library-version", "9.54.0", v956}, "9.54.0", "9.54", "flag", "--library-version 9.54.0", "standard", "≤ 9.54"},
		{[]string{"../testdata/v9.56.0-demo-evidence/recording.json.gz"}, "9.56.0", "9.55", "envelope", "producer.agentfootprintVersion 9.56.0", "standard", "9.55–9.56"},
		{[]string{"../testdata/n09-tier-minimal/run.jsonl"}, "", "9.57", "default", "9.57.0–9.62.0", "minimal", "9.57–9.62"},
	} {
		code, out, errs := runCLI(append([]string{"export", "-q"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		var doc exportedLibrary
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		l := doc.LibraryVersion
		version := ""
		if l.Version != nil {
			version = *l.Version
		}
		if version != c.version || l.Rules != c.rules || l.Source != c.source || !strings.Contains(l.Evidence, c.evidence) || doc.Tier != c.tier {
			t.Errorf("%v: %+v (version %q), tier %s", c.args, l, version, doc.Tier)
		}
		_, report, _ := runCLI(append([]string{"report", "-q"}, c.args...)...)
		if want := "library: the " + c.named + " window rules"; !strings.Contains(report, want) || !strings.Contains(report, "from "+c.source) {
			t.Errorf("%v: the report footer lacks %q from %s", c.args, want, c.source)
		}
	}
}

// At tier minimal a token strategy's threshold and counts are not in the
// log: the policy's thresholdTokens and an engaged record's measuredTokens
// are null, never 0 (§16.4). The log is c09 as tier minimal writes it.
func TestExportTokensUnknownAtTierMinimal(t *testing.T) {
	data, err := os.ReadFile("../testdata/c09-token-budget-followups/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, `"agentfootprint.stream.`) && !strings.Contains(l, `"agentfootprint.context.`) {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("export", "-q", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Tier   string `json:"tier"`
		Policy struct {
			ThresholdTokens json.RawMessage `json:"thresholdTokens"`
		} `json:"policy"`
		Calls []struct {
			Record map[string]json.RawMessage `json:"record"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tier != "minimal" || string(doc.Policy.ThresholdTokens) != "null" {
		t.Errorf("tier %s, thresholdTokens %s; want minimal, null", doc.Tier, doc.Policy.ThresholdTokens)
	}
	records := 0
	for _, c := range doc.Calls {
		if c.Record == nil {
			continue
		}
		records++
		if string(c.Record["measuredTokens"]) != "null" || string(c.Record["thresholdTokens"]) != "null" || string(c.Record["overBudget"]) != "true" {
			t.Errorf("record %v: counts not null", c.Record)
		}
	}
	if records == 0 {
		t.Error("no record: the strategy never engaged")
	}
	if code, _, errs := runCLI("export", "-q", "--threshold-tokens", "900", path); code != 0 || !strings.Contains(errs, "cannot be applied") {
		t.Errorf("--threshold-tokens at tier minimal: exit %d, %q", code, errs)
	}
}
