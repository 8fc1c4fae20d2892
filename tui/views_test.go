package tui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/afinspect/inspect/tui/components/header"
	"github.com/afinspect/inspect/window"
)

func TestGoldenPickerC02(t *testing.T) {
	// c02's README: agent oncall, 1 request = 9 calls; agent billing, a
	// request (7 calls) and a follow-up (5), lines interleaved: two
	// conversations. The screen opens on oncall's; w lists both agents,
	// their conversations and runs, each reproduced call for call.
	cfg := fileConfig("../testdata/c02-interleaved-agents/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		step{keys: []string{"w"}, wait: "conversation 2 · 2 runs · 12 calls"}))
}

func TestGoldenC06bSecondStep(t *testing.T) {
	// c06b's README: a Sequence, one runId; the writer step (K=2) is the
	// second conversation, its iterations start again at 1. Its third
	// call (wire.json call 9) sends 5 messages.
	cfg := fileConfig("../testdata/c06b-composition-sequence/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/6",
		step{keys: []string{"w", "j", "enter"}, wait: "pipeline/step-write · conversation 2/2"},
		step{keys: []string{"l", "l"}, wait: "call 3/6"}))
}

// Knobs act on the agent on screen: after switching to billing and
// moving keepRecentTurns, the calls replayed are billing's only, and
// oncall's replay under its recorded policy is what it was.
func TestKnobsActOnTheAgentOnScreen(t *testing.T) {
	cfg := fileConfig("../testdata/c02-interleaved-agents/run.jsonl")
	m := open(t, cfg, 120, 40)
	if m.s.Calls() != 9 || !strings.Contains(header.ViewsLabel(m.s.Views, -1), "oncall") {
		t.Fatalf("opens on %q with %d calls", header.ViewsLabel(m.s.Views, -1), m.s.Calls())
	}
	m = press(m, "w", "j", "enter")
	if m.s.Calls() != 12 || !strings.Contains(header.ViewsLabel(m.s.Views, -1), "billing") || m.s.Policy.KeepRecentTurns != 4 {
		t.Fatalf("after the picker: %q, %d calls, policy %v", header.ViewsLabel(m.s.Views, -1), m.s.Calls(), m.s.Policy)
	}
	m = press(m, "[")
	if m.s.Policy.KeepRecentTurns != 3 || !m.s.Changed() {
		t.Fatalf("[ gave %v", m.s.Policy)
	}
	for i := range m.s.Replay.Calls {
		if a := m.s.Replay.Calls[i].Run.Agent.Key; a != "billing" {
			t.Fatalf("call %d of the replay is %s's", i+1, a)
		}
	}
	m = press(m, "w", "k", "enter")
	if m.s.Calls() != 9 || m.s.Changed() || m.s.Policy.KeepRecentTurns != 2 {
		t.Fatalf("back on oncall: %d calls, policy %v (changed %v)", m.s.Calls(), m.s.Policy, m.s.Changed())
	}
	for i := range m.s.Replay.Calls {
		if r := m.s.Replay.Calls[i].Recorded(); r != window.Match {
			t.Errorf("oncall call %d: %s after billing's knob moved", i+1, r)
		}
	}
}

func TestGoldenRecordedBesideReplay(t *testing.T) {
	// s01 was recorded under keepRecentTurns 2 (README). Under 3, call 5
	// keeps the read_file#1 turn the library dropped (wire.json call 5 has
	// the request, search_docs#1, read_file#2, run_query#1): the header
	// says the window differs, and W puts the recorded window beside the
	// replay, the differing messages marked.
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		step{keys: []string{"]"}, wait: "keepRecentTurns=3*"},
		step{keys: []string{"l", "l", "l", "l"}, wait: "call 5/9"},
		step{keys: []string{"W"}, wait: "Recorded window beside the replay"}))
}

func TestGoldenConversationColumnWide(t *testing.T) {
	// At 180 columns the file's conversations (c02: oncall's, billing's
	// run and follow-up) stay listed in a column left of the panes, the
	// one on screen marked; after w picks billing's, the mark moves.
	cfg := fileConfig("../testdata/c02-interleaved-agents/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, 180, 30, "call 1/9",
		step{keys: []string{"w", "j", "enter"}, wait: "call 1/12"}))
}

// A file of one conversation (s01: one request, 9 calls, recorded under
// keepRecentTurns 2, its README) lists it in the picker with how much of
// it the replay reproduces, as a file of several does — not "…" forever.
func TestPickerCountsAFileOfOneConversation(t *testing.T) {
	m := open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40)
	m = press(m, "w")
	v := m.View()
	if !strings.Contains(v, "conversation 1 · 1 run · 9 calls · match 9/9") || strings.Contains(v, "· …") {
		t.Fatalf("the picker of s01:\n%s", v)
	}
}

// Under keepRecentTurns 3, s01's call 5 keeps read_file#1, which the
// library (keepRecentTurns 2, README) had dropped: wire.json's call 5 is
// the request, search_docs#1, read_file#2 and run_query#1. Nothing on
// that screen may say the replay's turns were sent: the list's title
// and the new run_query turn's lifeline say they were replayed.
func TestNothingSentOnADifferingCall(t *testing.T) {
	m := open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40)
	m = press(m, "]", "right", "right", "right", "right")
	if c := m.s.Current(); c == nil || c.Index != 4 || c.Recorded() != window.Differs {
		t.Fatalf("not on a differing call 5: %+v", c)
	}
	v := ansiFree(m.View())
	if strings.Contains(v, "· 5 sent") || strings.Contains(v, "sent on call") {
		t.Errorf("a differing call calls turns sent:\n%s", v)
	}
	if !strings.Contains(v, "· 5 replayed ━") || !strings.Contains(v, "in the replay's windows on calls 5–7 (") {
		t.Errorf("the title or the lifeline does not say the turns were replayed:\n%s", v)
	}
	// the provider's 1,454 input tokens (s01's llm_end of call 5) counted
	// the library's window, not the replay's 9 messages
	if !strings.Contains(v, "window 9 msgs, 8,063 chars, the library sent 1,454 tok") {
		t.Errorf("the header puts the recorded tokens beside the replay's window as if they were its own:\n%s", v)
	}
	if v := ansiFree(press(m, "v").View()); strings.Contains(v, "as the model read it") || !strings.Contains(v, "the replay's window, not the one the library sent") {
		t.Errorf("the transcript of a differing call:\n%s", v)
	}
}

// Under keepRecentTurns 1 the demo's replay differs from what the library
// sent on many calls. The sources of call 13's values (i) say on which
// calls they were sent only where every one of those windows is the
// library's; elsewhere that they were in the replay's windows.
func TestEvidenceSourcesNotSentWhereTheReplayDiffers(t *testing.T) {
	m := open(t, fileConfig("../testdata/demo-evidence/run.jsonl"), 120, 200)
	m = press(m, "[", ":", "1", "3", "enter", "i")
	v := ansiFree(m.View())
	if !strings.Contains(v, "in the replay's windows on calls") {
		t.Fatalf("no source says it was replayed:\n%s", v)
	}
	for _, g := range regexp.MustCompile(`sent on calls (\d+)–(\d+)`).FindAllStringSubmatch(v, -1) {
		a, _ := strconv.Atoi(g[1])
		b, _ := strconv.Atoi(g[2])
		for i := a; i <= b; i++ {
			if m.s.Replay.Calls[i-1].Recorded() == window.Differs {
				t.Errorf("%q, but call %d differs from its record", g[0], i)
			}
		}
	}
}

// c02's billing conversation is calls 2, 3, 5, 7, 9, 11, 13 (its request)
// and 14, 16, 18, 20, 21 (its follow-up) of the file, 1–12 on screen
// (README: 7 + 5 calls). At its call 10 (file 18) acme-412 left: the
// request's text was sent on file calls 2–13 and left at 14, get_ledger's
// result on 5–11 and left at 13. The screen says so in its own numbers.
func TestEvidenceSourcesInTheScreensCallNumbers(t *testing.T) {
	m := open(t, fileConfig("../testdata/c02-interleaved-agents/run.jsonl"), 120, 60)
	m = press(m, "w", "j", "enter", ":", "1", "0", "enter", "i")
	v := ansiFree(m.View())
	for _, want := range []string{
		"call 10 (file call 18, run 2, iteration 3)", // the header's run 2/2: the follow-up (file run 3)
		"in the user's text · sent on calls 1–7 · evicted at 8 (not-pinnable)",
		// billing ran with pins off (README) and every keepLastToolResults
		// 0–5 reproduces its windows: the rule is either
		"in get_ledger call_0002 · sent on calls 3–6 · evicted at 7 (superseded or pins-off)",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	m = press(m, "enter")
	if want := "call 7: the last call the user's text (which held acme-412) was in view; it left at 8 (not-pinnable)"; m.s.Call != 6 || m.flash != want {
		t.Errorf("enter: at call %d, %q; want call 7, %q", m.s.Call+1, m.flash, want)
	}
}

// At 80 columns the header still counts the call's flagged values: at the
// demo's call 7 the model types web-9d4b27 into get_metrics' arguments,
// whose list_hosts result left the window there (README): an argument's,
// counted apart from the answers'.
func TestHeaderCountsFlaggedValuesAt80Columns(t *testing.T) {
	m := open(t, fileConfig("../testdata/demo-evidence/run.jsonl"), 80, 24)
	m = press(m, ":", "7", "enter")
	line2 := strings.Split(ansiFree(m.View()), "\n")[1]
	if !strings.Contains(line2, "args: 1 left") || strings.Contains(line2, "answers:") {
		t.Errorf("header line 2 at call 7: %q", line2)
	}
}

// A file of several conversations is not a problem with the file: c02
// reads cleanly (inspect report lists no problems), and the screen on
// one of its conversations counts none either.
func TestSeveralConversationsAreNotAProblem(t *testing.T) {
	m := open(t, fileConfig("../testdata/c02-interleaved-agents/run.jsonl"), 200, 40)
	if n := m.s.Rec.ProblemCount(); n != 0 {
		t.Errorf("%d problems: %v", n, m.s.Rec.Problems)
	}
}

// The picker's counts are under the recorded policies; with a knob moved
// it also says what the knobs make of the conversation on screen (s01
// under keepRecentTurns 3 reproduces 7 of its 9 windows: inspect report
// --keep-recent-turns 3).
func TestPickerSaysWhatTheKnobsMake(t *testing.T) {
	m := press(open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 160, 40), "]", "w")
	if v := ansiFree(m.View()); !strings.Contains(v, "match 9/9  (on screen; under your knobs: differs: 7/9 match)") {
		t.Errorf("the picker after ]:\n%s", v)
	}
}
