package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/afinspect/inspect/compare"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// tableWidth is the terminal's width when w is one, else 120.
func tableWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTerminal(w) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 40 {
			return cols
		}
	}
	return 120
}

// writeDiffTable prints one row per pair, the pair where the runs part
// ways marked ">", then the totals; no line is wider than width.
func writeDiffTable(w io.Writer, pathA, pathB string, c *compare.Comparison, width int) error {
	fit := func(s string) string { return ansi.Truncate(s, width, "…") }
	for k, s := range []*study.Study{c.A.Study, c.B.Study} {
		path := []string{pathA, pathB}[k]
		lead := s.Lead()
		lib := libraryObject(s.Rec)
		fmt.Fprintln(w, fit(fmt.Sprintf("%s: %s · %s%s · rules %s (%s)", "AB"[k:k+1], termtext.Line(path),
			termtext.Line(lead.Policy.String()), guessWords(lead), lib.Rules, lib.Source)))
	}
	if !c.SameTask {
		fmt.Fprintln(w, fit("different tasks: "+taskWords(c)))
	}
	fmt.Fprintln(w)
	head := []string{"", "PAIR", "A", "B", "STATE", "A CHARS", "B CHARS", "A TOK", "B TOK", "A OUT", "B OUT", "WHAT DIFFERS"}
	rows := [][]string{head}
	for i := range c.Pairs {
		p := &c.Pairs[i]
		x, y := c.CallA(p), c.CallB(p)
		mark := ""
		if i == c.Parted {
			mark = ">"
		}
		rows = append(rows, []string{mark, strconv.Itoa(i + 1), callCell(x), callCell(y), p.State,
			charsCell(x), charsCell(y), tokCell(x), tokCell(y), outCell(x, p.OutA), outCell(y, p.OutB), termtext.Line(pairDiffers(c, p))})
	}
	widths := make([]int, len(head))
	for _, r := range rows {
		for k, cell := range r[:len(r)-1] {
			widths[k] = max(widths[k], termtext.Width(cell))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for k, cell := range r[:len(r)-1] {
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[k]-termtext.Width(cell)+2))
		}
		b.WriteString(r[len(r)-1])
		fmt.Fprintln(w, fit(strings.TrimRight(b.String(), " ")))
	}
	t := c.Totals
	fmt.Fprintln(w)
	fmt.Fprintln(w, fit(fmt.Sprintf("%d pairs: %d same, %d changed, %d A only, %d B only", len(c.Pairs), t.Same, t.Changed, t.AOnly, t.BOnly)))
	fmt.Fprintln(w, fit(fmt.Sprintf("tokens (recorded usage): A %d in + %d out over %d calls, B %d in + %d out over %d calls",
		c.A.InputTokens, c.A.OutputTokens, c.A.Calls, c.B.InputTokens, c.B.OutputTokens, c.B.Calls)))
	fmt.Fprintln(w, fit(fmt.Sprintf("answer values out of view: A %d, B %d", c.A.OutOfView, c.B.OutOfView)))
	switch {
	case c.Parted >= 0:
		p := &c.Pairs[c.Parted]
		fmt.Fprintln(w, fit(fmt.Sprintf("the runs part ways at pair %d (%s): %s", c.Parted+1, callsWords(c, p), termtext.Line(c.Why(p)))))
	case c.FirstChanged >= 0:
		p := &c.Pairs[c.FirstChanged]
		fmt.Fprintln(w, fit(fmt.Sprintf("the runs never part ways (the same requests, tool calls and answers); the first change is pair %d (%s)", c.FirstChanged+1, callsWords(c, p))))
	default:
		fmt.Fprintln(w, "the runs are the same call for call")
	}
	return nil
}

// taskWords says what the conversations without the same task asked.
func taskWords(c *compare.Comparison) string {
	var out []string
	for _, cv := range c.Convs {
		if cv.SameTask {
			continue
		}
		switch {
		case cv.ANumber == 0:
			out = append(out, fmt.Sprintf("B's conversation %d has no partner in A", cv.BNumber))
		case cv.BNumber == 0:
			out = append(out, fmt.Sprintf("A's conversation %d has no partner in B", cv.ANumber))
		default:
			out = append(out, fmt.Sprintf("conversation %d asks %q, B's %d %q", cv.ANumber, clip(cv.ARequest, 40), cv.BNumber, clip(cv.BRequest, 40)))
		}
	}
	return strings.Join(out, "; ")
}

func clip(s string, n int) string { return ansi.Truncate(termtext.Line(s), n, "…") }

func callsWords(c *compare.Comparison, p *compare.Pair) string {
	return "A " + callCell(c.CallA(p)) + ", B " + callCell(c.CallB(p))
}

func callCell(x *window.CallReplay) string {
	if x == nil {
		return "-"
	}
	return strconv.Itoa(x.Call.Number)
}

func charsCell(x *window.CallReplay) string {
	if x == nil {
		return "-"
	}
	return strconv.Itoa(x.WindowChars())
}

func tokCell(x *window.CallReplay) string {
	if x == nil || !x.Call.Ended || x.Recorded() == window.Differs {
		return "-"
	}
	return strconv.Itoa(x.Call.Usage.Input)
}

func outCell(x *window.CallReplay, n int) string {
	if x == nil {
		return "-"
	}
	return strconv.Itoa(n)
}

// pairDiffers says what differs in p, most telling first: how the runs part,
// the verdicts that changed, then the window's messages.
func pairDiffers(c *compare.Comparison, p *compare.Pair) string {
	var out []string
	if why := c.Why(p); why != "" && p.A >= 0 && p.B >= 0 {
		out = append(out, why)
	}
	var vs []string
	for _, v := range p.Values {
		if v.A == v.B || v.In != provenance.InAnswer || p.A < 0 || p.B < 0 {
			continue
		}
		switch {
		case v.A != "" && v.B != "":
			vs = append(vs, fmt.Sprintf("%s %s→%s", v.Value, v.A, v.B))
		case (compare.Value{Value: v.Value, In: v.In, Verdict: v.A + v.B}).OutOfView():
			vs = append(vs, fmt.Sprintf("%s %s (%s only)", v.Value, v.A+v.B, map[bool]string{true: "A", false: "B"}[v.A != ""]))
		}
	}
	if len(vs) > 0 {
		out = append(out, strings.Join(vs, ", "))
	}
	if p.Window {
		var ws []string
		if n := len(p.AOnly); n > 0 {
			ws = append(ws, fmt.Sprintf("%d A only", n))
		}
		if n := len(p.BOnly); n > 0 {
			ws = append(ws, fmt.Sprintf("%d B only", n))
		}
		if n := len(p.Edited); n > 0 {
			ws = append(ws, fmt.Sprintf("%d edited", n))
		}
		out = append(out, "window: "+strings.Join(ws, ", "))
	}
	if len(out) == 0 && p.Verdicts && p.A >= 0 && p.B >= 0 {
		out = append(out, "argument verdicts")
	}
	return strings.Join(out, " · ")
}
