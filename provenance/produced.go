package provenance

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// Produced says in a few words what a call's response was (issue 9, "the
// model's output on its own call"): the tool calls with their first
// argument value (`→ get_metrics(web-9d4b27)`), else the answer's length
// in UTF-16 units (`answer 412 chars`), else "-". The report's PRODUCED
// column and the TUI's response row both say it so.
func Produced(c *model.Call) string {
	r := c.Facts.Response
	if len(r.ToolCalls) > 0 {
		parts := make([]string, len(r.ToolCalls))
		for i, tc := range r.ToolCalls {
			parts[i] = tc.Name + "(" + argsBrief(tc.Args) + ")"
		}
		return "→ " + strings.Join(parts, ", ")
	}
	if n := model.Len(r.Content); n > 0 {
		return fmt.Sprintf("answer %d chars", n)
	}
	return "-"
}

// argsBrief is the first value of a tool call's arguments, short, and
// "…" for the rest.
func argsBrief(args []byte) string {
	vs := evidence.ArgLeaves(args)
	if len(vs) == 0 {
		return ""
	}
	s := vs[0]
	if r := []rune(s); len(r) > 32 {
		s = string(r[:31]) + "…"
	}
	if len(vs) > 1 {
		s += ", …"
	}
	return s
}
