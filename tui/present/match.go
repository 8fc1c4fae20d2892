package present

import (
	"strings"
	"unicode"

	"github.com/afinspect/inspect/model"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// A query matched as the search (/) matches it.

// Matcher is smart case: a query with no capital letter ignores case.
type Matcher struct {
	q    string
	fold bool
}

func NewMatcher(q string) Matcher {
	fold := !strings.ContainsFunc(q, unicode.IsUpper)
	if fold {
		q = strings.ToLower(q)
	}
	return Matcher{q: q, fold: fold}
}

// Count is how many messages of run r hold the query: its request and
// what each of its calls added.
func (m Matcher) Count(r *model.Run) int {
	n := 0
	if r.RequestMessage != nil && m.Where(r.RequestMessage) != "" {
		n++
	}
	for _, c := range r.Calls {
		for _, msg := range c.Appended {
			if m.Where(msg) != "" {
				n++
			}
		}
	}
	return n
}

func (m Matcher) In(s string) bool {
	if m.q == "" {
		return false
	}
	if m.fold {
		return ContainsFold(s, m.q)
	}
	return strings.Contains(s, m.q)
}

// ContainsFold is strings.Contains(strings.ToLower(s), q) without
// lowering the whole of a large s when it is plain ASCII.
func ContainsFold(s, q string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	for i := 0; i+len(q) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(q)], q) {
			return true
		}
	}
	return false
}

// Where says in which part of msg the query is, "" when it is not.
func (m Matcher) Where(msg *model.Message) string {
	switch {
	case msg.Role == model.RoleTool && (m.In(msg.Content) || m.In(msg.ToolName)):
		if msg.ToolName == "" { // a result the history names only by its toolCallId
			return "in a tool result"
		}
		return "in the " + msg.ToolName + " result"
	case msg.IsNotice() && m.In(msg.Content):
		return "in a drop notice"
	case msg.IsCorrection() && m.In(msg.Content):
		return "in the library's correction"
	case m.In(msg.Content):
		return "in " + msg.Role + " text"
	}
	for _, tc := range msg.ToolCalls {
		if m.In(tc.Name) || m.In(string(tc.Args)) {
			return "in the " + tc.Name + " call's arguments"
		}
	}
	return ""
}

// Mark styles each occurrence of the query in plain. Without colour
// (NO_COLOR, or a terminal without it) the hit is set between » and «,
// so it shows without a style.
func (m Matcher) Mark(plain string, hit lipgloss.Style) string {
	render := hit.Render
	if lipgloss.ColorProfile() == termenv.Ascii {
		render = func(s ...string) string { return "»" + strings.Join(s, "") + "«" }
	}
	hay := plain
	if m.fold {
		hay = strings.ToLower(plain)
		if len(hay) != len(plain) { // lowering changed the bytes: mark nothing
			return plain
		}
	}
	var b strings.Builder
	for {
		i := strings.Index(hay, m.q)
		if i < 0 {
			b.WriteString(plain)
			return b.String()
		}
		b.WriteString(plain[:i])
		b.WriteString(render(plain[i : i+len(m.q)]))
		plain, hay = plain[i+len(m.q):], hay[i+len(m.q):]
	}
}
