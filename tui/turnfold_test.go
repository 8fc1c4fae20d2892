package tui

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/window"
)

// A fold of gone turns that all left at one call names that call once
// ("left@147"), not as a range of one ("left@147–147"); a fold over
// several calls names the range.
func TestFoldOfOneCallNamesItOnce(t *testing.T) {
	gone := func(at int) window.Row { return window.Row{Fate: window.FateGone, LeftAt: at} }
	l := newTurnList(DefaultStyles(), DefaultKeyMap())
	l.width = 60
	l.s = &session{rows: []window.Row{gone(146), gone(146), gone(146), gone(146), gone(147)}}
	if got := ansiFree(l.line(listItem{kind: foldItem, row: 0, n: 4}, false)); !strings.Contains(got, "4 turns left@147 ·") {
		t.Errorf("one call: %q", got)
	}
	if got := ansiFree(l.line(listItem{kind: foldItem, row: 1, n: 4}, false)); !strings.Contains(got, "4 turns left@147–148 ·") {
		t.Errorf("two calls: %q", got)
	}
}
