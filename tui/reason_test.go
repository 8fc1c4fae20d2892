package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// TestReasons checks the sentence of one turn per case against what the
// recording shows at that call (wire.json numbering, from 1).
func TestReasons(t *testing.T) {
	cases := []struct {
		file string
		call int
		fate window.Fate
		want string
	}{
		{"s01-basic-loop", 5, window.FatePinned, "pinned: latest search_docs result, 1 of 2 slots"},
		{"s01-basic-loop", 5, window.FateEvicted, "evicted here: older than the 2 recent turns, not pinned (a newer read_file result holds that pin); dropped without a notice"},
		{"s01-basic-loop", 6, window.FatePinned, "pinned: latest read_file result, 1 of 2 slots"},
		{"s01-basic-loop", 6, window.FateNotice, "in place of the 2 messages that left"},
		{"s01-basic-loop", 6, window.FateGone, "gone: left at call 5"},
		{"s01-basic-loop", 9, window.FateKept, "kept: it could leave, but a refused turn ended the drop span before it"},
		{"s01-basic-loop", 5, window.FateRecent, "recent: inside the 2 recent turns (keepRecentTurns=2; the library's record: inside-keep-window)"},
		{"s01-basic-loop", 1, window.FateAnchor, "anchor: the current request; no window strategy may drop it"},
		{"s02-pins-off", 4, window.FateEvicted, "not pinned (pins are off); a drop notice took the place of the 2 messages"},
		{"s05-multi-turn", 6, window.FateNotice, "in place of the 7 messages that left"},
		{"s06-tiny-results", 9, window.FateKept, "kept: replacement-not-smaller"},
		{"s09-token-budget", 3, window.FateKept, "not above thresholdTokens=3000, so token-budget did not engage"},
		{"s09-token-budget", 6, window.FateEvicted, "input tokens, above thresholdTokens=3000"},
		{"demo-incident", 8, window.FateEvicted, "its list_hosts pin yielded to newer ones"},
	}
	for _, c := range cases {
		m := open(t, fileConfig("../testdata/"+c.file+"/run.jsonl"), 120, 40)
		m.goTo(c.call - 1)
		var got []string
		for _, r := range m.s.Rows.Rows() {
			if r.Fate == c.fate {
				got = append(got, present.TurnReason(r, m.s.Current(), m.s.Policy))
			}
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s call %d, %s: want %q in\n%s", c.file, c.call, c.fate, c.want, strings.Join(got, "\n"))
		}
	}
}

func TestMouseWheelScrollsDetail(t *testing.T) {
	m := open(t, fileConfig("../testdata/demo-incident/run.jsonl"), 120, 40)
	m = press(m, ":", "3", "enter", "k") // the list_hosts turn: 5,946 chars of JSON
	before := m.detail.VP.YOffset
	m = send(m, tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if m.detail.VP.YOffset <= before {
		t.Errorf("the wheel did not scroll the detail: offset %d → %d", before, m.detail.VP.YOffset)
	}
}
