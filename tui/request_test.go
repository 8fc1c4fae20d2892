package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/internal/hostile"
	"github.com/afinspect/inspect/tui/components/detail"
)

const e01Log = "../testdata/request/e01-archive-system-prompt-recorded/run.jsonl"

// The request line of the demo's first call: the base prompt of 244
// chars (wire.json's systemPrompt), its 5 tools (396 chars of names and
// descriptions in llm_start's catalog), and the one message sent
// (wire.json messageCount 1, the 136-char request).
func TestRequestLineDemo(t *testing.T) {
	m := open(t, fileConfig("../testdata/demo-incident/run.jsonl"), 200, 40)
	line := ansi.Strip(detail.RequestLine(m.s, m.st, 200))
	want := "request system prompt 244 chars (1 piece) · 5 tools 396 chars · 1 message 136 chars · not in the window (S)"
	if line != want {
		t.Errorf("request line\n%q\nwant\n%q", line, want)
	}
	if !strings.Contains(ansi.Strip(m.View()), want) {
		t.Errorf("the request line is not on screen")
	}
}

// S shows each call's pieces with their sources; e01's README.txt: the
// skill arrives on call 2, run 2 (its second conversation) brings the
// loan instruction and the memory recall; tools as llm_start lists them.
func TestRequestViewE01(t *testing.T) {
	m := open(t, fileConfig(e01Log), 120, 60)
	m = press(m, "S")
	flat := func() string { return strings.Join(strings.Fields(ansi.Strip(m.detail.Raw())), " ") }
	if !m.detail.Request || !strings.Contains(m.detail.Title(), "request of call 1") {
		t.Fatalf("S did not open the request: %q", m.detail.Title())
	}
	text := ansi.Strip(m.detail.Raw())
	for _, want := range []string{"recorded verbatim", "▌ base · 64 chars · Agent.system()", "▌ steering tone", "get_item  Catalogue record of an archive item.",
		"system-prompt used 544 of 4,000, 3,456 headroom"} {
		if !strings.Contains(text, want) {
			t.Errorf("call 1: no %q in\n%s", want, text)
		}
	}
	m = press(m, "l")
	text = flat()
	if !m.detail.Request || !strings.Contains(text, "Since call 1: + skill conservation-handling arrived in the system prompt.") {
		t.Errorf("call 2:\n%s", text)
	}
	m = press(m, "l")
	if text = flat(); !strings.Contains(text, "Since call 2: the same system prompt and tools.") {
		t.Errorf("call 3:\n%s", text)
	}
	m = press(m, "esc")
	if m.detail.Request {
		t.Errorf("esc left the request open")
	}
	m = press(m, "S", "j")
	if m.detail.Request {
		t.Errorf("a turn chosen, the request stays")
	}
	// the second conversation: run 2
	m = press(m, "w", "j", "enter")
	m = press(m, "S")
	text = ansi.Strip(m.detail.Raw())
	for _, want := range []string{"▌ instructions", "▌ memory", "courier clause CC-3308"} {
		if !strings.Contains(text, want) {
			t.Errorf("run 2: no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "▌ skill") {
		t.Errorf("run 2 has no skill piece:\n%s", text)
	}
}

// A system prompt, piece sources and reasons, tool names and
// descriptions and slot names carrying escapes reach no screen raw.
func TestHostileRequest(t *testing.T) {
	b, err := os.ReadFile(e01Log)
	if err != nil {
		t.Fatal(err)
	}
	quoted := func(s string) string { j, _ := json.Marshal(s); return string(j[1 : len(j)-1]) }
	// texts of many lines (a prompt piece, a tool's description) keep
	// their newlines; one-line fields (a reason, a slot) show them as ␊
	block, inner := quoted(hostile.Escapes), quoted(hostile.Escapes+hostile.Name)
	for _, s := range []string{"You are the conservation desk assistant", "Catalogue record of an archive item.", "Handling protocol"} {
		b = []byte(strings.ReplaceAll(string(b), s, s+block))
	}
	b = []byte(strings.ReplaceAll(string(b), "Agent.system()", "Agent.system()"+inner))
	b = hostile.Names(b, "base", "steering", "get_item", "conservation-handling")
	b = []byte(strings.ReplaceAll(string(b), `"slot":"messages","iteration"`, `"slot":"messages`+inner+`","iteration"`))
	p := filepath.Join(t.TempDir(), "e01.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		m := open(t, fileConfig(p), size[0], size[1])
		if m.s == nil {
			t.Fatalf("did not load: %v", m.err)
		}
		m = press(m, "S")
		for call := range m.s.Calls() {
			strictScreen(t, "call "+itoa(call+1), ansi.Strip(m.View()), size[0], size[1])
			m = press(m, "pgdown")
			strictScreen(t, "call "+itoa(call+1)+" pgdown", ansi.Strip(m.View()), size[0], size[1])
			m = press(m, "g", "l")
		}
		if !strings.Contains(ansi.Strip(m.detail.Raw()), "␛]0;PWNED") {
			t.Errorf("the hostile text is not shown as placeholders")
		}
	}
}

// S over the response block opens the request at the piece holding the
// answer's first value the system prompt supplied: call 4 of e01 types
// HP-7731, which only the skill's body holds (README.txt).
func TestRequestFromResponse(t *testing.T) {
	m := open(t, fileConfig(e01Log), 120, 40)
	m = press(m, "G", "i")
	if !strings.Contains(ansi.Strip(m.resp.View()), "in the system prompt: its skill conservation-handling piece (S shows it)") {
		t.Fatalf("the response block does not name the piece:\n%s", ansi.Strip(m.resp.View()))
	}
	m = press(m, "S")
	if m.overlay != noOverlay || !m.detail.Request {
		t.Fatalf("S did not open the request")
	}
	first := strings.Split(ansi.Strip(m.detail.VP.View()), "\n")[0]
	if !strings.HasPrefix(first, "▌ skill conservation-handling · 183 chars") {
		t.Errorf("the request opens at %q", first)
	}
}
