package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
)

// bigJSON is a JSON array of about n bytes, the shape of a fleet dump.
func bigJSON(n int) string {
	var rows []map[string]any
	size := 0
	for i := 0; size < n; i++ {
		r := map[string]any{"id": fmt.Sprintf("web-%06d", i), "region": "us-east-1", "az": "us-east-1b", "cpu": i % 97}
		rows = append(rows, r)
		size += 70
	}
	b, _ := json.Marshal(rows)
	return string(b)
}

// bigResult is a run whose first call asks a tool that answers with
// result; the second call is sent it.
func bigResult(result string) *model.Recording {
	req := &model.Message{Role: model.RoleUser, Content: "List the fleet.", ID: 1}
	ask := &model.Message{Role: model.RoleAssistant, ID: 2, ToolCalls: []model.ToolCall{{ID: "c1", Name: "list_hosts", Args: json.RawMessage(`{}`)}}}
	res := &model.Message{Role: model.RoleTool, Content: result, ToolCallID: "c1", ToolName: "list_hosts", ID: 3}
	return &model.Recording{Source: "big", Runs: []*model.Run{{
		Index: 1, RunID: "r1", Request: req.Content, RequestMessage: req, Strategy: model.SlidingWindow, Complete: true,
		Calls: []*model.Call{
			{Iteration: 1, MessagesCount: 1, Ended: true, Appended: []*model.Message{ask, res}},
			{Iteration: 2, MessagesCount: 3, Ended: true, Appended: []*model.Message{{Role: model.RoleAssistant, Content: "done", ID: 4}}},
		},
	}}}
}

// update is one Update without running the command it returns.
func update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

// A freeze once seen: selecting a 6.7 MB JSON result tokenised it in
// View, for seconds. Now the key is answered with "rendering…" and the
// work is a command; q answers at once meanwhile; the result comes back
// plain, with a note; a revisit and a return to an earlier width are
// served from the cache.
func TestLargeJSONResultIsRenderedOffTheUIPath(t *testing.T) {
	big := bigJSON(6_700_000)
	m := open(t, recConfig("big", bigResult(big)), 120, 40)
	m, cmd := update(m, keyMsg("l")) // call 2: the tool's turn is new, and selected
	if r := m.list.Selected(); r == nil || len(r.Messages) != 2 || r.Messages[1].ToolName != "list_hosts" {
		t.Fatalf("call 2 does not select the tool's turn: %+v", r)
	}
	if !strings.Contains(m.View(), "rendering 6.") {
		t.Fatalf("the big turn is not said to be rendering:\n%s", m.View())
	}
	if cmd == nil {
		t.Fatal("no command renders the big turn")
	}
	if _, q := update(m, keyMsg("q")); q == nil || q() != tea.Quit() {
		t.Error("q does not quit while the big turn renders")
	}
	m = send(m, cmd())
	if v := m.detail.VP.View(); !strings.Contains(v, "not highlighted: 6.") || !strings.Contains(v, `"id": "web-000000"`) {
		t.Errorf("the big result is not shown plain with its note:\n%s", v)
	}
	m, cmd = update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	if cmd == nil || !strings.Contains(m.View(), `"id": "web-000000"`) {
		t.Error("a resize did not re-render the big turn in the background, keeping it on screen meanwhile")
	}
	m = send(m, cmd())
	m, cmd = update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if cmd != nil || strings.Contains(m.View(), "rendering") {
		t.Error("back at the first width, the big turn was rendered again instead of cached")
	}
}

func TestSmallTurnsRenderInTheFrame(t *testing.T) {
	m := open(t, fileConfig(s01), 120, 40)
	if m.detail.Busy() {
		t.Error("a small turn was sent to the background")
	}
}

// Stepping to a call whose window held a 6.7 MB result took 3 s: the
// header judged the call's values in the frame. It shows only what the
// background judge (judgeCmd) answered.
func TestHeaderEvidenceComesFromTheBackgroundJudge(t *testing.T) {
	m := open(t, fileConfig(evidenceDemo), 160, 40)
	m = press(m, "A")
	if !strings.Contains(m.header.View(), "answers: 4 left · 1 never read") {
		t.Fatalf("header after A: %s", m.header.View())
	}
	m.s.Judgements = nil // as before judgeCmd has answered
	if strings.Contains(m.header.View(), "answers:") {
		t.Error("the header judged the call itself")
	}
}
