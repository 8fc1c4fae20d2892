package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/afinspect/inspect/model"
)

// adviseRow is a row of inspect.advise.v1 as a test reads it.
type adviseRow struct {
	Policy struct {
		Strategy            string          `json:"strategy"`
		KeepRecentTurns     int             `json:"keepRecentTurns"`
		KeepLastToolResults int             `json:"keepLastToolResults"`
		ThresholdTokens     json.RawMessage `json:"thresholdTokens"`
		NoAnchor            bool            `json:"noAnchor"`
	} `json:"policy"`
	Chars, Tokens, PeakChars, PeakTokens int
	TokensEstimated                      bool
	OutOfView                            struct{ Answers, Arguments int }
	DropNotices, StandDowns, Differs     int
	Frontier                             bool
}

type adviseJSON struct {
	Schema string   `json:"schema"`
	Files  []string `json:"files"`
	Agents []struct {
		Agent    string `json:"agent"`
		Recorded struct {
			Strategy            string `json:"strategy"`
			KeepRecentTurns     int    `json:"keepRecentTurns"`
			KeepLastToolResults int    `json:"keepLastToolResults"`
			ThresholdTokens     *int   `json:"thresholdTokens"`
		} `json:"recorded"`
		Calls     int         `json:"calls"`
		NeverRead int         `json:"neverRead"`
		Policies  []adviseRow `json:"policies"`
		Picks     struct {
			KeepsEverything, NoWorse *json.RawMessage
		} `json:"picks"`
	} `json:"agents"`
}

func adviseOf(t *testing.T, args ...string) adviseJSON {
	t.Helper()
	code, out, errs := runCLI(append([]string{"advise", "-q", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("advise %v: exit %d, %s", args, code, errs)
	}
	var d adviseJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// exportRow is what `inspect export` with a policy's flags says of one
// agent, counted as the advisor's row counts it: read from the export's
// JSON alone.
type exportRow struct {
	chars, peak, answers, arguments, neverAnswers, neverArguments int
	notices, standDowns, differs, calls                           int
}

type exportJSON struct {
	Calls []struct {
		Agent        string `json:"agent"`
		Conversation *int   `json:"conversation"`
		Composition  bool   `json:"composition"`
		Window       []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"window"`
		Record *struct {
			Observations *struct {
				StandDown bool `json:"standDown"`
			} `json:"observations"`
		} `json:"record"`
		RecordedWindow string `json:"recordedWindow"`
		Evidence       struct {
			Values []struct {
				In      string `json:"in"`
				Verdict string `json:"verdict"`
				Read    *struct {
					Verdict *string `json:"verdict"`
				} `json:"read"`
			} `json:"values"`
		} `json:"evidence"`
	} `json:"calls"`
}

func exportRowOf(t *testing.T, path, agent string, flags []string) exportRow {
	t.Helper()
	args := append([]string{"export", "-q", "--agent", agent}, flags...)
	code, out, errs := runCLI(append(args, path)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d, %s", args, code, errs)
	}
	var d exportJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	var r exportRow
	last := map[int][]string{} // each conversation's latest window's notices
	for _, c := range d.Calls {
		if c.Agent != agent || c.Composition {
			continue
		}
		r.calls++
		chars := 0
		var notices []string
		for _, m := range c.Window {
			chars += len(utf16.Encode([]rune(m.Content)))
			if m.Role == model.RoleUser && strings.HasPrefix(m.Content, model.DroppedPrefix) {
				notices = append(notices, m.Content)
			}
		}
		r.chars, r.peak = r.chars+chars, max(r.peak, chars)
		if c.Conversation != nil { // a notice this visit wrote: one its chain's last window did not hold
			before := slices.Clone(last[*c.Conversation])
			for _, n := range notices {
				if k := slices.Index(before, n); k >= 0 {
					before = slices.Delete(before, k, k+1)
				} else {
					r.notices++
				}
			}
			last[*c.Conversation] = notices
		}
		if c.Record != nil && c.Record.Observations != nil && c.Record.Observations.StandDown {
			r.standDowns++
		}
		if c.RecordedWindow == "differs" {
			r.differs++
		}
		for _, v := range c.Evidence.Values {
			own := v.Verdict // inspect's own verdict: its read's when it has one (§9.5.3)
			if v.Read != nil {
				own = ""
				if v.Read.Verdict != nil {
					own = *v.Read.Verdict
				}
			}
			switch {
			case own == "left" && v.In == "answer":
				r.answers++
			case own == "left":
				r.arguments++
			case own == "never-read" && v.In == "answer":
				r.neverAnswers++
			case own == "never-read":
				r.neverArguments++
			}
		}
	}
	return r
}

// flagsOf are the export's flags for a row's policy.
func flagsOf(p adviseRow) []string {
	f := []string{"--strategy", p.Policy.Strategy, "--keep-recent-turns", strconv.Itoa(p.Policy.KeepRecentTurns),
		"--keep-last-tool-results", strconv.Itoa(p.Policy.KeepLastToolResults)}
	if t := string(p.Policy.ThresholdTokens); t != "" && t != "null" {
		f = append(f, "--threshold-tokens", t)
	}
	if p.Policy.NoAnchor {
		f = append(f, "--no-anchor")
	}
	return f
}

// checked picks the rows a test compares with the export: sliding-window
// at K 1, 3, 6 × L 0, 2, 5 (those the version allows), token-budget at K 3
// and summarize-oldest at K 1–3 at every threshold, and the recorded
// policy.
func checked(rows []adviseRow, recorded int) []int {
	var out []int
	for i, r := range rows {
		p := r.Policy
		switch {
		case i == recorded:
		case p.Strategy == model.SlidingWindow && slices.Contains([]int{1, 3, 6}, p.KeepRecentTurns) && slices.Contains([]int{0, 2, 5}, p.KeepLastToolResults):
		case p.Strategy == model.TokenBudget && p.KeepRecentTurns == 3:
		case p.Strategy == model.SummarizeOldest && p.KeepRecentTurns <= 3: // frames the replay wrote, with recorded summaries
		default:
			continue
		}
		out = append(out, i)
	}
	return out
}

// Each row of the advisor equals what `inspect export` says with that
// policy's flags, for that agent — characters sent, the largest window,
// the values `left` in answers and in arguments (inspect's own verdict),
// the drop notices written, the stand-downs, the windows that differ from
// the recording — on every recording here, at several policies; and the
// values never read are the export's under the recorded policy.
func TestAdviceIsTheExportsRow(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/run.jsonl")
	if len(paths) < 20 {
		t.Fatalf("only %d recordings", len(paths))
	}
	compared := 0
	for _, path := range paths {
		d := adviseOf(t, path)
		for _, ag := range d.Agents {
			recorded := -1
			for i, r := range ag.Policies {
				if recordedRow(r, ag.Recorded.Strategy, ag.Recorded.KeepRecentTurns, ag.Recorded.KeepLastToolResults, ag.Recorded.ThresholdTokens) {
					recorded = i
				}
			}
			if recorded < 0 {
				t.Fatalf("%s %s: the recorded policy is not a row", path, ag.Agent)
			}
			for _, i := range checked(ag.Policies, recorded) {
				row := ag.Policies[i]
				flags := flagsOf(row)
				if i == recorded {
					flags = nil // as recorded: no flag at all
				}
				want := exportRowOf(t, path, ag.Agent, flags)
				got := exportRow{chars: row.Chars, peak: row.PeakChars, answers: row.OutOfView.Answers, arguments: row.OutOfView.Arguments,
					notices: row.DropNotices, standDowns: row.StandDowns, differs: row.Differs, calls: ag.Calls}
				if i == recorded {
					got.neverAnswers, got.neverArguments = ag.NeverRead, want.neverArguments
				} else {
					want.neverAnswers, want.neverArguments = 0, 0
				}
				if got != want {
					t.Errorf("%s %s %v:\nadvise %+v\nexport %+v", path, ag.Agent, flags, got, want)
				}
				compared++
			}
		}
	}
	t.Logf("%d rows of %d recordings compared with the export", compared, len(paths))
}

func recordedRow(r adviseRow, strategy string, k, l int, threshold *int) bool {
	p := r.Policy
	if p.Strategy != strategy || p.KeepRecentTurns != k || p.KeepLastToolResults != l {
		return false
	}
	t := ""
	if threshold != nil {
		t = fmt.Sprint(*threshold)
	}
	got := string(p.ThresholdTokens)
	return got == t || got == "null" && t == ""
}

// inspect advise: the table says what the numbers are and are not; the
// JSON is inspect.advise.v1 with the export's policy objects, several
// files summed per agent; what it cannot do exits 2.
func TestAdviseCommand(t *testing.T) {
	const file = "../testdata/demo-evidence/run.jsonl"
	code, out, errs := runCLI("advise", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"recorded policy sliding-window K2 L2 (inferred)", "the frontier", "recorded",
		"keeps in view every value the recorded answers used", "RECORDED responses judged against another policy's windows",
		"what the model\nwould have typed under that policy is unknown", "≈tokens: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the table does not say %q:\n%s", want, out)
		}
	}
	d := adviseOf(t, file)
	if d.Schema != "inspect.advise.v1" || !slices.Equal(d.Files, []string{file}) || len(d.Agents) != 1 {
		t.Fatalf("%+v", d)
	}
	ag := d.Agents[0]
	frontier := 0
	for _, r := range ag.Policies {
		if !r.TokensEstimated || r.Tokens <= 0 || r.PeakChars > r.Chars {
			t.Errorf("row %+v", r)
		}
		if r.Frontier {
			frontier++
		}
	}
	if ag.Calls != 16 || len(ag.Policies) < 70 || frontier < 2 || ag.Picks.KeepsEverything == nil || ag.Picks.NoWorse == nil || ag.NeverRead != 2 {
		t.Errorf("%s: %d calls, %d policies, %d on the frontier, never read %d, picks %+v", ag.Agent, ag.Calls, len(ag.Policies), frontier, ag.NeverRead, ag.Picks)
	}
	var rec struct {
		Inferred bool     `json:"inferred"`
		Given    []string `json:"given"`
		Evidence string   `json:"evidence"`
	}
	_, out, _ = runCLI("advise", "-q", "--format", "json", file)
	var raw struct {
		Agents []struct {
			Recorded json.RawMessage `json:"recorded"`
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil || json.Unmarshal(raw.Agents[0].Recorded, &rec) != nil || !rec.Inferred || rec.Given == nil || !strings.Contains(rec.Evidence, "reproduce") {
		t.Errorf("recorded policy object %s", raw.Agents[0].Recorded)
	}

	// several files are one application's history: the same log given
	// twice is read once (the second is said and skipped), and a log
	// rotated mid-conversation advises as the whole does
	two := adviseOf(t, c02, c02)
	one := adviseOf(t, c02)
	if len(two.Agents) != 2 || two.Agents[1].Calls != one.Agents[1].Calls || two.Agents[1].Policies[0].Chars != one.Agents[1].Policies[0].Chars {
		t.Errorf("c02 twice: %d agents, billing %d calls (once %d)", len(two.Agents), two.Agents[1].Calls, one.Agents[1].Calls)
	}
	const s05 = "../testdata/s05-multi-turn/run.jsonl"
	whole, err := os.ReadFile(s05)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(whole, []byte("\n"))
	cut := len(lines) * 2 / 3 // inside run 3 (s05: runs of 5, 4 and 5 calls)
	dir := t.TempDir()
	older, newer := filepath.Join(dir, "events.ndjson.1"), filepath.Join(dir, "events.ndjson")
	if os.WriteFile(older, bytes.Join(lines[:cut], nil), 0o644) != nil || os.WriteFile(newer, bytes.Join(lines[cut:], nil), 0o644) != nil {
		t.Fatal("writing the halves")
	}
	rotated, full := adviseOf(t, older, newer), adviseOf(t, s05)
	if len(rotated.Agents) != 1 || rotated.Agents[0].Calls != full.Agents[0].Calls || rotated.Agents[0].Calls != 14 ||
		len(rotated.Agents[0].Policies) != len(full.Agents[0].Policies) || rotated.Agents[0].Policies[0].Chars != full.Agents[0].Policies[0].Chars {
		t.Errorf("s05 rotated: %d agents, %d calls; whole: %d calls (14 in its README)", len(rotated.Agents), rotated.Agents[0].Calls, full.Agents[0].Calls)
	}
	only := adviseOf(t, "--agent", "billing", c02)
	if len(only.Agents) != 1 || only.Agents[0].Agent != "billing" || only.Agents[0].Calls != one.Agents[1].Calls {
		t.Errorf("--agent billing: %+v", only.Agents)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"advise"}, "which file?"},
		{[]string{"advise", "--format", "csv", file}, `unknown --format "csv"`},
		{[]string{"advise", "--agent", "nobody", c02}, `no agent "nobody" in these files; their agents: oncall, billing`},
		{[]string{"advise", "--keep-recent-turns", "3", file}, "--keep-recent-turns is for"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, errs, c.want)
		}
	}
}
