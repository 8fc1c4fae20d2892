package cli

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// A table that fits a width: the columns that may wrap (the long prose
// ones: sources, what would have kept it) share what the others leave,
// each cell wrapped at word boundaries within its column; a row takes as
// many lines as its tallest cell. Wide, every column is as wide as its
// widest cell, one line a row.

// pipedWidth is the width a table fits when stdout is no terminal.
const pipedWidth = 120

// minWrap is the narrowest a wrapping column is made.
const minWrap = 14

// outputWidth is the width of the terminal w writes to, or pipedWidth
// when it is none.
func outputWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTerminal(w) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			return cols
		}
	}
	return pipedWidth
}

type fitTable struct {
	head []string
	rows [][]string
	wrap []bool // the columns that may wrap
}

const colGap = 2

// write prints t within width columns (0: as wide as it is); false,
// writing nothing, when its wrapping columns would be narrower than
// minWrap there.
func (t fitTable) write(w io.Writer, width int) (bool, error) {
	n := len(t.head)
	natural := make([]int, n)
	for _, r := range append([][]string{t.head}, t.rows...) {
		for k, c := range r {
			natural[k] = max(natural[k], ansi.StringWidth(c))
		}
	}
	widths, ok := t.fit(natural, width)
	if !ok {
		return false, nil
	}
	var b strings.Builder
	for _, r := range append([][]string{t.head}, t.rows...) {
		cells := make([][]string, n)
		lines := 1
		for k, c := range r {
			if t.wrap[k] && ansi.StringWidth(c) > widths[k] {
				cells[k] = strings.Split(ansi.Wrap(c, widths[k], ""), "\n")
			} else {
				cells[k] = []string{c}
			}
			lines = max(lines, len(cells[k]))
		}
		for l := 0; l < lines; l++ {
			var line strings.Builder
			for k := range r {
				c := ""
				if l < len(cells[k]) {
					c = cells[k][l]
				}
				line.WriteString(c)
				if k < n-1 {
					line.WriteString(strings.Repeat(" ", max(0, widths[k]-ansi.StringWidth(c))+colGap))
				}
			}
			b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return true, err
}

// fit is each column's width: natural when the table fits width (or
// width is 0); else the columns that do not wrap keep theirs and the
// wrapping ones share the rest in proportion to their natural widths,
// none below minWrap.
func (t fitTable) fit(natural []int, width int) ([]int, bool) {
	widths := append([]int(nil), natural...)
	total := colGap * (len(natural) - 1)
	fixed := total
	var wrapping []int
	for k, w := range natural {
		total += w
		if t.wrap[k] {
			wrapping = append(wrapping, k)
		} else {
			fixed += w
		}
	}
	if width <= 0 || total <= width {
		return widths, true
	}
	room := width - fixed
	if len(wrapping) == 0 || room < minWrap*len(wrapping) {
		return nil, false
	}
	// the narrowest first take what they need, the rest share the room
	slices.SortFunc(wrapping, func(a, b int) int { return natural[a] - natural[b] })
	for i, k := range wrapping {
		share := room / (len(wrapping) - i)
		widths[k] = min(natural[k], share)
		room -= widths[k]
	}
	return widths, true
}
