// Package present is the inspector's words and lines: why a turn has its
// fate, what a verdict says, the rules a log names, a message rendered
// and highlighted, a line fitted to a width. Each is a pure function of
// the replay, the policy and the style sheet it is given: it holds no
// state of the screen, answers no key and starts no work, so it imports
// neither bubbletea nor the session.
package present

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Lines cut and padded to a width, numbers and counts in words: the shapes
// every drawn line takes, pure functions of their text.

// Fit truncates s to w columns, ending with … when it had to cut.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// CutBetweenWords is fit that cuts between words where it can: a number or a
// name cut in its middle ("recorded: 1,1…") reads as another one.
func CutBetweenWords(s string, w int) string {
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
		return Fit(s, w)
	}
	return ansi.Truncate(s, space+1, "") + "…"
}

// Pad truncates or right-pads s to exactly w columns.
func Pad(s string, w int) string {
	s = Fit(s, w)
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// Lines cuts s to at most n lines of exactly w columns each.
func Lines(s string, w, n int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	for i, l := range ls {
		ls[i] = Pad(l, w)
	}
	for len(ls) < n {
		ls = append(ls, strings.Repeat(" ", w))
	}
	return strings.Join(ls, "\n")
}

// Flow lays out segments left to right, separated by sep, starting a new
// line when the next one would not fit in w columns.
func Flow(segs []string, sep string, w int) []string {
	var out []string
	cur := ""
	for _, s := range segs {
		switch {
		case cur == "":
			cur = s
		case ansi.StringWidth(cur)+ansi.StringWidth(sep)+ansi.StringWidth(s) <= w:
			cur += sep + s
		default:
			out = append(out, Fit(cur, w))
			cur = s
		}
	}
	if cur != "" {
		out = append(out, Fit(cur, w))
	}
	return out
}

// Thousands writes n with comma separators, as the library's sizes read.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// OneLine folds whitespace runs (newlines included) into single spaces.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Plural is "1 msg", "2 msgs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// WrapLines wraps plain s to w columns and styles each line on its own,
// so no style runs on past a line's end into the frame.
func WrapLines(s string, st lipgloss.Style, w int) []string {
	ls := strings.Split(ansi.Wrap(s, max(1, w), ""), "\n")
	for i, l := range ls {
		ls[i] = st.Render(l)
	}
	return ls
}

// MatchText says how much of a run or conversation the replay matches.
func MatchText(matched, compared int) string {
	switch {
	case compared < 0:
		return "…"
	case compared == 0:
		return "nothing recorded to compare"
	case matched == compared:
		return fmt.Sprintf("match %d/%d", matched, compared)
	}
	return fmt.Sprintf("differs: %d/%d match", matched, compared)
}

// Pick is a when short, else b.
func Pick(short bool, a, b string) string {
	if short {
		return a
	}
	return b
}

// ByteSize is n bytes for a person: 512 B, 3.1 MB, 1.0 GB.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ShortName keeps the last folder and the file name of a long path.
func ShortName(p string) string {
	dir := filepath.Base(filepath.Dir(p))
	if dir == "." || dir == string(filepath.Separator) {
		return filepath.Base(p)
	}
	return filepath.Join(dir, filepath.Base(p))
}

// RunPosition is the 1-based place of run among rec's runs (the runs of
// the conversation on screen).
func RunPosition(rec *model.Recording, run *model.Run) int {
	for i, r := range rec.Runs {
		if r == run {
			return i + 1
		}
	}
	return run.Index
}

func TurnChars(msgs []*model.Message) int {
	return model.WindowChars(msgs)
}

func Sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// TurnText is the first words of the first message that has any.
func TurnText(msgs []*model.Message) string {
	for _, m := range msgs {
		c := m.Content
		if len(c) > 400 { // a preview never needs more; keeps frames cheap
			cut := 400 // at a character's start, a lone surrogate kept whole
			for cut > 0 && c[cut]&0xC0 == 0x80 {
				cut--
			}
			c = c[:cut]
		}
		if c = OneLine(c); c != "" {
			return c
		}
	}
	return ""
}

// JoinColumns puts two blocks of equal height side by side.
func JoinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	out := make([]string, max(len(al), len(bl)))
	for i := range out {
		if i < len(al) {
			out[i] = al[i]
		}
		if i < len(bl) {
			out[i] += bl[i]
		}
	}
	return strings.Join(out, "\n")
}
