package cli

import (
	"bytes"
	"io"
	"testing"
	"text/tabwriter"
)

// writeTable must lay out every table as text/tabwriter (padding 2,
// spaces) does: the rows it aligns itself, and those it hands on.
func TestWriteTableIsTabwriter(t *testing.T) {
	for _, lines := range [][]string{
		{"CALL\tRUN\tAGENT\n", "1\t1\tagent-1\n", "10\t2\tägent-ß\n", "2\t\t-\n"},
		{"a\tb\n", "wide cell\t\n", "\t\n"},
		{"only\n", "lines\n"},
		{"a\tb\tc\n", "short\tline\n"},            // cells of unequal count: tabwriter's
		{"a\tb\n", "x\vy\tz\n"},                   // a vertical tab
		{"a\tb\n", "c\td"},                        // no line end at the end
		{"a\tb\n", "c\nd\te\n"},                   // a line end inside a line
		{"a\tb\n", "\x1b[31mdiffers\x1b[0m\tx\n"}, // colour counts as tabwriter counts it
	} {
		var want, got bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		for _, l := range lines {
			io.WriteString(tw, l)
		}
		tw.Flush()
		if err := writeTable(&got, lines); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%q:\ngot  %q\nwant %q", lines, got.String(), want.String())
		}
	}
}
