package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --fail-on gates a pipeline: exit 4 when a flagged value --in selects
// has a named verdict, 0 when none does (docs/rules/flags.md §10: a value
// §10.2 does not flag fails nothing). (s01-basic-loop: its arguments' values
// are never read, its answers hold none; s06-tiny-results: none flagged;
// demo-evidence: both in its answers.)
func TestEvidenceFailOn(t *testing.T) {
	for _, c := range []struct {
		file, on, in string
		code         int
	}{
		{"../testdata/demo-evidence/run.jsonl", "left,never-read", "", 4},
		{"../testdata/demo-evidence/run.jsonl", "left", "", 4},
		{"../testdata/s01-basic-loop/run.jsonl", "left", "all", 0},
		{"../testdata/s01-basic-loop/run.jsonl", "never-read", "all", 4},
		{"../testdata/s01-basic-loop/run.jsonl", "never-read", "", 0},
		{"../testdata/s06-tiny-results/run.jsonl", "left,never-read", "all", 0},
		{"../testdata/s06-tiny-results/run.jsonl", "", "", 0},
		{"../testdata/demo-evidence/run.jsonl", "", "", 0},
		// call 12's since 14:31 is in-view-text (§9.1.2), its characters in
		// view: a verdict alone counts it (§9.1.3), flagged does not (§10.2)
		{"../testdata/demo-evidence/run.jsonl", "in-view-text", "arguments", 4},
		{"../testdata/demo-evidence/run.jsonl", "flagged,in-view-text", "arguments", 0},
		// call 8's wrk-8e71c4, one swap from list_hosts' wrk-8e17c4, is flagged
		{"../testdata/demo-evidence/run.jsonl", "never-read", "arguments", 4},
		{"../testdata/demo-evidence/run.jsonl", "flagged,never-read", "arguments", 4},
		// c04's answers are clean; of its arguments' never-read values the
		// composed time windows (§10.2 rule 4) are not flagged, the guessed
		// dep-2026-11-23-1405 is (§10.2: REAL)
		{"../testdata/c04-summarize-multi/run.jsonl", "flagged", "", 0},
		{"../testdata/c04-summarize-multi/run.jsonl", "flagged,never-read", "arguments", 4},
		// demo-evidence's answers hold flagged left values (call 13)
		{"../testdata/demo-evidence/run.jsonl", "flagged", "", 4},
		{"../testdata/demo-evidence/run.jsonl", "in-view-text", "", 0},
		// §9.1.3: c04's answers are clean, its arguments hold never-read time windows
		{"../testdata/c04-summarize-multi/run.jsonl", "never-read", "", 0},
		{"../testdata/c04-summarize-multi/run.jsonl", "never-read", "arguments", 4},
		{"../testdata/c04-summarize-multi/run.jsonl", "never-read", "all", 4},
	} {
		args := []string{"evidence", "-q", c.file}
		if c.on != "" {
			args = append(args, "--fail-on", c.on)
		}
		if c.in != "" {
			args = append(args, "--in", c.in)
		}
		code, _, stderr := runCLI(args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, c.code, stderr)
		}
		if c.code == 4 && !strings.Contains(stderr, "--fail-on "+c.on) {
			t.Errorf("%v: stderr %q does not say why", args, stderr)
		}
	}
	for _, args := range [][]string{
		{"evidence", "--fail-on", "in-view", "../testdata/s01-basic-loop/run.jsonl"},
		{"evidence", "--fail-on", "left,", "../testdata/s01-basic-loop/run.jsonl"},
		{"evidence", "--fail-on", "summary", "../testdata/s01-basic-loop/run.jsonl"},
		{"evidence", "--in", "answer", "../testdata/s01-basic-loop/run.jsonl"},
		{"report", "--in", "all", "../testdata/s01-basic-loop/run.jsonl"},
		{"evidence", "--format", "yaml", "../testdata/s01-basic-loop/run.jsonl"},
		{"report", "--fail-on", "left", "../testdata/s01-basic-loop/run.jsonl"},
	} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (a usage error)", args, code)
		}
	}
}

// The table and the JSON name the same values; the demo's answer at call
// 13 has its five flagged values, the suggestion its README's sweep
// found, and the library's verdict beside inspect's.
func TestEvidenceOutput(t *testing.T) {
	code, table, _ := runCLI("evidence", "-q", "--wide", "../testdata/demo-evidence/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"13    1    answer  us-east-1b",
		"13    1    answer  3,940", // as typed
		"keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13",
		"library: call 13 flagged, 13 candidates, 5 unsupported — inspect agrees",
		// docs/rules/evidence.md §9.1.2's values of the demo, as §10.2 flags
		// them: call 16's web-3e6f14 is refuted ("web-3e6f41 …, not
		// web-3e6f14"); of the arguments only call 7's web-9d4b27 (left)
		// and call 8's wrk-8e71c4 (never read) are flagged — the query
		// windows are the model's, 14:31 and 14:05 are in view inside
		// timestamps; call 13's 504s, below the library's floor, is shown
		// and not flagged (flags.md §10.5)
		"answers: 8 flagged — 7 left the window, 1 never read; 2 not flagged (1 below-floor, 1 refuted) (listed above)",
		"arguments: 2 flagged — 1 left the window, 1 never read; 7 not flagged (3 in-view-inside-token, 4 time-in-argument) (not listed: --in arguments)",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	_, out, _ := runCLI("evidence", "-q", "--format", "json", "../testdata/demo-evidence/run.jsonl")
	var doc struct {
		Format string `json:"format"`
		In     string `json:"in"`
		Policy struct {
			KeepRecentTurns int `json:"keepRecentTurns"`
		} `json:"policy"`
		Counts map[string]map[string]int `json:"counts"`
		Values []struct {
			Call    int    `json:"call"`
			Agent   string `json:"agent"`
			Value   string `json:"value"`
			Typed   string `json:"typed"`
			Verdict string `json:"verdict"`
			Keep    *struct {
				Steps int `json:"steps"`
			} `json:"keep"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var at13 []string
	for _, v := range doc.Values {
		if v.Call == 13 {
			at13 = append(at13, v.Value+" "+v.Verdict)
		}
	}
	if doc.Format != "inspect.evidence.v1" || strings.Join(at13, ", ") != "us-east-1b left, 10.12.4.52 left, 3940 left, web-3e6f14 never-read, web-9d4b27 left" {
		t.Errorf("json: %s %q", doc.Format, at13)
	}
	if doc.In != "answers" || doc.Policy.KeepRecentTurns != 2 || doc.Values[2].Typed != "3,940" || doc.Values[0].Agent == "" {
		t.Errorf("json: in %q, policy %+v, typed %q, agent %q", doc.In, doc.Policy, doc.Values[2].Typed, doc.Values[0].Agent)
	}
	if a, g := doc.Counts["answers"], doc.Counts["arguments"]; a["left"] != 7 || a["never-read"] != 2 ||
		g["left"] != 3 || g["in-view-text"] != 1 || g["never-read"] != 5 {
		t.Errorf("json counts %v", doc.Counts)
	}
}

// c02 holds two agents with their own policies (README: oncall
// keepRecentTurns 2, billing 4): the table's footer states both, since
// its values are judged under each.
func TestEvidenceStatesEveryAgentsPolicy(t *testing.T) {
	code, table, _ := runCLI("evidence", "-q", "../testdata/c02-interleaved-agents/run.jsonl")
	if code != 0 || !strings.Contains(table, "\npolicy: sliding-window keepRecentTurns=2 ") ||
		!strings.Contains(table, "\npolicy of billing: sliding-window keepRecentTurns=4 ") {
		t.Errorf("exit %d, footer of\n%s", code, table)
	}
}

// Under --keep-recent-turns 1 the demo's replay is not what the library
// sent on several calls (wire.json's call 4 holds the get_metrics batch,
// call_0002 and call_0003, which the replay drops; its calls 2, 3 and 5
// match): a source's calls are said to be sent only where
// every one of those windows is the library's.
func TestEvidenceSourcesNotSentWhereTheReplayDiffers(t *testing.T) {
	code, table, _ := runCLI("evidence", "-q", "--wide", "--keep-recent-turns", "1", "../testdata/demo-evidence/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(table, "list_hosts call_0001 (run 1, sent on") ||
		!strings.Contains(table, "list_hosts call_0001 (run 1, in the replay's windows on 2–5, 1 of them not the library's)") {
		t.Errorf("the sources of list_hosts:\n%s", table)
	}
}

// n06's merge calls (file calls 12 and 21, a composition's own:
// docs/rules/compositions.md §15.5) have no window in the log: their answers'
// web-6a8afa is not listed as never read, the gate passes over it, and a
// line says it was not judged; the JSON counts it as unknown.
func TestEvidenceLeavesCompositionCallsUnjudged(t *testing.T) {
	const n06 = "../testdata/n06-parallel-composition/run.jsonl"
	code, table, _ := runCLI("evidence", "-q", "--fail-on", "never-read", n06)
	if code != 0 || strings.Contains(table, "\n12 ") || strings.Contains(table, "\n21 ") ||
		!strings.Contains(table, "not judged: 2 values of calls 12, 21 (a composition's own model calls: the log does not hold their windows; verdict unknown)") {
		t.Errorf("exit %d (want 0: the answers' never-read values were all the merge calls'):\n%s", code, table)
	}
	_, out, _ := runCLI("evidence", "-q", "--format", "json", n06)
	var doc struct {
		Counts map[string]map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Counts["answers"]["unknown"] != 2 || doc.Counts["answers"]["never-read"] != 0 {
		t.Errorf("counts %v (%v)", doc.Counts, err)
	}
}

// The export says of n06's merge calls what the screen says: no outcome
// (null), the composition's result being no agent run's answer; the
// branch runs' last answers are delivered (EVIDENCE §9.4).
func TestExportCompositionCallHasNoOutcome(t *testing.T) {
	_, out, _ := runCLI("export", "-q", "--format", "json", "../testdata/n06-parallel-composition/run.jsonl")
	var doc struct {
		Calls []struct {
			Call        int  `json:"call"`
			Composition bool `json:"composition"`
			Response    struct {
				Outcome *string `json:"outcome"`
			} `json:"response"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	merges, delivered := 0, 0
	for _, c := range doc.Calls {
		switch o := c.Response.Outcome; {
		case c.Composition && o != nil:
			t.Errorf("merge call %d: outcome %q, want null", c.Call, *o)
		case c.Composition:
			merges++
		case o != nil && *o == "delivered":
			delivered++
		}
	}
	if merges != 2 || delivered != 4 {
		t.Errorf("%d merge calls, %d delivered; want 2 and 4", merges, delivered)
	}
}

// c02's billing agent ran with pins off (README: keepLastToolResults
// false), and every keepLastToolResults 0–5 reproduces its windows:
// inspect picks 2, and get_invoice call_0001's rule at file call 11 is
// "superseded" under it, "pins-off" under 0, the truth. The table and the
// JSON say both, and the footer says the knob is a guess. Given as a flag,
// the knob is no guess and the rule is the flag's alone.
func TestEvidenceSaysARuleOfAGuessedKnob(t *testing.T) {
	_, table, _ := runCLI("evidence", "-q", "--wide", "--in", "arguments", c02)
	for _, want := range []string{
		"14 not-pinnable; 11 superseded or pins-off",
		"policy of billing: sliding-window keepRecentTurns=4 keepLastToolResults=2 (a guess: keepLastToolResults 0–5 reproduce the same windows)",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no %q in\n%s", want, table)
		}
	}
	_, out, _ := runCLI("evidence", "-q", "--in", "arguments", "--format", "json", c02)
	var doc struct {
		Values []struct {
			Call    int `json:"call"`
			Sources []struct {
				ToolCallID *string  `json:"toolCallId"`
				Rule       string   `json:"rule"`
				Rules      []string `json:"rules"`
			} `json:"sources"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, v := range doc.Values {
		for _, s := range v.Sources {
			rules = append(rules, fmt.Sprintf("%d %s %v", v.Call, s.Rule, s.Rules))
		}
	}
	if got, want := strings.Join(rules, "; "), "14 not-pinnable []; 14 superseded [superseded pins-off]; 18 not-pinnable []; 18 superseded [superseded pins-off]"; got != want {
		t.Errorf("json rules %q, want %q", got, want)
	}
	_, table, _ = runCLI("evidence", "-q", "--wide", "--in", "arguments", "--keep-last-tool-results", "2", c02)
	if !strings.Contains(table, "14 not-pinnable; 11 superseded ") || strings.Contains(table, "pins-off") || strings.Contains(table, "a guess") {
		t.Errorf("keepLastToolResults given, yet a guess:\n%s", table)
	}
}

// In c02 the billing conversation's calls are the file's 2, 3, 5, 7, 9,
// 11, 13 (its request) and 14, 16, 18, 20, 21 (README: 7 + 5 calls): the
// request's text, sent on the file's 2–13, was sent on its conversation's
// 1–7 — never on oncall's calls between them. The table says which.
func TestEvidenceRangesStayInTheConversation(t *testing.T) {
	_, table, _ := runCLI("evidence", "-q", "--wide", "--in", "arguments", c02)
	for _, want := range []string{
		"user text (run 2, sent on conversation 2's calls 1–7, the file's 2–13)",
		"get_invoice call_0001 (run 2, sent on conversation 2's calls 2–5, the file's 3–9)",
		"call numbers are the file's (as report numbers them)",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no %q in\n%s", want, table)
		}
	}
	_, table, _ = runCLI("evidence", "-q", "--wide", "../testdata/demo-evidence/run.jsonl")
	if !strings.Contains(table, "list_hosts call_0001 (run 1, sent on 2–6)") || strings.Contains(table, "call numbers are the file's") {
		t.Errorf("a file of one conversation: its numbers are the file's\n%s", table)
	}
}

// Under another policy the library's verdict, recorded under the one it
// ran, is not compared where the replayed window is not the one it
// judged: demo-evidence-k3-pins3's policy (K 3, L 3) changes the demo's
// windows at calls 13 and 16, so neither is "inspect DISAGREES".
func TestEvidenceUnderAnotherPolicyDoesNotDisagree(t *testing.T) {
	_, table, _ := runCLI("evidence", "-q", "--keep-recent-turns", "3", "--keep-last-tool-results", "3", "../testdata/demo-evidence/run.jsonl")
	if strings.Contains(table, "DISAGREES") || strings.Count(table, "judged on the recorded window; the replayed one differs under this policy, so not compared") != 2 {
		t.Errorf("\n%s", table)
	}
}

// e03's answer at call 7 holds 16 values the library's rules do not
// ground (README: the library's event lists 12, its list's limit); the
// library line says it lists only its first 12 and inspect finds 16.
func TestEvidenceSaysTheLibraryListsItsFirst12(t *testing.T) {
	_, table, _ := runCLI("evidence", "-q", "../testdata/e03-tokens/run.jsonl")
	if want := "library: call 7 flagged, 40 candidates, 12 unsupported listed (the library lists its first 12; inspect finds 16) — inspect agrees"; !strings.Contains(table, want) {
		t.Errorf("no %q in\n%s", want, table)
	}
}

// A summary frame is named as one, never as the person's text: c04's
// call 20 types dep-2026-11-23-1405 into call_0018, a value its run 2
// read in the compaction frame (wire.json: the user-role message of calls
// 12 and 16 that starts "[compacted history — 11 earlier message(s)")
// besides get_deploy call_0001 of run 1.
func TestSummaryFrameIsNamedAsOne(t *testing.T) {
	code, out, errs := runCLI("evidence", "-q", "--in", "arguments", "--wide", "../testdata/c04-summarize-multi/run.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "20 ") && strings.Contains(l, "dep-2026-11-23-1405") {
			if !strings.Contains(l, "a summary frame (run 2, sent on 12–16)") || strings.Contains(l, "user text") {
				t.Errorf("call 20's sources: %s", l)
			}
			return
		}
	}
	t.Fatalf("no call 20 row for dep-2026-11-23-1405:\n%s", out)
}

// A Loop pass that types a value only an earlier pass read says so, in
// the table and as earlierPass in both JSON documents: n07's Loop with
// its third pass's answer (call 15) made to name 1535, requests_per_min
// of sea-1a06b3 in pass 1's get_metrics call_0002 (sent on calls 3–4),
// which nothing pass 3 was sent holds (provenance.TestEarlierPassReadIt
// has the messages). It stays flagged: the gate counts it.
func TestEvidenceSaysAnEarlierPassReadIt(t *testing.T) {
	raw, err := os.ReadFile("../testdata/n07-loop-conditional/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const answer = "Draft 2: sea-9c5c98 p99 844 ms; sea-dddddd p99 814 ms."
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(raw), answer, "Draft 2: sea-9c5c98 p99 844 ms; sea-dddddd p99 814 ms; sea-1a06b3 served 1535 requests/min.")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, table, errs := runCLI("evidence", "-q", "--wide", "--fail-on", "flagged,never-read", path)
	if code != 4 || !strings.Contains(errs, "1 flagged never-read value(s)") {
		t.Errorf("--fail-on flagged,never-read: exit %d (%s), want 4 for 1535", code, errs)
	}
	if want := "never read in this pass; pass 1 read it in get_metrics call_0002 (sent on conversation 1's calls 3–4, the file's 3–4); only a pass's answer reaches the next"; !strings.Contains(table, want) {
		t.Errorf("no %q in\n%s", want, table)
	}
	want := `"earlierPass":{"pass":1,"toolName":"get_metrics","toolCallId":"call_0002","sentOn":[3,4]}`
	_, doc, _ := runCLI("evidence", "-q", "--format", "json", path)
	_, exp, _ := runCLI("export", "-q", "--format", "json", path)
	// (the export's calls 7 and 12 have one too: the query window
	// 07:00-07:30Z they compose, echoed by pass 1's and pass 2's
	// get_metrics results, and not flagged)
	if !strings.Contains(strings.ReplaceAll(doc, " ", ""), want) {
		t.Errorf("evidence --format json: no %s", want)
	}
	if !strings.Contains(exp, `"value":"1535","shape":"number","in":"answer","verdict":"never-read","sources":[],"place":"answer","flagged":true,"rule":"flagged",`+want) {
		t.Errorf("export --format json: call 15's 1535 has no %s", want)
	}
}

// --fail-on has two meanings, told apart by the word flagged
// (docs/rules/flags.md §10.6), shown on demo-evidence's arguments, whose
// values the spec lists (evidence §9.1.2): 5 never-read — 14:00-14:30z
// twice at call 2, 2025-03-18t14:05z at calls 4 and 14 (query windows the
// model composed, not flagged: §10.2 rule 4) and wrk-8e71c4 at call 8
// (flagged) —, 1 in-view-text (call 12's 14:31, not flagged: rule 2) and
// 2 flagged in all (wrk-8e71c4 and call 7's web-9d4b27, left). A verdict
// alone counts every value of it; flagged counts the flagged ones. The
// help says both.
func TestFailOnHasTwoMeanings(t *testing.T) {
	for _, c := range []struct {
		on   string
		code int
		says string
	}{
		{"never-read", 4, "inspect: 5 never-read value(s) in the tool-call arguments"},
		{"flagged,never-read", 4, "inspect: 1 flagged never-read value(s) in the tool-call arguments"},
		{"flagged", 4, "inspect: 2 flagged value(s) in the tool-call arguments"},
		{"in-view-text", 4, "inspect: 1 in-view-text value(s) in the tool-call arguments"},
		{"flagged,in-view-text", 0, ""},
	} {
		code, _, errs := runCLI("evidence", "-q", "--in", "arguments", "--fail-on", c.on, "../testdata/demo-evidence/run.jsonl")
		if code != c.code || !strings.Contains(errs, c.says) {
			t.Errorf("--fail-on %s: exit %d, %q; want %d, %q", c.on, code, errs, c.code, c.says)
		}
	}
	_, help, _ := runCLI("evidence", "--help")
	help = strings.Join(strings.Fields(help), " ")
	for _, want := range []string{"a verdict alone counts every value of it, flagged or not", "with flagged among them, only the flagged values of those", "flagged alone: any flagged value"} {
		if !strings.Contains(help, want) {
			t.Errorf("evidence --help does not say %q", want)
		}
	}
}

// The numbers below the library's floor are listed apart and never
// flagged (docs/rules/flags.md §10.5): demo-evidence's call 13 says
// "504s", whose source read_logs call_0006 was sent on calls 6–10 and
// superseded at 11 (provenance.TestBelowFloorJudgedApart has the
// messages). The JSON has it under belowFloor, not values; the table's
// row says inspect judged it; the gate does not count it (demo's answers
// have 1 never-read value, web-3e6f14 at call 13, whatever 504 is).
func TestEvidenceListsBelowTheFloorApart(t *testing.T) {
	_, out, _ := runCLI("evidence", "-q", "--format", "json", "../testdata/demo-evidence/run.jsonl")
	var doc struct {
		Values []struct {
			Value string `json:"value"`
		} `json:"values"`
		BelowFloor []struct {
			Call    int    `json:"call"`
			Value   string `json:"value"`
			Typed   string `json:"typed"`
			Verdict string `json:"verdict"`
			Flagged bool   `json:"flagged"`
			Rule    string `json:"rule"`
		} `json:"belowFloor"`
		NotFlagged struct {
			Answers map[string]int `json:"answers"`
		} `json:"notFlagged"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.BelowFloor) != 1 {
		t.Fatalf("belowFloor: %+v, want call 13's 504", doc.BelowFloor)
	}
	if b := doc.BelowFloor[0]; b.Call != 13 || b.Value != "504" || b.Typed != "504s" || b.Verdict != "left" || b.Flagged || b.Rule != "below-floor" {
		t.Errorf("belowFloor: %+v", b)
	}
	for _, v := range doc.Values {
		if v.Value == "504" {
			t.Errorf("504 among the values")
		}
	}
	if doc.NotFlagged.Answers["below-floor"] != 1 {
		t.Errorf("notFlagged answers: %v", doc.NotFlagged.Answers)
	}
	_, table, _ := runCLI("evidence", "-q", "--wide", "../testdata/demo-evidence/run.jsonl")
	if want := "not flagged: judged by inspect, below the library's 4-digit floor · read_logs call_0006 (run 1, sent on 6–10)"; !strings.Contains(table, want) {
		t.Errorf("no %q in\n%s", want, table)
	}
	if code, _, errs := runCLI("evidence", "-q", "--fail-on", "flagged,never-read", "../testdata/demo-evidence/run.jsonl"); code != 4 || !strings.Contains(errs, "inspect: 1 flagged never-read value(s) in the answers") {
		t.Errorf("--fail-on flagged,never-read: exit %d, %q", code, errs)
	}
	_, exp, _ := runCLI("export", "-q", "--format", "json", "../testdata/demo-evidence/run.jsonl")
	if n := strings.Count(exp, `"belowFloor":[{"value":"504","shape":"number","in":"answer","verdict":"left","sources":[{"toolName":"read_logs","toolCallId":"call_0006","run":1,"sentOn":[6,10],"evictedAt":11,"rule":"superseded"}],"place":"answer","flagged":false,"rule":"below-floor"}]`); n != 1 {
		t.Errorf("export: call 13's belowFloor %d times, want once", n)
	}
}
