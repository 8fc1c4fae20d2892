package share

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"
)

// Table is a plain table the Markdown puts first (report's, one row a
// call): its cells are text, escaped here.
type Table struct {
	Head  []string
	Rows  [][]string
	Right []bool // the columns of numbers
}

// WriteMarkdown writes p as Markdown to paste into an issue: title, the
// facts, table, the flagged values, then each call's window in a
// collapsible block (the turns with their fates and reasons, each message
// by its start; the page of inspect share holds the full texts). Every
// string is escaped for where it lands: a table cell, a line of text, an
// HTML summary or a fenced block, so nothing of the recording becomes
// markup, a link or a table's column.
func WriteMarkdown(w io.Writer, p *Page, title string, t Table) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "### %s: %s\n\n", mdText(title), mdCode(p.Source))
	for _, f := range p.Facts {
		fmt.Fprintf(b, "- %s\n", mdText(f))
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(b, "- problem: %s\n", mdText(pr))
	}
	b.WriteString("\n")
	if len(t.Head) > 0 {
		row(b, t.Head)
		b.WriteString("|")
		for i := range t.Head {
			if i < len(t.Right) && t.Right[i] {
				b.WriteString("---:|")
			} else {
				b.WriteString("---|")
			}
		}
		b.WriteString("\n")
		for _, r := range t.Rows {
			row(b, r)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "#### Flagged values (%d)\n\n", len(p.Values))
	if len(p.Values) == 0 {
		b.WriteString("none: every number and identifier the answers typed was in view, typed by the user, or a library note.\n\n")
	} else {
		b.WriteString("| call | in | value | verdict | why | what would have kept it |\n|---:|---|---|---|---|---|\n")
		for _, v := range p.Values {
			fmt.Fprintf(b, "| %d | %s | %s | **%s** | %s | %s |\n", v.Call, mdText(v.In), mdCellCode(v.Typed), mdText(v.Verdict), mdText(v.Explanation), mdText(v.Keep))
		}
		b.WriteString("\n")
	}
	if len(p.Views) > 0 {
		b.WriteString("#### Windows\n\n")
	}
	for _, c := range p.Views {
		flagged := ""
		if len(c.Values) > 0 {
			flagged = fmt.Sprintf(" · %d flagged", len(c.Values))
		}
		fmt.Fprintf(b, "<details><summary>call %d · %s · recorded window: %s%s</summary>\n\n", c.Number, htmlText(c.Head), htmlText(c.Recorded), flagged)
		for _, f := range c.Facts {
			fmt.Fprintf(b, "- %s\n", mdText(f))
		}
		b.WriteString("\n")
		if c.NoWindow != "" {
			fmt.Fprintf(b, "%s\n\n", mdText(c.NoWindow))
		}
		if c.Gone > 0 {
			fmt.Fprintf(b, "%d earlier turn(s) left at calls before this one.\n\n", c.Gone)
		}
		for _, tu := range c.Turns {
			fmt.Fprintf(b, "**%s** %s\n\n", mdText(strings.ToUpper(tu.Fate)), mdText(tu.Reason))
			for _, m := range tu.Messages {
				head := mdText(m.Role)
				if m.Tool != "" {
					head += " " + mdCode(m.Tool)
				}
				for _, tc := range m.Calls {
					head += " → " + mdCode(strings.TrimSpace(tc.Name+" "+tc.ID))
				}
				fmt.Fprintf(b, "- %s · %d chars: %s\n", head, m.Chars, mdCode(m.Preview))
			}
			b.WriteString("\n")
		}
		b.WriteString("**RESPONSE**")
		if c.Response.Usage != "" {
			fmt.Fprintf(b, " %s", mdText(c.Response.Usage))
		}
		b.WriteString("\n\n")
		if c.Response.Content != "" {
			b.WriteString(mdFence(c.Response.Content))
		}
		for _, tc := range c.Response.Calls {
			fmt.Fprintf(b, "- → %s %s\n", mdCode(strings.TrimSpace(tc.Name+" "+tc.ID)), mdCode(tc.Args))
		}
		if c.Response.Outcome != "" {
			fmt.Fprintf(b, "\n%s\n", mdText(c.Response.Outcome))
		}
		for _, v := range c.Values {
			fmt.Fprintf(b, "- %s **%s**: %s\n", mdCode(v.Typed), mdText(v.Verdict), mdText(v.Explanation))
		}
		b.WriteString("\n</details>\n\n")
	}
	return b.Flush()
}

func row(b *bufio.Writer, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		fmt.Fprintf(b, " %s |", mdText(c))
	}
	b.WriteString("\n")
}

// mdText is s as plain Markdown text on one line: every ASCII punctuation
// character escaped with a backslash (CommonMark lets each be, and then
// none starts emphasis, a link, an HTML tag, an entity or a table's
// column), line breaks as spaces.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x80 && isPunct(byte(r)):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isPunct(c byte) bool { return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0 }

// mdCellCode is s as an inline code span in a table's cell: its pipes
// escaped, or the table would split the cell at them even inside a code
// span.
func mdCellCode(s string) string { return mdCode(strings.ReplaceAll(s, "|", `\|`)) }

// mdCode is s as an inline code span on one line: a run of backticks
// longer than any in s around it.
func mdCode(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
	if s == "" {
		return "` `"
	}
	tick := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		pad = " "
	}
	return tick + pad + s + pad + tick
}

// mdFence is s as a fenced code block: fenced by more backticks than any
// run in s, so nothing in it ends the block.
func mdFence(s string) string {
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return fence + "text\n" + s + fence + "\n\n"
}

// htmlText is s as the text of an HTML element on one line.
func htmlText(s string) string {
	return html.EscapeString(strings.NewReplacer("\n", " ", "\r", " ").Replace(s))
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
