package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
)

// manyConvsFile writes n conversations of agents agents (conversation k
// is agent-(k mod agents)'s, one run each).
func manyConvsFile(t *testing.T, n, agents int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "many.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := rungen.WriteConversations(f, rungen.Independent(n).Over(agents)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// listedConversations are the conversations the picker's screen lists,
// by agent and number, in order.
func listedConversations(m Model) []string {
	var out []string
	agent := ""
	for _, l := range strings.Split(m.screen(), "\n") {
		if a := regexp.MustCompile(`agent (agent-\d+)`).FindStringSubmatch(l); a != nil {
			agent = a[1]
		}
		if c := regexp.MustCompile(`conversation (\d+) ·`).FindStringSubmatch(l); c != nil {
			out = append(out, agent+"/"+c[1])
		}
	}
	return out
}

// The picker filters as it is typed: 30 conversations of 3 agents
// (conversation k is agent-(k mod 3)'s). "agent-2" typed whole puts
// agent-2's ten conversations first (2, 5, …, 29); the line says how
// many match; esc clears the filter, a second esc closes the picker;
// enter on a filtered row opens that conversation.
func TestPickerFilterAsYouType(t *testing.T) {
	m := open(t, fileConfig(manyConvsFile(t, 30, 3)), 120, 40)
	m = press(m, "w", "/")
	for _, r := range "agent-2" {
		m = press(m, string(r))
	}
	got := listedConversations(m)
	var want []string
	for k := 2; k <= 29; k += 3 {
		want = append(want, fmt.Sprintf("agent-2/%d", k))
	}
	if len(got) < len(want) || strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
		t.Fatalf("typed agent-2: listed %v, want first %v", got, want)
	}
	if !strings.Contains(m.screen(), "filter: agent-2▏") || !regexp.MustCompile(`\d+ of 30 conversations match`).MatchString(m.screen()) {
		t.Errorf("no filter line:\n%s", m.screen())
	}
	// q and w are letters while the filter is typed, not quit or close
	m = press(m, "q", "w")
	if m.quitting || m.overlay != pickerOverlay || !strings.Contains(m.screen(), "filter: agent-2qw") {
		t.Fatalf("q and w while typing the filter: quitting %v, overlay %v", m.quitting, m.overlay)
	}
	if got := listedConversations(m); len(got) != 0 {
		t.Errorf("agent-2qw matches nothing, listed %v", got)
	}
	m = press(m, "backspace", "backspace", "enter") // keep agent-2, then move and open
	m = press(m, "down", "enter")
	if m.overlay != noOverlay || m.s.View.Number != 5 {
		t.Fatalf("enter on the second of agent-2's conversations opened %d (overlay %v), want 5", m.s.View.Number, m.overlay)
	}
	m = press(m, "w")
	if !strings.Contains(m.screen(), "filter: agent-2") {
		t.Errorf("the filter is gone on reopening the picker:\n%s", m.screen())
	}
	m = press(m, "esc")
	if l := listedConversations(m); m.overlay != pickerOverlay || len(l) == 0 || l[0] != "agent-1/1" || strings.Contains(m.screen(), "filter:") {
		t.Errorf("esc with a filter set: overlay %v, listed %v", m.overlay, l)
	}
	if m = press(m, "esc"); m.overlay != noOverlay {
		t.Errorf("a second esc did not close the picker")
	}
}

// A run id typed lists its conversation with that run (s05: one
// conversation of three runs), and enter opens the conversation at it.
func TestPickerFilterFindsARun(t *testing.T) {
	m := open(t, fileConfig("../testdata/s05-multi-turn/run.jsonl"), 120, 40)
	runs := m.s.Views.Convs[0].Runs
	if len(runs) != 3 {
		t.Fatalf("s05 has %d runs in its conversation", len(runs))
	}
	id := runs[2].Run.RunID
	m = press(m, "w", "/")
	for _, r := range "run " + id {
		m = press(m, string(r))
	}
	m = press(m, "enter", "right", "enter")
	if m.s.Call != 9 {
		t.Errorf("the third run opened at call %d, want 10 (s05: runs of 5, 4 and 5 calls)", m.s.Call+1)
	}
}

// Runs are selectable: → goes into the conversation's runs, ↓ steps
// them, enter opens the conversation at the run's first call (s05's
// README: 4+3+4 tool iterations, so runs of 5, 4 and 5 calls: run 2
// starts at call 6, run 3 at call 10); ← and esc come back out.
func TestPickerRunsAreSelectable(t *testing.T) {
	s05 := "../testdata/s05-multi-turn/run.jsonl"
	m := open(t, fileConfig(s05), 120, 40)
	m = press(m, "G", "w", "right", "down", "enter")
	if m.overlay != noOverlay || m.s.Call != 5 {
		t.Fatalf("run 2 opened at call %d (overlay %v), want 6", m.s.Call+1, m.overlay)
	}
	m = press(m, "w", "right", "G", "enter")
	if m.s.Call != 9 {
		t.Errorf("run 3 opened at call %d, want 10", m.s.Call+1)
	}
	m = press(m, "w", "right")
	if !strings.Contains(m.screen(), "▸ run ") {
		t.Fatalf("→ did not put the cursor on a run:\n%s", m.screen())
	}
	m = press(m, "left")
	if strings.Contains(m.screen(), "▸ run ") || !strings.Contains(m.screen(), "▸ conversation 1") {
		t.Errorf("← did not take the cursor back to the conversation:\n%s", m.screen())
	}
	m = press(m, "right", "esc")
	if m.overlay != pickerOverlay || strings.Contains(m.screen(), "▸ run ") {
		t.Errorf("esc inside the runs: overlay %v", m.overlay)
	}
}

// A key typed into the filter at 20,000 conversations over 20 agents,
// its frame drawn: "agent-7 conversation 1" typed a letter a key, from
// the first letter (which reads every conversation's and run's words)
// to the last, the patterns kept from one round cleared before the next.
func BenchmarkPickerFilterKey(b *testing.B) {
	m := manyConversations(b, 20000, 20)
	m = press(m, "w")
	typed := []rune("agent-7 conversation 1")
	b.ResetTimer()
	for i := range b.N {
		k := i % (len(typed) + 1)
		if k == 0 {
			b.StopTimer()
			if m.picker.Typing() {
				m = press(m, "esc") // the filter cleared
			}
			m = press(m, "/") // and typed again
			m.picker.ForgetPatterns()
			if m.overlay != pickerOverlay || !m.picker.Typing() {
				b.Fatalf("not typing a filter: overlay %v", m.overlay)
			}
			b.StartTimer()
			continue
		}
		m = press(m, string(typed[k-1]))
		_ = m.View()
	}
}
