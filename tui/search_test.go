package tui

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/search"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

const demoLog = "../testdata/demo-incident/run.jsonl"

// typeSearch opens the prompt and types q, one key at a time.
func typeSearch(m Model, q string) Model {
	m = press(m, "/")
	for _, r := range q {
		m = press(m, string(r))
	}
	return m
}

func TestSearchGoneValue(t *testing.T) {
	// wire.json: web-9d4b27 is only in the list_hosts result, which the
	// library sent on calls 2–7; the README: it left at call 8.
	m := typeSearch(open(t, fileConfig(demoLog), 120, 40), "web-9d4b27")
	if !m.search.Typing || len(m.search.Hits) != 1 {
		t.Fatalf("typing: %d hits, want 1", len(m.search.Hits))
	}
	m = press(m, "enter")
	if m.search.Typing || m.s.Call != 1 {
		t.Fatalf("enter: prompt %v, at call %d; want the first call that sent it, 2", m.search.Typing, m.s.Call+1)
	}
	// the rule the value list names for the same eviction (its pin yielded
	// to a newer result's), not the knob
	want := "in the list_hosts result · sent on calls 2–7 · evicted at 8 (yielded)"
	if got := m.search.Describe(m.s.Replay, m.s.Policy); got != want {
		t.Errorf("hit: %q\nwant %q", got, want)
	}
	if r := m.list.Selected(); r == nil || !strings.Contains(turnlist.TurnWho(r.Messages), "list_hosts") {
		t.Errorf("cursor on %+v, want the list_hosts turn", r)
	}
	if !strings.Contains(ansiFree(m.View()), "hit 1 of 1") {
		t.Errorf("the footer does not count the hit:\n%s", m.View())
	}
	// from call 10, where the turn is gone, the search stays there
	m = typeSearch(press(open(t, fileConfig(demoLog), 120, 40), ":", "1", "0", "enter"), "WEB-9d4b27")
	if len(m.search.Hits) != 0 {
		t.Errorf("a capital letter makes the search match case: %d hits", len(m.search.Hits))
	}
	m = press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	m = typeSearch(m, "web-9D4B27")
	m = press(m, "esc")
	m = typeSearch(m, "web-9d4b27")
	m = press(m, "enter")
	if m.s.Call != 9 {
		t.Errorf("at call 10 the hit moved the screen to call %d", m.s.Call+1)
	}
	if r := m.list.Selected(); r == nil || r.Fate != window.FateGone {
		t.Errorf("at call 10 the list_hosts turn should be selected as gone: %+v", r)
	}
	if present.FirstHitLine(m.detail.Raw(), "web-9d4b27") < m.detail.VP.YOffset {
		t.Error("the detail is not scrolled to the hit")
	}
}

func TestSearchSteps(t *testing.T) {
	// wire.json: web-1c94d2 is in five messages: the list_hosts result,
	// an assistant text, the get_metrics result for it, another
	// assistant text, and run 1's final answer (sent in run 2).
	m := press(typeSearch(open(t, fileConfig(demoLog), 120, 40), "web-1c94d2"), "enter")
	if n := len(m.search.Hits); n != 5 {
		for _, h := range m.search.Hits {
			t.Log(h.Where, h.Life)
		}
		t.Fatalf("%d hits, want 5", n)
	}
	var seen []string
	calls := []int{}
	for range 5 {
		seen = append(seen, m.list.SelectedKey())
		calls = append(calls, m.s.Call)
		m = press(m, "n")
	}
	if m.search.At != 0 || m.list.SelectedKey() != seen[0] {
		t.Errorf("n after the last hit does not wrap to the first")
	}
	for i := 1; i < len(calls); i++ {
		if calls[i] < calls[i-1] {
			t.Errorf("n went back from call %d to %d", calls[i-1]+1, calls[i]+1)
		}
	}
	m = press(m, "N")
	if m.search.At != 4 || m.list.SelectedKey() != seen[4] {
		t.Errorf("N from the first hit goes to hit %d, want the last", m.search.At+1)
	}
	m = press(m, "esc")
	if m.search.Active() || m.detail.Mark() != "" {
		t.Error("esc does not end the search")
	}
	m = press(m, "n")
	if m.search.At >= 0 {
		t.Error("n after esc still steps")
	}
}

func TestSearchToolNamesAndArguments(t *testing.T) {
	m := typeSearch(open(t, fileConfig(demoLog), 120, 40), "restart_service")
	var args, result bool
	for _, h := range m.search.Hits {
		args = args || h.Where == "in the restart_service call's arguments"
		result = result || h.Where == "in the restart_service result"
	}
	if !args || !result {
		t.Errorf("restart_service: found in arguments %v, in its result %v", args, result)
	}
	// q is typed into the prompt, not a quit
	m = typeSearch(open(t, fileConfig(demoLog), 120, 40), "q")
	if m.search.Query != "q" {
		t.Errorf("q in the prompt: query %q", m.search.Query)
	}
}

func TestMarkHits(t *testing.T) {
	st := theme.DefaultStyles()
	// the tests run without colour: a hit is set in » «
	if got := present.MarkHits(st, "a Web-1 b web-1\nnone", "web-1"); got != "a »Web-1« b »web-1«\nnone" {
		t.Errorf("marked %q", got)
	}
	if got := present.MarkHits(st, "a Web-1", "Web-1"); got != "a »Web-1«" {
		t.Errorf("a capital matches case: %q", got)
	}
	if present.FirstHitLine("x\ny web\nweb", "WEB") != -1 || present.FirstHitLine("x\ny web\nweb", "web") != 1 {
		t.Error("firstHitLine")
	}
}

func ansiFree(s string) string { return ansi.Strip(s) }

func TestStaleSearchStops(t *testing.T) {
	m := open(t, fileConfig(demoLog), 120, 40)
	lv := common.LivesOf(m.s)
	var latest atomic.Int64
	latest.Store(2)
	if msg := search.Cmd(1, "web", lv, nil, &latest)(); msg != nil {
		t.Errorf("a search overtaken by a later one answered %T", msg)
	}
	if msg, ok := search.Cmd(2, "web", lv, nil, &latest)().(search.Msg); !ok || len(msg.Hits) == 0 {
		t.Errorf("the latest search did not answer")
	}
}

// In c02 the account ACME-412 is billing's (its get_ledger call, README:
// billing tools); on oncall's conversation a search for it says it is in
// the file's other conversation, not that no message holds it.
func TestSearchSaysWhenOnlyOtherConversationsHoldIt(t *testing.T) {
	m := typeSearch(open(t, fileConfig("../testdata/c02-interleaved-agents/run.jsonl"), 160, 40), "ACME-412")
	line := ansiFree(m.search.View())
	if len(m.search.Hits) != 0 || m.search.Others == 0 || !strings.Contains(line, "not in this conversation; ") || !strings.Contains(line, "hold it (w)") {
		t.Errorf("%d hits, %d elsewhere: %q", len(m.search.Hits), m.search.Others, line)
	}
	m = typeSearch(press(m, "esc", "w", "j", "enter"), "ACME-412")
	if len(m.search.Hits) == 0 || m.search.Others != 0 {
		t.Errorf("on billing's: %d hits, %d elsewhere", len(m.search.Hits), m.search.Others)
	}
}

// TestSearchUnnamedToolResult: a tool result the history gives without a
// toolName reads as one, not as "the  result".
func TestSearchUnnamedToolResult(t *testing.T) {
	m := present.NewMatcher("restart")
	if got := m.Where(&model.Message{Role: model.RoleTool, Content: "restart queued", ToolCallID: "c1"}); got != "in a tool result" {
		t.Errorf("where = %q, want %q", got, "in a tool result")
	}
	if got := m.Where(&model.Message{Role: model.RoleTool, Content: "restart queued", ToolName: "svc"}); got != "in the svc result" {
		t.Errorf("where = %q, want %q", got, "in the svc result")
	}
}
