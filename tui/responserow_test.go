package tui

import (
	"bytes"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"
)

// The expected values below come from testdata/demo-evidence/README.txt.

func TestResponseRowIsEveryCallsLastRow(t *testing.T) {
	m := open(t, fileConfig(evidenceDemo), 140, 40)
	for call := range m.s.Calls() {
		it := m.list.Items[len(m.list.Items)-1]
		if it.Kind != turnlist.ResponseItem {
			t.Fatalf("call %d: the last row is not the response", call+1)
		}
		m = press(m, "l")
	}
	// call 1 asks for the inventory: its row says so, under the turns
	m = press(m, "g")
	if v := ansi.Strip(m.list.View()); !strings.Contains(v, "response → list_hosts(") {
		t.Errorf("call 1's response row does not say it called list_hosts:\n%s", v)
	}
}

func TestFinalAnswerKeySelectsTheResponseRow(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 180, 50), "A")
	if m.s.Call != 12 || !m.list.OnResponse() || m.overlay != noOverlay {
		t.Fatalf("A: call %d, response row %v, overlay %v; want call 13's response row, no overlay", m.s.Call+1, m.list.OnResponse(), m.overlay)
	}
	// the row says it was delivered (run 1's last answer) and counts the
	// flagged values: 4 left (us-east-1b, 10.12.4.52, 3940, web-9d4b27)
	// and 1 never read (web-3e6f14)
	if v := ansi.Strip(m.list.View()); !strings.Contains(v, "response answer 1075 chars · delivered · 4 left · 1 never read") {
		t.Errorf("the response row does not count the flagged values:\n%s", v)
	}
	d := ansi.Strip(m.detail.Raw()) // all of it, scrolled or not
	for _, want := range []string{"web-3e6f14", "never-read", "us-east-1b", "10.12.4.52", "list_hosts call_0001", "INC-20931", "user-supplied", "stop reason", "tokens"} {
		if !strings.Contains(d, want) {
			t.Errorf("the response detail lacks %q:\n%s", want, d)
		}
	}
	if title := m.detail.Title(); !strings.HasPrefix(title, "response of call 13 · answer") {
		t.Errorf("detail title %q", title)
	}
	// A again from the follow-up's first call: run 2's answer is call 16
	m = press(m, ":", "1", "4", "enter", "A")
	if m.s.Call != 15 || !m.list.OnResponse() {
		t.Errorf("A in run 2: call %d, response row %v; want call 16's", m.s.Call+1, m.list.OnResponse())
	}
}

func TestEnterOnResponseRowOpensTheValues(t *testing.T) {
	m := press(open(t, fileConfig(evidenceDemo), 140, 50), "A", "enter")
	if m.overlay != responseOverlay {
		t.Fatalf("enter on the response row: overlay %v", m.overlay)
	}
	m = press(m, "i")
	if m.overlay != noOverlay || !m.list.OnResponse() {
		t.Errorf("i closes the values onto the response row: overlay %v, row %v", m.overlay, m.list.OnResponse())
	}
	// i from a turn opens the block and selects the row under it
	m = press(m, "k", "i", "esc")
	if !m.list.OnResponse() {
		t.Error("after i and esc the response row is not selected")
	}
	// a new call lands as always, on what left or came
	m = press(m, "l")
	if m.list.OnResponse() {
		t.Error("a new call kept the cursor on the response row")
	}
}

// listHosts is the demo's inventory result, list_hosts call_0001.
func listHosts(t *testing.T, m Model) *model.Message {
	for _, r := range m.s.Rows.Rows() {
		for _, msg := range r.Messages {
			if msg.ToolCallID == "call_0001" && msg.Role == model.RoleTool {
				return msg
			}
		}
	}
	t.Fatal("no list_hosts call_0001 at this call")
	return nil
}

func TestToolTurnLifetimeStrip(t *testing.T) {
	// list_hosts call_0001 was sent on calls 2–6 and left at call 7;
	// values of it were used while it was out of view at call 7
	// (web-9d4b27 typed in get_metrics' arguments), 13 (us-east-1b,
	// 10.12.4.52, web-9d4b27) and 16 (us-west-2a, eu-west-1c).
	m := press(open(t, fileConfig(evidenceDemo), 160, 50), ":", "1", "3", "enter")
	inv := listHosts(t, m)
	used, ok := m.s.UsedOutOfView(inv)
	if !ok || !slices.Equal(used, []int{6, 12, 15}) {
		t.Errorf("used while out of view at %v (known %v), want calls 7, 13, 16", used, ok)
	}
	lines := present.LifetimeLines(common.StripOf(m.s), m.st, inv, "list_hosts call_0001", 120)
	cells := []rune(strings.TrimPrefix(ansi.Strip(lines[0]), "list_hosts call_0001 "))
	if want := "·▮▮▮▮▮▲·····▲··▲"; !samePlace(cells, []rune(want)) {
		t.Errorf("strip %q, want %q (▮ or ▣ where in view)", string(cells), want)
	}
	caret := ansi.Strip(lines[1])
	if strings.Index(caret, "^ call 13 · ") != len("list_hosts call_0001 ")+12 {
		t.Errorf("the caret is not under call 13: %q", caret)
	}
	if !strings.Contains(caret, "used out of view at calls 7, 13, 16") {
		t.Errorf("the strip's words: %q", caret)
	}
	// the detail of the tool turn shows it, without a key
	for !strings.Contains(ansi.Strip(m.detail.View()), "list_hosts ·") && m.list.Cursor > 0 {
		m = press(m, "k")
	}
	if r := m.list.Selected(); r == nil || !slices.Contains(r.Messages, inv) {
		t.Fatalf("no turn above shows list_hosts' strip")
	}
	if d := flat(m.detail.View()); !strings.Contains(d, "used out of view at calls 7, 13, 16") {
		t.Errorf("the tool turn's detail lacks its strip:\n%s", d)
	}
}

// samePlace compares a strip with a pattern where ▮ also accepts ▣
// (held as a pinned latest result is in view too).
func samePlace(got, want []rune) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] && (want[i] != '▮' || got[i] != '▣') {
			return false
		}
	}
	return true
}

func TestApplyKeepMovesEveryKnobOfTheSelectedSuggestion(t *testing.T) {
	// Hand-made suggestions for two of call 13's values that left
	// (README: us-east-1b and 10.12.4.52, both from list_hosts): K
	// applies the one of the value selected in the response block, all
	// its knobs — here a strategy and a threshold too.
	m := press(open(t, fileConfig(evidenceDemo), 140, 50), "A", "i")
	base := m.s.Policy
	first, second := base, base
	first.KeepRecentTurns = 4
	second.Strategy, second.ThresholdTokens, second.KeepRecentTurns = model.TokenBudget, 2000, 3
	m.sugs.Answers[m.s.Call] = map[string]*session.Suggestion{
		"us-east-1b": {Policy: first, Text: "first"},
		"10.12.4.52": {Policy: second, Text: "second"},
	}
	m = press(m, "tab", "K")
	if m.s.Policy != second || m.s.Replay.Policy != second {
		t.Errorf("K with 10.12.4.52 selected: policy %+v, replay under %+v; want %+v", m.s.Policy, m.s.Replay.Policy, second)
	}
	if !strings.HasSuffix(m.flash, ": second") {
		t.Errorf("flash %q", m.flash)
	}
	// from the screen, without the block, K applies the first found
	m = press(m, "esc", "r", "A")
	m.sugs.Answers[m.s.Call] = map[string]*session.Suggestion{"us-east-1b": {Policy: first, Text: "first"}}
	if m = press(m, "K"); m.s.Policy != first {
		t.Errorf("K on the response row: policy %+v, want %+v", m.s.Policy, first)
	}
}

func TestStripOfALargeRecordingWaitsForTheJudge(t *testing.T) {
	// 2.5 MB of windows is not judged on the key press: the strip says it
	// is being judged, and is drawn again when the background pass answers
	m := open(t, recConfig("big", bigResult(bigJSON(2_500_000))), 120, 40)
	m.s.Judgements, m.s.Judging = nil, nil // as before the pass answered
	m, _ = update(m, keyMsg("l"))
	if r := m.list.Selected(); r == nil || len(present.SourceMessages(r.Messages)) != 1 {
		t.Fatalf("call 2 does not select the tool's turn: %+v", r)
	}
	if d := flat(m.detail.View()); !strings.Contains(d, "still judging which calls used it…") {
		t.Fatalf("the strip does not say the calls are being judged:\n%s", d)
	}
	m = send(m, judgeCmd(m.s.Book, m.s.Rec, m.s.Replay)())
	if d := flat(m.detail.View()); !strings.Contains(d, "never used out of view") {
		t.Errorf("the judge's answer did not redraw the strip:\n%s", d)
	}
}

// flat is a screen's text without styles, its lines and runs of spaces
// made one space, so a wrapped sentence is found whole.
func flat(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), " ") }

func TestApplyKeepNamesTheAgentOnScreen(t *testing.T) {
	// c02 holds two agents, oncall and billing (RECORDINGS.md); the screen
	// shows one agent's conversation, whose policy K moves
	m := open(t, fileConfig("../testdata/c02-interleaved-agents/run.jsonl"), 140, 40)
	if got := onAgent(m.s); got != " to agent oncall" {
		t.Errorf("on oncall's conversation K says %q", got)
	}
	if got := onAgent(open(t, fileConfig(evidenceDemo), 140, 40).s); got != "" {
		t.Errorf("a file of one agent: K says %q", got)
	}
}

func TestCopyTheResponse(t *testing.T) {
	// y on call 7's response row copies what the model answered: the
	// get_metrics call typing web-9d4b27 (README (i))
	var clip bytes.Buffer
	cfg := fileConfig(evidenceDemo)
	cfg.Clipboard = &clip
	m := open(t, cfg, 120, 40)
	m = press(m, ":", "7", "enter")
	m = press(m, strings.Split(strings.Repeat("j", 20), "")...)
	if !m.list.OnResponse() {
		t.Fatal("j past the last turn is not on the response row")
	}
	m = press(m, "y")
	out := strings.TrimSuffix(strings.TrimPrefix(clip.String(), "\x1b]52;c;"), "\x07")
	text, err := base64.StdEncoding.DecodeString(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "get_metrics") || !strings.Contains(string(text), "web-9d4b27") {
		t.Errorf("copied %.300q", text)
	}
}

func TestNarrowStripShowsTheCallsAroundThisOne(t *testing.T) {
	// 16 calls in 10 columns: 8 cells around call 13 (calls 9–16), … where
	// calls are left out; list_hosts was used out of view at 13 and 16
	m := press(open(t, fileConfig(evidenceDemo), 160, 50), ":", "1", "3", "enter")
	inv := listHosts(t, m)
	lines := present.LifetimeLines(common.StripOf(m.s), m.st, inv, "x", 12)
	if got := ansi.Strip(lines[0]); got != "x …····▲··▲ " {
		t.Errorf("narrow strip %q", got)
	}
	if got := ansi.Strip(lines[1]); !strings.HasPrefix(got, "       ^ ") {
		t.Errorf("narrow caret %q", got)
	}
}
