package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tuikeys "github.com/afinspect/inspect/tui/keys"
)

const (
	s01  = "../testdata/s01-basic-loop/run.jsonl"
	demo = "../testdata/demo-incident/run.jsonl"
)

func TestFlagsBeforeOrAfterFile(t *testing.T) {
	for _, args := range [][]string{
		{"export", "--keep-recent-turns", "3", s01},
		{"export", s01, "--keep-recent-turns", "3"},
		{"export", "--keep-recent-turns=3", s01, "-q"},
		{"export", "--keep-recent-turns", "3", "--", s01},
	} {
		code, out, errs := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc exported
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Policy.KeepRecentTurns != 3 {
			t.Errorf("%v: keepRecentTurns %d (%v), want 3", args, doc.Policy.KeepRecentTurns, err)
		}
	}
}

func TestUnknownCommandAndHelp(t *testing.T) {
	code, _, errs := runCLI("repotr", s01)
	if code != 2 || !strings.Contains(errs, `unknown command "repotr"`) {
		t.Errorf("inspect repotr FILE: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI("repotr")
	if code != 2 || !strings.Contains(errs, "not a command") {
		t.Errorf("inspect repotr: exit %d, %q", code, errs)
	}
	code, out, errs := runCLI("help")
	if code != 0 || !strings.Contains(out, "inspect report [flags] FILE") || errs != "" {
		t.Errorf("inspect help: exit %d, stdout %.80q, stderr %q", code, out, errs)
	}
}

func TestKnobValuesRefused(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"report", "--keep-recent-turns", "-1", s01}, "--keep-recent-turns must be 0 or more (got -1)"},
		{[]string{"report", "--keep-last-tool-results", "-1", s01}, "--keep-last-tool-results must be 0 or more"},
		{[]string{"report", "--threshold-tokens", "-5", s01}, "--threshold-tokens must be more than 0 (got -5)"},
		{[]string{"report", "--threshold-tokens", "0", s01}, "--threshold-tokens must be more than 0"},
		{[]string{"report", s01, "--keep-recent-turns"}, "--keep-recent-turns needs a value"},
		{[]string{"report", "--keep-recent-turns", "two", s01}, `--keep-recent-turns: "two" is not a whole number`},
		{[]string{"report", "--strategy=", s01}, "--strategy needs a value"},
	}
	for _, c := range cases {
		code, out, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, %d bytes out; want exit 2 saying %q", c.args, code, errs, len(out), c.want)
		}
	}
	// a token strategy given for an agent whose recorded strategy has no
	// threshold gets the largest recorded input (docs/rules/export-contract.md §13.2)
	largest := 0
	for _, u := range llmEndUsage(t, s01) {
		largest = max(largest, u[0])
	}
	if code, out, errs := runCLI("report", "-q", "--strategy", "token-budget", s01); code != 0 || !strings.Contains(out, fmt.Sprintf("thresholdTokens=%d", largest)) {
		t.Errorf("--strategy token-budget on s01: exit %d, stderr %q; want thresholdTokens=%d", code, errs, largest)
	}
	// with a threshold it runs
	if code, _, errs := runCLI("report", "--strategy", "token-budget", "--threshold-tokens", "900", s01); code != 0 {
		t.Errorf("token-budget with a threshold: exit %d: %s", code, errs)
	}
}

// One wording for each file error, whichever command met it.
func TestFileErrorsWordedOnce(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.jsonl"), "missing.jsonl: no such file"},
		{dir, ": is a directory with no file in it"},
		{empty, "empty.jsonl: is empty"},
	} {
		var said []string
		for _, args := range [][]string{{c.path}, {"report", c.path}, {"export", c.path}} {
			code, _, errs := runCLI(args...)
			if code != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d, %q; want exit 1 saying %q", args, code, errs, c.want)
			}
			said = append(said, errs)
		}
		if said[0] != said[1] || said[1] != said[2] {
			t.Errorf("%s worded differently: %q", c.path, said)
		}
	}
}

func TestFooterSaysGivenAndInferred(t *testing.T) {
	_, out, _ := runCLI("report", "--keep-recent-turns", "3", s01)
	for _, want := range []string{
		"policy: sliding-window keepRecentTurns=3 keepLastToolResults=2",
		"given as flags: keepRecentTurns; inferred from the recording: strategy, keepLastToolResults",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("footer lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCLI("report", s01)
	if strings.Contains(out, "given as flags") || !strings.Contains(out, "inferred from the recording: strategy, keepRecentTurns, keepLastToolResults") {
		t.Errorf("with no flags nothing is given:\n%s", out)
	}
}

func TestQuiet(t *testing.T) {
	_, _, errs := runCLI("report", s01)
	if !strings.Contains(errs, "inspect: policy ") {
		t.Fatalf("without -q the inferred policy is said on stderr: %q", errs)
	}
	for _, q := range []string{"-q", "--quiet"} {
		if _, _, errs := runCLI("report", s01, q); errs != "" {
			t.Errorf("%s: stderr %q, want nothing", q, errs)
		}
	}
}

func TestFailOnDiffers(t *testing.T) {
	// s01 under its recorded policy reproduces every window
	if code, _, errs := runCLI("report", "--fail-on-differs", "-q", s01); code != 0 {
		t.Errorf("recorded policy: exit %d: %s", code, errs)
	}
	// with pins off, s02's windows come out instead (TestExportPinsOffIsS02)
	code, out, errs := runCLI("export", "--fail-on-differs", "-q", "--keep-last-tool-results", "0", s01)
	if code != 3 || !regexp.MustCompile(`\d+ of 9 recorded windows not reproduced`).MatchString(errs) {
		t.Errorf("pins off: exit %d, %q; want 3", code, errs)
	}
	if !json.Valid([]byte(out)) {
		t.Error("the export is still written in full")
	}
	if code, _, _ := runCLI("report", "-q", "--keep-last-tool-results", "0", s01); code != 0 {
		t.Errorf("without the flag a difference exits %d", code)
	}
}

func TestLeftNamesWhatLeft(t *testing.T) {
	// The demo's README: at call 8 the list_hosts turn leaves and a drop
	// notice takes its place.
	_, out, _ := runCLI("report", "-q", demo)
	row := reportRow(t, out, "8")
	if !strings.Contains(row, " list_hosts +notice ") {
		t.Errorf("call 8's LEFT should read list_hosts +notice:\n%s", row)
	}
	if strings.Contains(out, "msgs/") {
		t.Error("LEFT still counts instead of naming")
	}
}

func reportRow(t *testing.T, out, call string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == call {
			return l
		}
	}
	t.Fatalf("no row for call %s:\n%s", call, out)
	return ""
}

// The policy object of §13.3: thresholdTokens for the token strategies
// only, noAnchor only when true.
func TestExportPolicyFields(t *testing.T) {
	for _, c := range []struct {
		args        []string
		has, hasNot []string
	}{
		{[]string{s01}, []string{"strategy", "keepRecentTurns", "keepLastToolResults", "inferred", "given", "evidence"}, []string{"thresholdTokens", "noAnchor"}},
		{[]string{"--no-anchor", "--strategy", "token-budget", "--threshold-tokens", "900", s01}, []string{"thresholdTokens", "noAnchor"}, nil},
	} {
		_, out, _ := runCLI(append([]string{"export", "-q"}, c.args...)...)
		var doc struct {
			Policy map[string]json.RawMessage `json:"policy"`
			Agents []struct {
				Policy map[string]json.RawMessage `json:"policy"`
			} `json:"agents"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Agents) != 1 {
			t.Fatalf("%v: %d agents, want 1", c.args, len(doc.Agents))
		}
		for _, pol := range []map[string]json.RawMessage{doc.Policy, doc.Agents[0].Policy} {
			for _, k := range c.has {
				if _, ok := pol[k]; !ok {
					t.Errorf("%v: policy lacks %q", c.args, k)
				}
			}
			for _, k := range c.hasNot {
				if _, ok := pol[k]; ok {
					t.Errorf("%v: policy has %q", c.args, k)
				}
			}
		}
	}
}

// llmEndUsage reads every stream.llm_end usage of a log, in order, on
// its own (not through the loader).
func llmEndUsage(t *testing.T, path string) [][2]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Type    string `json:"type"`
			Payload struct {
				Usage struct{ Input, Output int } `json:"usage"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type == "agentfootprint.stream.llm_end" {
			out = append(out, [2]int{e.Payload.Usage.Input, e.Payload.Usage.Output})
		}
	}
	return out
}

func TestTokensInReportAndExport(t *testing.T) {
	want := llmEndUsage(t, demo)
	if len(want) != 16 || want[0] != [2]int{145, 40} {
		t.Fatalf("the demo's llm_end usage: %v", want)
	}
	_, out, _ := runCLI("export", "-q", demo)
	var doc struct {
		Calls []struct {
			Usage *struct{ Input, Output int } `json:"usage"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for i, c := range doc.Calls {
		if c.Usage == nil || [2]int{c.Usage.Input, c.Usage.Output} != want[i] {
			t.Errorf("call %d: usage %+v, want %v", i+1, c.Usage, want[i])
		}
	}
	_, out, _ = runCLI("report", "-q", demo)
	if !strings.Contains(out, "TOK IN") {
		t.Fatal("the report has no token columns")
	}
	if f := strings.Fields(reportRow(t, out, "2")); f[7] != "1640" || f[8] != "40" {
		t.Errorf("call 2 tokens %v, want 1640 and 40", f[7:9])
	}
}

func TestHelpListsFlagsAndKeys(t *testing.T) {
	_, out, _ := runCLI("--help")
	for _, want := range []string{"--follow", "--theme", "--quiet", "--fail-on-differs", "/ search", "n/N", "e/E", "v transcript", "y copy", "F follow"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
	if code, _, errs := runCLI("--theme", "sepia", s01); code != 2 || !strings.Contains(errs, "unknown --theme") {
		t.Errorf("--theme sepia: exit %d, %q", code, errs)
	}
}

// TestStrategyNoneFlag: `none` is a strategy the export names (§13.3: an
// agent with no window strategy), so a policy that says it can be given
// back as a flag. Under it nothing ever leaves: s01's nine calls, each
// adding one assistant turn and one tool result, send 1, 3, …, 17
// messages (hand-checked: the run has 8 tool calls, one per iteration).
func TestStrategyNoneFlag(t *testing.T) {
	doc := exportOf(t, "-q", "--strategy", "none", "--keep-last-tool-results", "2", s01)
	if doc.Policy.Strategy != "none" {
		t.Fatalf("policy strategy %q, want none", doc.Policy.Strategy)
	}
	if len(doc.Calls) != 9 {
		t.Fatalf("%d calls, want 9", len(doc.Calls))
	}
	for i, c := range doc.Calls {
		if len(c.Window) != 2*i+1 || len(c.Evicted) != 0 || c.Record != nil {
			t.Errorf("call %d: %d messages, %d evicted, record %v; want %d, 0, none", c.Call, len(c.Window), len(c.Evicted), c.Record, 2*i+1)
		}
	}
}

// TestSummarizeWhatIfOnAnotherStrategy: s09 was recorded under
// token-budget (threshold 3000), so its library never planned a fold and
// refused none (§11.9: refusals are learned under the RECORDED policy).
// Under summarize-oldest at 800 tokens, K 2, the visit of call 4
// (iteration 4, reading 1600) plans to fold turn 1 (messages 1–2: the
// first tool call and its result); no summary of it was ever written, so
// the replay folds with a placeholder frame — whether the other knobs
// are flags too or inferred — instead of calling the span refused.
func TestSummarizeWhatIfOnAnotherStrategy(t *testing.T) {
	const s09 = "../testdata/s09-token-budget/run.jsonl"
	base := []string{"export", "-q", "--strategy", "summarize-oldest", "--threshold-tokens", "800", "--keep-recent-turns", "2"}
	for _, args := range [][]string{append(base, s09), append(base, "--keep-last-tool-results", "2", s09)} {
		code, out, errs := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc struct {
			Calls []struct {
				Call   int `json:"call"`
				Record *struct {
					RemovedMessageCount int   `json:"removedMessageCount"`
					SummaryRecorded     *bool `json:"summaryRecorded"`
				} `json:"record"`
			} `json:"calls"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		r := doc.Calls[3].Record
		if doc.Calls[3].Call != 4 || r == nil || r.RemovedMessageCount != 2 || r.SummaryRecorded == nil || *r.SummaryRecorded {
			t.Errorf("%v: call 4 record %+v, want a placeholder fold of 2 messages", args[len(args)-3:], r)
		}
	}
}

func TestFollowIsForTheUI(t *testing.T) {
	for _, args := range [][]string{{"report", "-f", s01}, {"export", s01, "--follow"}} {
		if code, _, errs := runCLI(args...); code != 2 || !strings.Contains(errs, "terminal UI only") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestNoWindowKeyIsNone: a run_configured with no `window` key is an
// agent with no window strategy (§7, §10.10): `none`, nothing ever
// leaves. s01 with the key taken out: the policy says none, no call has
// a record, and the windows grow by two messages a call (1, 3, …, 17);
// the first four are the library's (its K=2 window first dropped at
// call 5), the rest differ from what it sent — the log now says
// something the library did not do, and the replay says so.
func TestNoWindowKeyIsNone(t *testing.T) {
	data, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `,"window":"sliding-window"`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := exportOf(t, "-q", path)
	if doc.Policy.Strategy != "none" {
		t.Fatalf("policy %+v, want strategy none", doc.Policy)
	}
	for i, c := range doc.Calls {
		want := "match"
		if i >= 4 {
			want = "differs"
		}
		if len(c.Window) != 2*i+1 || c.Record != nil || c.RecordedWindow != want {
			t.Errorf("call %d: %d messages, record %v, %s; want %d, none, %s", c.Call, len(c.Window), c.Record, c.RecordedWindow, 2*i+1, want)
		}
	}
}

// --help names every key the UI's ? lists (its KeyMap), so a key added
// to the UI cannot be missing from it.
func TestHelpNamesEveryKey(t *testing.T) {
	_, out, _ := runCLI("--help")
	i, j := strings.Index(out, "Keys in the UI"), strings.Index(out, "UI flags:")
	if i < 0 || j < i {
		t.Fatalf("no keys paragraph in\n%s", out)
	}
	par := out[i:j]
	split := strings.NewReplacer("(", " ", ")", " ", "·", " ", ",", " ", "/", " ")
	tokens := strings.Fields(split.Replace(par))
	for _, col := range tuikeys.DefaultKeyMap().FullHelp() {
		for _, b := range col {
			k := b.Help().Key
			if k == "/" {
				if !strings.Contains(par, "/ search") {
					t.Errorf("--help does not name / (%s)", b.Help().Desc)
				}
				continue
			}
			// "m·letter" is m then a letter: its key is what comes before the ·
			if first := strings.Fields(split.Replace(k))[0]; !slices.Contains(tokens, first) {
				t.Errorf("--help does not name %s (%s)", first, b.Help().Desc)
			}
		}
	}
}

// The report's columns say what the replay holds; only RECORDED says
// whether the library sent it. Under --keep-recent-turns 3, s01's calls
// 5 and 6 differ from what the library sent (README: recorded under 2).
func TestReportCallsNoColumnSent(t *testing.T) {
	code, out, _ := runCLI("report", "-q", "--keep-recent-turns", "3", s01)
	head, _, _ := strings.Cut(out, "\n")
	if code != 0 || strings.Contains(head, "SENT") || !strings.Contains(head, "MSGS") || !strings.Contains(head, "RECORDED") {
		t.Errorf("exit %d, header %q", code, head)
	}
}

// On a file of several agents every policy line of the report's footer
// names its agent, the first one too.
func TestReportFooterNamesEveryAgent(t *testing.T) {
	code, out, _ := runCLI("report", "-q", "../testdata/c02-interleaved-agents/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"\npolicy of oncall: sliding-window keepRecentTurns=2 ", "\npolicy of billing (inferred): sliding-window keepRecentTurns=4 "} {
		if !strings.Contains(out, want) {
			t.Errorf("the footer has no %q:\n%s", want, out[strings.LastIndex(out, "\n\n"):])
		}
	}
	code, out, _ = runCLI("report", "-q", s01)
	if code != 0 || !strings.Contains(out, "\npolicy: sliding-window") {
		t.Errorf("one agent: want a plain \"policy:\" line, got exit %d:\n%s", code, out)
	}
}

// --theme colours the UI; report, export and evidence refuse it as they
// refuse -f, rather than accept it and do nothing.
func TestThemeIsForTheUIOnly(t *testing.T) {
	for _, cmd := range []string{"report", "export", "evidence"} {
		code, _, errs := runCLI(cmd, "--theme", "light", s01)
		if code != 2 || !strings.Contains(errs, "--theme colours the terminal UI only") {
			t.Errorf("%s --theme light: exit %d, stderr %q", cmd, code, errs)
		}
	}
}
