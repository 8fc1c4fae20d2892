package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui"
)

// The terminal UI, report, export and evidence open every recording here
// with the same policy for each agent — inferred, given, and a token
// strategy given without a threshold (docs/rules/export-contract.md §13.2: the
// agent's largest recorded input, which is read here from the log's own
// llm_end events, unknown when the log keeps none, §16.4), and the rules
// of a library version given (9.54.0: no pins, no anchor, §17.3). The
// UI is driven as a person drives it: each conversation opened from the
// picker (w, down, enter), its agent's policy read off the policy bar.
func TestEveryFrontEndSettlesTheSamePolicy(t *testing.T) {
	for _, path := range everyRecording(t) {
		var recorded *policies // under no flag: the recorded policies
		for _, flags := range [][]string{nil, {"--strategy", "token-budget"}, {"--keep-recent-turns", "3"}, {"--library-version", "9.54.0"}} {
			name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path) + " " + strings.Join(flags, " ")
			exp := exportPolicies(t, name, flags, path)
			if exp == nil {
				continue // no agent: nothing to settle
			}
			if flags == nil {
				recorded = exp
			}
			for what, got := range map[string]map[string]string{
				"report":   reportPolicies(t, name, flags, path, exp.lead),
				"evidence": evidencePolicies(t, name, flags, path, exp.lead),
			} {
				if fmt.Sprint(got) != fmt.Sprint(exp.byAgent) {
					t.Errorf("%s: %s settles %v, export %v", name, what, got, exp.byAgent)
				}
			}
			for i, got := range uiPolicies(t, name, flags, path, len(exp.convAgents)) {
				agent := exp.convAgents[i]
				if want := exp.byAgent[agent]; got != want {
					t.Errorf("%s: the UI opens conversation %d (agent %s) under %s, export %s", name, i+1, agent, got, want)
				}
			}
			// a strategy recorded with no threshold: the largest input
			if len(exp.byAgent) == 1 && len(flags) > 0 && flags[0] == "--strategy" && filepath.Base(path) == "run.jsonl" &&
				strings.HasPrefix(recorded.byAgent[exp.lead], model.SlidingWindow+" ") {
				largest := 0
				for _, u := range llmEndUsage(t, path) {
					largest = max(largest, u[0])
				}
				want := fmt.Sprintf("thresholdTokens=%d", largest)
				if largest == 0 { // no input recorded (tier minimal): not known, not 0 (§16.4)
					want = "thresholdTokens=unknown"
				}
				if !strings.Contains(exp.byAgent[exp.lead], want) {
					t.Errorf("%s: %s, want %s (the largest input the log recorded)", name, exp.byAgent[exp.lead], want)
				}
			}
		}
	}
}

// policies are the policies of an export: by agent, the first agent's
// key, and each conversation's agent in order.
type policies struct {
	byAgent    map[string]string
	lead       string
	convAgents []string
}

func exportPolicies(t *testing.T, name string, flags []string, path string) *policies {
	t.Helper()
	code, out, errs := runCLI(append(append([]string{"export", "-q"}, flags...), path)...)
	if code != 0 {
		t.Fatalf("%s: export exit %d: %s", name, code, errs)
	}
	var doc struct {
		Agents []struct {
			Agent  string `json:"agent"`
			Policy struct {
				model.Policy
				ThresholdTokens *int `json:"thresholdTokens"`
			} `json:"policy"`
		} `json:"agents"`
		Conversations []struct {
			Agent string `json:"agent"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(doc.Agents) == 0 {
		return nil
	}
	e := &policies{byAgent: map[string]string{}, lead: doc.Agents[0].Agent}
	for _, a := range doc.Agents {
		p := a.Policy.Policy
		if a.Policy.ThresholdTokens != nil {
			p.ThresholdTokens = *a.Policy.ThresholdTokens
		}
		e.byAgent[a.Agent] = p.String()
	}
	for _, c := range doc.Conversations {
		e.convAgents = append(e.convAgents, c.Agent)
	}
	return e
}

// reportPolicies reads the report's footer: "policy: P" (one agent) or
// "policy of A: P", then "policy of A (inferred|given): P".
func reportPolicies(t *testing.T, name string, flags []string, path, lead string) map[string]string {
	t.Helper()
	code, out, errs := runCLI(append(append([]string{"report", "-q"}, flags...), path)...)
	if code != 0 {
		t.Fatalf("%s: report exit %d: %s", name, code, errs)
	}
	return footerPolicies(out, lead, regexp.MustCompile(`(?m)^policy(?: of (\S+?)(?: \((?:inferred|given|composition)\))?)?: (.+)$`))
}

// evidencePolicies reads the evidence table's "policy: P" (the first
// agent's) and "policy of A: P".
func evidencePolicies(t *testing.T, name string, flags []string, path, lead string) map[string]string {
	t.Helper()
	code, out, errs := runCLI(append(append([]string{"evidence", "-q"}, flags...), path)...)
	if code != 0 {
		t.Fatalf("%s: evidence exit %d: %s", name, code, errs)
	}
	return footerPolicies(out, lead, regexp.MustCompile(`(?m)^policy(?: of (\S+))?: (.+)$`))
}

func footerPolicies(out, lead string, line *regexp.Regexp) map[string]string {
	got := map[string]string{}
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		agent := m[1]
		if agent == "" {
			agent = lead
		}
		got[agent], _, _ = strings.Cut(m[2], " (a guess: ") // which knobs were a guess: not the policy
	}
	return got
}

var (
	ansiCode = regexp.MustCompile("\x1b\\[[0-9;?]*[a-zA-Z]")
	barKnob  = regexp.MustCompile(`(keepRecentTurns|keepLastToolResults|strategy|threshold|anchor)=(\S+?)\*?(\s|$)`)
)

// uiPolicies opens path in the terminal UI as `inspect FLAGS path` sets
// it up, and reads the policy bar of each of its n conversations,
// stepping to the next with the picker.
func uiPolicies(t *testing.T, name string, flags []string, path string, n int) []string {
	t.Helper()
	var o options
	fs := pflag.NewFlagSet("inspect", pflag.ContinueOnError)
	o.policyFlags(fs) // as uiCmd registers them
	o.inputFlags(fs)
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	cfg := (&app{}).uiConfig(name, []string{path}, o)
	cfg.Path = "" // not watched for growth: this drive ends
	var m tea.Model = tui.New(cfg)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 220, Height: 50})
	m = drive(m, m.Init())
	var out []string
	for i := range n {
		if i > 0 {
			for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("w")}, {Type: tea.KeyDown}, {Type: tea.KeyEnter}} {
				var cmd tea.Cmd
				m, cmd = m.Update(k)
				m = drive(m, cmd)
			}
		}
		out = append(out, barPolicy(t, name, m.View()))
	}
	return out
}

// barPolicy is the policy the policy bar shows.
func barPolicy(t *testing.T, name, screen string) string {
	t.Helper()
	knobs := map[string]string{}
	for _, m := range barKnob.FindAllStringSubmatch(ansiCode.ReplaceAllString(screen, ""), -1) {
		knobs[m[1]] = m[2]
	}
	k, err1 := strconv.Atoi(knobs["keepRecentTurns"])
	l, err2 := strconv.Atoi(knobs["keepLastToolResults"])
	p := model.Policy{Strategy: knobs["strategy"], KeepRecentTurns: k, KeepLastToolResults: l, NoAnchor: knobs["anchor"] == "off"}
	if th := knobs["threshold"]; th != "—" {
		p.ThresholdTokens, _ = strconv.Atoi(th)
	}
	if err1 != nil || err2 != nil || p.Strategy == "" {
		t.Fatalf("%s: no policy bar on the screen:\n%s", name, screen)
	}
	return p.String()
}

// drive runs cmd and feeds its messages back, as a program would, but
// for the spinner's ticks (they only animate).
func drive(m tea.Model, cmd tea.Cmd) tea.Model {
	if cmd == nil {
		return m
	}
	switch msg := cmd().(type) {
	case nil, spinner.TickMsg, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			m = drive(m, c)
		}
	default:
		var next tea.Cmd
		m, next = m.Update(msg)
		m = drive(m, next)
	}
	return m
}
