package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/components/response"
	"github.com/afinspect/inspect/tui/present"
)

// What the screen says of flagged values (docs/rules/evidence.md §9): the
// expected words come from the recordings' READMEs and the spec's
// examples.

const (
	e01  = "../testdata/e01-guard/run.jsonl"
	e02  = "../testdata/e02-rails/run.jsonl"
	e03  = "../testdata/e03-tokens/run.jsonl"
	e05b = "../testdata/e05b-summary-invented-value/run.jsonl"
	n09  = "../testdata/n09-tier-minimal/run.jsonl"
	c02  = "../testdata/c02-interleaved-agents/run.jsonl"
)

// respText is the response block of the call on screen, whole.
func respText(m Model) string { return ansiFree(response.Text(m.s, m.st, *m.sugs, -1, 200)) }

// valueRow is the block's line of a value, its words single-spaced
// ("left 3940 text"); "" when it lists no such value.
func valueRow(block, value string) string {
	for _, l := range strings.Split(block, "\n") {
		f := strings.Fields(l)
		i := slicesIndex(f, value)
		if (i == 1 || i == 2 && f[0] == "no") && (f[len(f)-1] == "text" || len(f) > i+2 && f[i+1] == "args") {
			return strings.Join(f, " ")
		}
	}
	return ""
}

func slicesIndex(f []string, s string) int {
	for i, x := range f {
		if x == s {
			return i
		}
	}
	return -1
}

// The demo's call 12 types `since:"14:31"` while restart_service
// call_0011's "restarted_at":"2025-03-18T14:31:07Z" is pinned in its
// window (§9.2.6): in view inside a longer token, never "typed, not
// read". The answer at call 13 keeps that sentence for web-3e6f14,
// which no message held.
func TestInsideTokenSentence(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 120, 40), ":", "1", "2", "enter")
	v := respText(m)
	if want := "in view, inside 2025-03-18t14:31:07z of restart_service call_0011; the library's check does not split tokens"; !strings.Contains(v, want) {
		t.Errorf("no %q in\n%s", want, v)
	}
	if strings.Contains(v, "typed, not read") || valueRow(v, "14:31") != "in-view-text 14:31 args call_0013" {
		t.Errorf("call 12's 14:31:\n%s", v)
	}
	m = press(m, "A")
	if v := respText(m); strings.Count(v, "in no message this conversation sent: typed, not read") != 1 || valueRow(v, "web-3e6f14") != "never-read web-3e6f14 text" {
		t.Errorf("call 13: web-3e6f14 alone is typed, not read:\n%s", v)
	}
}

// e05b's answer copies 10.12.4.25, which the summarizer transposed from
// list_hosts' 10.12.4.52 (§9.3.5): the header counts it, x stops on its
// call, and the block says no tool result held it, naming the nearest.
func TestSummaryUnsupportedOnScreen(t *testing.T) {
	m := open(t, fileConfig(e05b), 120, 40)
	m = press(m, "x")
	if m.s.Call != 6 {
		t.Fatalf("x from call 1 went to call %d, want 7 (the answer)", m.s.Call+1)
	}
	if line2 := strings.Split(ansiFree(m.View()), "\n")[1]; !strings.Contains(line2, "answers: 1 only in a summary") {
		t.Errorf("header line 2: %q", line2)
	}
	v := respText(m)
	if row := valueRow(v, "10.12.4.25"); row != "summary-unsupported 10.12.4.25 text" {
		t.Errorf("its row %q", row)
	}
	for _, want := range []string{
		"only in the summary; no tool result held it — nearest: 10.12.4.52 (list_hosts call_0001)",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
}

// e02-rails (posture rails): the first answer (call 7) was sent back, the
// revision (call 9) refused — run() threw UnsupportedValuesError and the
// caller got nothing (README). A goes to the run's last answer, call 9,
// whose row and block say so and never that it was delivered; e01-guard's
// revision (call 9) was returned.
func TestRefusedAnswerSaysNothingDelivered(t *testing.T) {
	m := press(open(t, fileConfig(e02), 160, 40), "A")
	if m.s.Call != 8 || !m.list.OnResponse() {
		t.Fatalf("A: call %d, response row %v; want call 9's response row", m.s.Call+1, m.list.OnResponse())
	}
	if row := ansiFree(m.list.View()); !strings.Contains(row, "response answer 204 chars · refused · 1 never read") {
		t.Errorf("the response row:\n%s", row)
	}
	v := respText(m)
	if !strings.Contains(v, "outcome: refused: run() threw UnsupportedValuesError; the caller got nothing") || strings.Contains(v, "delivered") {
		t.Errorf("call 9's block:\n%s", v)
	}
	m = press(m, ":", "7", "enter")
	if v := respText(m); !strings.Contains(v, "outcome: revision asked: the library's answer check sent it back with its correction") {
		t.Errorf("call 7's block:\n%s", v)
	}
	m = press(open(t, fileConfig(e01), 120, 40), "A")
	if v := respText(m); m.s.Call != 8 || !strings.Contains(v, "outcome: delivered: run() returned it to the caller") {
		t.Errorf("e01's A: call %d\n%s", m.s.Call+1, v)
	}
}

// The library's "[evidence check …" message (e01-guard, call 8's last
// message, README) is a turn the library wrote, listed and labelled as
// its own, not as the user's.
func TestCorrectionIsLibraryWritten(t *testing.T) {
	m := press(open(t, fileConfig(e01), 120, 40), ":", "9", "enter")
	l := ansiFree(m.list.View())
	if !strings.Contains(l, "library: [evidence check") || strings.Contains(l, "user: [evidence check") {
		t.Errorf("the correction's row:\n%s", l)
	}
	for !strings.Contains(ansiFree(m.list.View()), "▸ recent  library:") {
		before := m.list.Cursor
		if m = press(m, "j"); m.list.Cursor == before {
			t.Fatalf("no cursor on the correction:\n%s", ansiFree(m.list.View()))
		}
	}
	if d := ansiFree(strings.Join(strings.Fields(m.detail.View()), " ")); !strings.Contains(d, "user · the library's correction (evidence check)") ||
		!strings.Contains(d, "written by the library, not the user: it sends call 7's answer back") {
		t.Errorf("the correction's detail:\n%s", d)
	}
}

// c02's billing agent ran with pins off (README); every keepLastToolResults
// 0–5 reproduces its windows, so the bar does not say pins are on: it
// says the log cannot tell. A moved knob is the user's: no guess.
// oncall's 2–5 leave pins on.
func TestPinsRangeOnPolicyBar(t *testing.T) {
	m := press(open(t, fileConfig(c02), 120, 40), "w", "j", "enter")
	bar := ansiFree(m.bar.View())
	if !strings.Contains(bar, "pins 0–5 equally good") || strings.Contains(bar, "pins=on") ||
		!strings.Contains(bar, "a guess: the log cannot tell keepLastToolResults 0–5 apart") {
		t.Errorf("billing's bar:\n%s", bar)
	}
	if bar := ansiFree(press(m, "]").bar.View()); strings.Contains(bar, "equally good") || strings.Contains(bar, "a guess") {
		t.Errorf("a knob moved, yet a guess:\n%s", bar)
	}
	m = press(m, "w", "k", "enter")
	if bar := ansiFree(m.bar.View()); !strings.Contains(bar, "pins=on") || !strings.Contains(bar, "keepLastToolResults 2–5 apart") {
		t.Errorf("oncall's bar:\n%s", bar)
	}
}

// In c02 the billing conversation's calls are the file's 2, 3, 5, 7, 9,
// 11, 13, 14, 16, 18, 20, 21 (README: 7 + 5 calls). The header gives both
// numbers; :f20 from oncall's conversation opens billing's at its call
// 11 and says so; :11 is the conversation's own.
func TestGoToFileWideCallNumber(t *testing.T) {
	m := open(t, fileConfig(c02), 200, 40)
	m = press(m, ":", "f", "2", "0", "enter")
	if m.s.Views.Convs[m.s.Views.Shown].Agent.Key != "billing" || m.s.Call != 10 {
		t.Fatalf(":f20: %s's call %d; want billing's call 11", m.s.Views.Convs[m.s.Views.Shown].Agent.Key, m.s.Call+1)
	}
	if m.flash != "file call 20 = call 11 of billing's conversation 2" {
		t.Errorf("flash %q", m.flash)
	}
	if h := ansiFree(m.header.View()); !strings.Contains(h, "call 11/12 (file call 20, iteration 4)") {
		t.Errorf("header %q", h)
	}
	m = press(m, ":", "6", "enter")
	if m.s.Call != 5 || m.s.Current().Call.Number != 11 {
		t.Errorf(":6: call %d (file %d), want 6 (file 11)", m.s.Call+1, m.s.Current().Call.Number)
	}
	m = press(m, ":", "f", "1", "9", "enter") // oncall's answer
	if m.s.Views.Convs[m.s.Views.Shown].Agent.Key != "oncall" || m.s.Call != 8 {
		t.Errorf(":f19: call %d of %s, want oncall's 9", m.s.Call+1, m.s.Views.Convs[m.s.Views.Shown].Agent.Key)
	}
	if p := ansiFree(press(m, ":").footer()); !strings.Contains(p, "go to call (1–9; f1–f21: the file's numbering)") {
		t.Errorf("prompt %q", p)
	}
}

// x stops on calls whose answer holds a flagged value (§9.1.4): on the
// demo from call 1 that is call 13 (its flagged answer values are at
// calls 13 and 16); I makes x stop on the arguments too, and there only
// on flagged ones (§10.2): call 2's time windows are the model's query
// bounds and not flagged, so I, x goes to call 7, whose get_metrics
// types web-9d4b27 from memory at the call list_hosts left. Call 2's
// values are still listed, each with the rule that did not flag it.
func TestXStopsOnAnswersUnlessAsked(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 120, 40), "x")
	if m.s.Call != 12 {
		t.Errorf("x: call %d, want 13", m.s.Call+1)
	}
	m = press(m, "g", "I", "x")
	if m.s.Call != 6 || !m.xArgs {
		t.Errorf("I, x: call %d, want 7", m.s.Call+1)
	}
	if line2 := strings.Split(ansiFree(m.View()), "\n")[1]; !strings.Contains(line2, "args: 1 left") || strings.Contains(line2, "answers:") {
		t.Errorf("call 7's header: %q", line2)
	}
	m = press(m, ":", "2", "enter")
	if line2 := strings.Split(ansiFree(m.View()), "\n")[1]; strings.Contains(line2, "args:") {
		t.Errorf("call 2's header counts what is not flagged: %q", line2)
	}
	if v := respText(m); !strings.Contains(v, "── arguments · 4 values ─") || valueRow(v, "14:00-14:30z") != "never-read 14:00-14:30z args call_0002" ||
		!strings.Contains(v, "not flagged (time-in-argument)") {
		t.Errorf("call 2's block:\n%s", v)
	}
}

// e03's answer at call 7 holds 16 values the library's rules do not
// ground; its event lists 12 (README): the block says the library lists
// only its first 12, and still agrees.
func TestLibraryListsItsFirst12OnScreen(t *testing.T) {
	m := press(open(t, fileConfig(e03), 120, 40), "A")
	if v := respText(m); !strings.Contains(v, "12 unsupported listed (the library lists only its first 12; inspect finds 16) — inspect agrees") {
		t.Errorf("\n%s", v)
	}
}

// A JSON answer's "p99_ms":3940 is the token :3940 to the library, and
// the number 3940 to inspect (§9.5), which left the window (the demo's
// get_metrics call_0004, README); "errors":874 reads no value. The
// demo's answer at call 13 is given as JSON for the test.
func TestJSONNumberShowsTheReadValue(t *testing.T) {
	rec, err := loader.StartLimited(evidenceDemo, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	rec.Runs[0].Calls[12].Facts.Response.Content = `{"p99_ms":3940,"requests_per_min":1822,"errors":874}`
	m := press(open(t, recConfig("demo", rec), 120, 40), ":", "1", "3", "enter")
	v := respText(m)
	for _, want := range []string{
		"typed as :3940 in JSON: the library reads the token :3940 (never-read); inspect reads the number 3940",
		"in get_metrics call_0004",
		"typed as :874 in JSON: the library reads the token :874 (never-read); the number 874 has too few digits to be a value",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if valueRow(v, "3940") != "left 3940 text" || valueRow(v, "874") != "no value 874 text" {
		t.Errorf("rows %q, %q", valueRow(v, "3940"), valueRow(v, "874"))
	}
	if valueRow(v, ":3940") != "" {
		t.Errorf("the token shown as the value:\n%s", v)
	}
}

// At tier minimal the log does not keep the system prompt (§9.6.1):
// n09's invented web-3e6f14 is never read, and the sentence says the
// prompt is the one message it cannot speak for.
func TestNeverReadAtTierMinimal(t *testing.T) {
	m := press(open(t, fileConfig(n09), 120, 40), "A")
	if v := respText(m); !strings.Contains(v, "unless the system prompt held it (tier minimal: the log does not keep it)") {
		t.Errorf("\n%s", v)
	}
}

// A composition's own call has no window in the log: its values are
// unknown (provenance), and the screen says so instead of "typed, not
// read", and counts nothing.
func TestUnknownValueIsNotTypedNotRead(t *testing.T) {
	e := provenance.Entry{Value: "web-6a8afa", Verdict: evidence.Unknown}
	s := present.VerdictSentence(e, false)
	if strings.Contains(s, "typed, not read") || !strings.Contains(s, "does not hold this call's window") {
		t.Errorf("%q", s)
	}
	if c := provenance.TallyOf(&provenance.CallEvidence{Values: []provenance.Entry{e}}); c.Answer.Total()+c.Args.Total() > 0 {
		t.Error("an unknown value counted as flagged")
	}
}
