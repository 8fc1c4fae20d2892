package provenance

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// Produced says in a few words what a call's response was — the model's
// output on the call that produced it: the tool calls with their first
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
	s = clipChars(s, 32)
	if len(vs) > 1 {
		s += ", …"
	}
	return s
}

// clipChars is s cut to n characters, the last of them "…" when s is
// longer. A lone surrogate (model.DecodeRune) is one character and is
// never cut apart.
func clipChars(s string, n int) string {
	cut := 0 // where the n-1st character ends
	for i, k := 0, 0; i < len(s); k++ {
		if k == n {
			return s[:cut] + "…"
		}
		_, size := model.DecodeRune(s[i:])
		i += size
		if k == n-2 {
			cut = i
		}
	}
	return s
}
