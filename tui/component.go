package tui

import (
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/theme"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// component is one area of the screen: a tea.Model that is told its size
// and says which keys it answers.
type component interface {
	tea.Model
	SetSize(width, height int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

var (
	_ component = (*header)(nil)
	_ component = (*turnList)(nil)
	_ component = (*detailPane)(nil)
	_ component = (*policyBar)(nil)
	_ component = (*textPane)(nil)
	_ component = (*timeline)(nil)
	_ component = (*search)(nil)
	_ component = (*transcript)(nil)
)

// Border glyphs: a focused pane has a thick frame, so focus shows
// without colour too.
var (
	thinFrame  = [6]string{"╭", "╮", "╰", "╯", "─", "│"}
	thickFrame = [6]string{"┏", "┓", "┗", "┛", "━", "┃"}
)

// box frames body (already at most w-2 columns wide) in a w×h border
// with title set into the top edge.
func box(st *theme.Styles, title, body string, w, h int, focused bool) string {
	if w < 4 || h < 2 {
		return ""
	}
	f, bs := thinFrame, st.Border
	if focused {
		f, bs = thickFrame, st.BorderFocused
	}
	inner := w - 2
	title = fit(" "+title+" ", inner-1)
	top := bs.Render(f[0]+f[4]) + st.Title.Render(title) + bs.Render(strings.Repeat(f[4], max(0, inner-1-ansi.StringWidth(title)))+f[1])
	lines := strings.Split(body, "\n")
	out := make([]string, 0, h)
	out = append(out, top)
	side := bs.Render(f[5])
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, side+pad(l, inner)+side)
	}
	out = append(out, bs.Render(f[2]+strings.Repeat(f[4], inner)+f[3]))
	return strings.Join(out, "\n")
}

// fit truncates s to w columns, ending with … when it had to cut.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// cutBetweenWords is fit that cuts between words where it can: a number or a
// name cut in its middle ("recorded: 1,1…") reads as another one.
func cutBetweenWords(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	plain := ansi.Strip(s)
	col, space := 0, -1
	for _, r := range plain {
		rw := ansi.StringWidth(string(r))
		if col+rw > w-1 { // the ellipsis takes the last column
			break
		}
		if r == ' ' {
			space = col
		}
		col += rw
	}
	if space <= 0 {
		return fit(s, w)
	}
	return ansi.Truncate(s, space+1, "") + "…"
}

// pad truncates or right-pads s to exactly w columns.
func pad(s string, w int) string {
	s = fit(s, w)
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// lines cuts s to at most n lines of exactly w columns each.
func lines(s string, w, n int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	for i, l := range ls {
		ls[i] = pad(l, w)
	}
	for len(ls) < n {
		ls = append(ls, strings.Repeat(" ", w))
	}
	return strings.Join(ls, "\n")
}

// flow lays out segments left to right, separated by sep, starting a new
// line when the next one would not fit in w columns.
func flow(segs []string, sep string, w int) []string {
	var out []string
	cur := ""
	for _, s := range segs {
		switch {
		case cur == "":
			cur = s
		case ansi.StringWidth(cur)+ansi.StringWidth(sep)+ansi.StringWidth(s) <= w:
			cur += sep + s
		default:
			out = append(out, fit(cur, w))
			cur = s
		}
	}
	if cur != "" {
		out = append(out, fit(cur, w))
	}
	return out
}

// thousands writes n with comma separators, as the library's sizes read.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// oneLine folds whitespace runs (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// plural is "1 msg", "2 msgs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
