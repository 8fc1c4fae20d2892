package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

const (
	n02 = "../testdata/n02-abort-then-followup/run.jsonl"
	n06 = "../testdata/n06-parallel-composition/run.jsonl"
	n07 = "../testdata/n07-loop-conditional/run.jsonl"
	v56 = "../testdata/v9.56.0-demo-evidence/run.jsonl"
)

// lastLines is the screen's last n lines (the policy bar's status line
// is the one before the key help).
func lastLines(m Model, n int) string {
	ls := strings.Split(m.View(), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// The rules the replay follows, and how they were told (§17.2), are on
// the policy bar; the problems panel (!) says it whole, as the report's
// footer does. v9.56.0-demo-evidence was written by 9.56.0 (its README):
// told from the log alone by call 4, the first whose window holds a drop
// notice, plain where 9.57.0 would have named the tool results (wire.json
// call 4); told by --library-version when given. n09 was written at tier
// minimal (its README): the bar says what that tier does not keep.
func TestLibraryVersionAndTierOnScreen(t *testing.T) {
	m := open(t, fileConfig(v56), 200, 40)
	if s := lastLines(m, 2); !strings.Contains(s, "rules 9.55–9.56 (told from the log: call 4's plain notice; reproduces 16/16) (!)") {
		t.Errorf("the policy bar does not say the rules and how they were told:\n%s", s)
	}
	m = press(m, "!")
	if s := m.screen(); !strings.Contains(s, "The replay follows the 9.55–9.56 window rules (no version named; from log: call 4 (run 1, iteration 4)") ||
		!strings.Contains(s, "Written at tier standard.") {
		t.Errorf("the problems panel does not say the rules in full:\n%s", s)
	}

	cfg := fileConfig(v56)
	cfg.Library = "9.56.0"
	m = open(t, cfg, 200, 40)
	if s := lastLines(m, 2); !strings.Contains(s, "rules 9.55–9.56 (--library-version 9.56.0; reproduces 16/16) (!)") {
		t.Errorf("under --library-version 9.56.0:\n%s", s)
	}

	m = open(t, fileConfig(n09), 200, 40)
	if s := lastLines(m, 2); !strings.Contains(s, "tier minimal: no tokens, tool events or runs' last windows in the log (!)") {
		t.Errorf("the policy bar does not say what tier minimal keeps:\n%s", s)
	}
	m = press(m, "!")
	if s := m.screen(); !strings.Contains(s, "Written at tier minimal") || !strings.Contains(s, "each run's last window is not in") {
		t.Errorf("the problems panel does not say what tier minimal keeps:\n%s", s)
	}
	// narrow, the short form stays
	m = open(t, fileConfig(n09), 80, 24)
	if s := lastLines(m, 2); !strings.Contains(s, "rules 9.57–9.62") || !strings.Contains(s, "tier minimal") {
		t.Errorf("at 80 columns:\n%s", s)
	}
}

// A Parallel's merge (n06, README: calls 12 and 21 of the file, its
// window — the prompt and the branches' answers — nowhere in the log) is
// listed in the picker as the composition's own calls and opens there:
// its window is said to be unknown on every view, never sent nor empty;
// its value is not judged, nothing counts it as typed and not read; its
// answer is the composition's, no run's, so it is neither delivered nor
// undelivered; and no knob pretends to replay it.
func TestCompositionCallsReachable(t *testing.T) {
	m := open(t, fileConfig(n06), 200, 40)
	m = press(m, "w")
	if s := m.screen(); !strings.Contains(s, "triage (Parallel) · its own calls: 2 · windows not in the log") {
		t.Fatalf("the picker does not list the composition's calls:\n%s", s)
	}
	m = press(m, "G", "enter")
	if !m.s.Composition() || m.s.Calls() != 2 || m.s.Replay.Calls[0].Call.Number != 12 || m.s.Replay.Calls[1].Call.Number != 21 {
		t.Fatalf("enter opened %d calls, not the composition's own (file calls 12 and 21)", m.s.Calls())
	}
	lies := regexp.MustCompile(`\bsent\b|never read|never-read|undelivered|delivered|window 0 msgs|is empty|0 msgs`)
	for i := range 2 {
		for _, view := range []struct{ keys, what string }{
			{"", "the main screen"}, {"i", "the response (i)"}, {"W", "the recorded window (W)"}, {"v", "the transcript (v)"},
		} {
			mm := m
			if view.keys != "" {
				mm = press(m, view.keys)
			}
			s := mm.screen()
			if l := lies.FindString(s); l != "" {
				t.Errorf("call %d, %s says %q:\n%s", i+1, view.what, l, s)
			}
			if !strings.Contains(s, "not in the log") {
				t.Errorf("call %d, %s does not say the window is not in the log:\n%s", i+1, view.what, s)
			}
		}
		if s := press(m, "i").screen(); !strings.Contains(s, "not judged") || !strings.Contains(s, "the composition's result") {
			t.Errorf("call %d: the response does not say its value is not judged and whose result it is:\n%s", i+1, s)
		}
		m = press(m, "right")
	}
	before := m.s.Policy
	m = press(m, "]", "s")
	if m.s.Replaying || m.s.Policy != before || !strings.Contains(m.View(), "no knob replays a composition's own calls") {
		t.Errorf("a knob moved on the composition's calls (policy %v, replaying %v):\n%s", m.s.Policy, m.s.Replaying, m.View())
	}
	if s := m.View(); strings.Contains(s, "change a knob") || !strings.Contains(s, "policy  none") {
		t.Errorf("the policy bar offers knobs on the composition's calls:\n%s", s)
	}
	// :f12 from a conversation lands there
	m = open(t, fileConfig(n06), 200, 40)
	m = press(m, ":", "f", "1", "2", "enter")
	if !m.s.Composition() || m.s.Current().Call.Number != 12 {
		t.Errorf(":f12 did not open the composition's call 12: %q", m.flash)
	}
}

// The picker and the header name a Loop's passes, a Conditional's
// branches (n07, README: Loop refine runs drafter 3 times in run 1;
// Conditional router runs urgent in run 2 and normal in run 3), and a
// swarm's agents (a hand-made log: oncall-swarm hands off triage →
// metrics → triage, so body/triage runs twice in one runId, §15.2).
// Names come from the log and go through termtext.
func TestPickerNamesPassesAndBranches(t *testing.T) {
	m := open(t, fileConfig(n07), 200, 40)
	m = press(m, "w")
	s := m.screen()
	for _, want := range []string{
		"agent refine/body (the body of Loop refine: a run per pass)",
		"conversation 2 · pass 2/3 · 1 run · 5 calls",
		"run run-1796134230774-1 · body · pass 3/3 · 5 calls",
		"agent router/urgent (branch urgent of Conditional router)",
		"run run-1796134231103-2 · branch urgent · 5 calls",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the picker has no %q:\n%s", want, s)
		}
	}
	m = press(m, "j", "enter")
	if head := m.View()[:strings.Index(m.View(), "\n")]; !strings.Contains(head, "refine/body · pass 2/3 · conversation 2/5 (w)") {
		t.Errorf("the header does not name pass 2: %q", head)
	}

	m = open(t, fileConfig(swarmLog(t)), 200, 40)
	m = press(m, "w")
	s = m.screen()
	for _, want := range []string{
		"agent oncall-swarm/body/triage (agent triage of Loop oncall-swarm's body, a swarm: a run per hand-off)",
		"conversation 1 · pass 1/2",
		"conversation 3 · pass 2/2",
		"agent oncall-swarm/body/metrics",
		"router/ur␛[31mgent (branch ur␛[31mgent of Conditional router)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the picker has no %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Errorf("a raw escape from the log reached the screen:\n%q", s)
	}
}

// swarmLog writes a hand-made log: a swarm (a Loop whose body runs one
// agent per hand-off) handing off triage → metrics → triage in one runId,
// then a Conditional whose branch id holds an escape sequence.
func swarmLog(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	emit := func(run string, comp, sub []string, typ string, payload map[string]any) {
		line, _ := json.Marshal(map[string]any{"type": "agentfootprint." + typ, "payload": payload,
			"meta": map[string]any{"runId": run, "compositionPath": comp, "subflowPath": sub}})
		b.Write(line)
		b.WriteByte('\n')
	}
	agentRun := func(run string, comp, sub []string, request, answer string) {
		emit(run, comp, sub, "agent.turn_start", map[string]any{"turnIndex": 0, "userPrompt": request})
		emit(run, comp, sub, "stream.llm_start", map[string]any{"iteration": 1, "messagesCount": 1})
		emit(run, comp, sub, "stream.llm_end", map[string]any{"iteration": 1, "content": answer, "toolCallCount": 0,
			"usage": map[string]any{"input": 10, "output": 5}, "stopReason": "stop"})
		emit(run, comp, sub, "agent.iteration_end", map[string]any{"turnIndex": 0, "iterIndex": 1, "toolCallCount": 0})
		emit(run, comp, sub, "agent.turn_end", map[string]any{"turnIndex": 0, "finalContent": answer})
	}
	swarm := []string{"Loop:oncall-swarm"}
	agentRun("run-1-1", swarm, []string{"body", "triage"}, "checkout is slow", "hand to metrics")
	agentRun("run-1-1", swarm, []string{"body", "metrics"}, "hand to metrics", "web-7f3a2c p99 4x; back to triage")
	agentRun("run-1-1", swarm, []string{"body", "triage"}, "web-7f3a2c p99 4x; back to triage", "restart web-7f3a2c")
	agentRun("run-2-2", []string{"Conditional:router"}, []string{"ur\x1b[31mgent"}, "URGENT: pager", "paged")
	p := filepath.Join(t.TempDir(), "swarm.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A token strategy on an agent inside a Loop is replayed with a meter,
// which the log does not record (§15.6): the policy bar says so when the
// strategy key puts one on n07's Loop body.
func TestCompositionMeterNoteOnScreen(t *testing.T) {
	m := open(t, fileConfig(n07), 200, 40)
	if strings.Contains(m.View(), "has a meter") {
		t.Fatalf("a note on the meter under sliding-window:\n%s", lastLines(m, 2))
	}
	m = press(m, "s")
	if m.s.Policy.Strategy != "token-budget" {
		t.Fatalf("s gave %s", m.s.Policy.Strategy)
	}
	if s := lastLines(m, 4); !strings.Contains(s, "whether an agent in a Loop has a meter is not recorded: replayed with one, as a plain agent") {
		t.Errorf("the policy bar does not say how the Loop agent's meter is replayed:\n%s", s)
	}
}

// Where the log does not record a call's window — each run's last call
// at tier minimal (n09, README: calls 13 and 16 have no history), the
// call a run failed on (n02, README: run 2 was aborted during iteration
// 3) — no screen says the library sent it, and a failed call is said to
// have failed, not to wait for a reply.
func TestUnknownWindowsStayHonest(t *testing.T) {
	m := open(t, fileConfig(n09), 200, 40)
	for _, call := range []string{"13", "16"} {
		m = press(m, ":", call[:1], call[1:], "enter")
		if m.s.Current().Recorded() != "unknown" {
			t.Fatalf("call %s: recorded %s", call, m.s.Current().Recorded())
		}
		s := m.screen()
		if strings.Contains(s, " sent ━") || strings.Contains(s, "sent to the model on this call") {
			t.Errorf("call %s, whose window is not in the log, is said to be sent:\n%s", call, s)
		}
		if !strings.Contains(s, "replayed (not in the log)") {
			t.Errorf("call %s: the turns do not say they are the replay's:\n%s", call, s)
		}
		if v := press(m, "v").screen(); !strings.Contains(v, "the log does not record what was sent") {
			t.Errorf("call %s: the transcript does not say its window is the replay's:\n%s", call, v)
		}
		if i := press(m, "i").screen(); !strings.Contains(i, "judged against the replay's window") {
			t.Errorf("call %s: the response does not say what its values are judged against:\n%s", call, i)
		}
	}
	m = open(t, fileConfig(n02), 200, 40)
	m = press(m, ":", "7", "enter", "A")
	head := m.View()[:strings.Index(m.View(), "\n")]
	if !strings.Contains(head, "run 2/3 failed") || !strings.Contains(head, "no reply: the call failed") || strings.Contains(head, "no reply yet") {
		t.Errorf("the aborted call's header: %q", head)
	}
	if s := m.screen(); !strings.Contains(s, "response no reply: the call failed") {
		t.Errorf("the aborted call's response row:\n%s", s)
	}
}

func TestGoldenPickerN07(t *testing.T) {
	// n07's README: Loop refine runs drafter three times in run 1 (calls
	// 1–15, five a pass), each pass a fresh run and its own conversation;
	// Conditional router runs urgent in run 2 (5 calls) and normal in run
	// 3 (4 calls). The picker names the body and its passes 1/3–3/3, and
	// each branch of the Conditional; every window reproduced.
	cfg := fileConfig(n07)
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/5",
		step{keys: []string{"w"}, wait: "branch normal"}))
}

func TestGoldenN06CompositionCall(t *testing.T) {
	// n06's README: after both branches, Parallel triage's merge calls the
	// model (file call 12) with a message the log does not hold. Opened
	// from the picker: the window is not in the log (header, timeline,
	// turns), the response (64 chars, 70 tokens in) is the composition's
	// result, its value web-6a8afa not judged, and no knob replays it.
	cfg := fileConfig(n06)
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/6",
		pressing("w", "G", "enter"), step{wait: "window not in the log"}))
}
