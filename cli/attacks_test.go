package cli

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// s01's envelope with its producer version replaced.
func envelopeWithVersion(t *testing.T, version string) string {
	t.Helper()
	raw := gunzipFile(t, "../testdata/s01-basic-loop/recording.json.gz")
	const named = `"agentfootprintVersion":"9.62.0"`
	out := strings.Replace(string(raw), named, `"agentfootprintVersion":`+strconv.Quote(version), 1)
	if !strings.Contains(string(raw), named) {
		t.Fatal("s01's envelope does not name 9.62.0")
	}
	path := filepath.Join(t.TempDir(), "recording.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A producer version that cannot be read, or that is outside the
// versions read, is a problem saying so and which rules were used
// instead; a version read is none.
func TestProducerVersionProblems(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"9.5", `producer.agentfootprintVersion "9.5" is not a version X.Y.Z, so it names none: the 9.57 window rules are used (default: `},
		{"-1.0.0", `producer.agentfootprintVersion "-1.0.0" is not a version X.Y.Z, so it names none: the 9.57 window rules are used`},
		{"９.５７.０", `producer.agentfootprintVersion "９.５７.０" is not a version X.Y.Z, so it names none: the 9.57 window rules are used`},
		{"10.0.0", "producer.agentfootprintVersion 10.0.0 is newer than any version read (9.54.0 – 9.62.x), whose rules may have changed since: the 9.57 window rules are used (envelope: "},
		{"9.53.0", "producer.agentfootprintVersion 9.53.0 is older than any version read (9.54.0 – 9.62.x): the 9.54 window rules are used (envelope: "},
		{"9.62.0", ""},
	} {
		code, _, errs := runCLI("report", "-q", envelopeWithVersion(t, c.version))
		if code != 0 && code != exitDiffers {
			t.Errorf("%s: exit %d: %s", c.version, code, errs)
		}
		if c.want == "" {
			if strings.Contains(errs, "producer.agentfootprintVersion") {
				t.Errorf("%s: a version read is no problem: %s", c.version, errs)
			}
			continue
		}
		if !strings.Contains(errs, c.want) {
			t.Errorf("%s: stderr does not say\n%s\n%s", c.version, c.want, errs)
		}
	}
}

func gunzipFile(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// --all-problems says every problem of the file, each once, as the loader
// meets them; without it the first 1,000 and one line counting the rest.
func TestAllProblemsStreamed(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(string(mustRead(t, s01)), "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l + "\n")
		if i == 3 {
			b.WriteString(strings.Repeat("x\n", 3000))
		}
	}
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	count := func(errs string) (bad int, summary bool) {
		for _, l := range strings.Split(errs, "\n") {
			switch {
			case strings.Contains(l, "more problems not listed"):
				summary = true
			case strings.Contains(l, "invalid character 'x'") && strings.HasPrefix(l, path+":"):
				bad++
			}
		}
		return
	}
	code, _, errs := runCLI("report", "-q", "--all-problems", path)
	if bad, _ := count(errs); code != 0 || bad != 3000 || !strings.Contains(errs, path+":3004: invalid JSON") {
		t.Errorf("--all-problems: exit %d, %d of the 3000 bad lines said", code, bad)
	}
	code, _, errs = runCLI("report", "-q", path)
	if bad, summary := count(errs); code != 0 || bad != 1000 || !summary {
		t.Errorf("without it: exit %d, %d bad lines said (want 1000), the rest counted: %v", code, bad, summary)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
