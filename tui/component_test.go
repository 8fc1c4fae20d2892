package tui

import (
	"testing"

	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/charmbracelet/x/ansi"
)

// The policy bar's status gives way to the rules at its end: it is cut
// between words, never inside the count it reports.
func TestStatusCutBetweenWordsNotInsideANumber(t *testing.T) {
	status := "≠ 13 turn(s) differ at this call · window 2,793 → 13,598 chars (recorded: 1,175 tok)  (r resets)"
	for _, c := range []struct {
		w    int
		want string
	}{
		{200, status},
		{68, "≠ 13 turn(s) differ at this call · window 2,793 → 13,598 chars …"},
		{80, "≠ 13 turn(s) differ at this call · window 2,793 → 13,598 chars (recorded: …"},
		{3, "≠ …"},
	} {
		got := present.CutBetweenWords(theme.DefaultStyles().Changed.Render(status), c.w)
		if ansi.Strip(got) != c.want || ansi.StringWidth(got) > c.w {
			t.Errorf("%d columns: %q (%d wide), want %q", c.w, ansi.Strip(got), ansi.StringWidth(got), c.want)
		}
	}
}
