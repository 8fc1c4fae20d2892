package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/present"
)

// A lone surrogate in the prompt and in a tool result (what JavaScript's
// slice leaves of a cut emoji) is shown as its mark, every view stays
// safe.
func TestLoneSurrogateIsShownAsItsMark(t *testing.T) {
	b, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "Find out why", `Find \ud83d out why`)
	s = strings.ReplaceAll(s, "search_docs#1 q=", `search_docs#1 \ude00q=`)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	m := open(t, fileConfig(path), 120, 40)
	if m.s == nil {
		t.Fatalf("did not load: %v", m.err)
	}
	seen := ""
	for call := 0; call < m.s.Calls(); call++ {
		for turn := 0; turn < len(listRows(m)); turn++ {
			safeView(t, "call "+itoa(call+1)+" turn "+itoa(turn+1), m.View(), 120)
			seen += m.View() + m.detail.VP.View()
			m = press(m, "down")
		}
		m = press(m, "right")
	}
	for _, mark := range []string{"<U+D83D>", "<U+DE00>"} {
		if !strings.Contains(seen, mark) {
			t.Errorf("%s is not shown", mark)
		}
	}
}

// A turn's preview is cut at 400 bytes at a character's start: a lone
// surrogate is kept whole (it was dropped as bytes that are not UTF-8).
func TestLoneSurrogateStaysInATurnPreview(t *testing.T) {
	sur := "\xed\xb8\x80" // "\ude00"
	long := strings.Repeat("a ", 300)
	for _, c := range []struct{ in, want string }{
		{"search_docs#1 " + sur + "q=" + long, "search_docs#1 " + sur + "q="},
		{strings.Repeat("a", 399) + sur + long, strings.Repeat("a", 399)},
		{strings.Repeat("a", 397) + sur + long, strings.Repeat("a", 397) + sur},
	} {
		got := present.TurnText([]*model.Message{{Role: model.RoleTool, Content: c.in}})
		if !strings.HasPrefix(got, c.want) || len(got) > 400 || strings.Count(got, "\xed") != strings.Count(c.want, "\xed") {
			t.Errorf("turnText = %.40q…, want it to start %.40q and keep the surrogate whole", got, c.want)
		}
	}
}
