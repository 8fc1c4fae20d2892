package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// hints are the short help's keys for a line w wide: all of them when
// the line reaches "? help" and "q quit" (the help model cuts what comes
// after), else without the keys just before them, the nearest first,
// until it does: on a narrow terminal the line still says how to ask
// for the rest.
func hints(h help.Model, all []key.Binding, helpKey, quit key.Binding, w int) []key.Binding {
	last := -1
	for i, b := range all {
		if same(b, helpKey) || same(b, quit) {
			last = i
		}
	}
	if last < 0 || w <= 0 {
		return all
	}
	h.Width = 0 // measured whole
	width := func(bs []key.Binding) int { return ansi.StringWidth(h.ShortHelpView(bs)) }
	head := append([]key.Binding{}, all[:last+1]...)
	for width(head) > w {
		drop := -1
		for i := len(head) - 1; i >= 0; i-- {
			if !same(head[i], helpKey) && !same(head[i], quit) {
				drop = i
				break
			}
		}
		if drop < 0 {
			break
		}
		head = append(head[:drop], head[drop+1:]...)
	}
	if len(head) == last+1 {
		return all
	}
	return append(head, all[last+1:]...)
}

// same reports whether two bindings are one entry (the same keys).
func same(a, b key.Binding) bool {
	ak, bk := a.Keys(), b.Keys()
	if len(ak) != len(bk) {
		return false
	}
	for i := range ak {
		if ak[i] != bk[i] {
			return false
		}
	}
	return a.Help() == b.Help()
}
