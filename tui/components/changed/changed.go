// Package changed draws what changed in the window since the previous
// call (u), and the line diff of two messages' texts that compare mode
// shares.
package changed

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// What changed since the previous call (u): the messages of the call's
// window that were not in the previous call's, those that were and are
// no longer, and those that stand for one message with other text (a
// compaction frame rewritten, a drop notice, an edited injection) as a
// line diff of the two texts. By content, as the diff of two runs
// compares windows (compare.WindowDiff): the agent's own answer and the
// results it asked for are what enter on an ordinary call.

// Text is the u overlay for the call on screen, w columns wide.
func Text(s *session.Session, st *theme.Styles, w int) string {
	c := s.Current()
	if c == nil {
		return ""
	}
	if s.Call == 0 {
		return st.Dim.Render(ansi.Wrap("the first call of the conversation: no call before it to compare with", w, ""))
	}
	prev := &s.Replay.Calls[s.Call-1]
	return windowChange(st, prev, c, w)
}

// windowChange says what changed from call a's window to call b's.
func windowChange(st *theme.Styles, a, b *window.CallReplay, w int) string {
	left, entered, edited := session.WindowDiff(a.Window(), b.Window())
	head := ansi.Wrap(fmt.Sprintf("call %d against call %d: %s entered, %s left, %s with other text · %d → %d chars",
		b.Call.Number, a.Call.Number, present.Plural(len(entered), "message"), present.Plural(len(left), "message"), present.Plural(len(edited), "message"),
		a.WindowChars(), b.WindowChars()), w, "")
	return head + "\n\n" + MessagesDiff(st, DiffSides{
		Gone: "left", Come: "entered", A: fmt.Sprintf("call %d", a.Call.Number), B: fmt.Sprintf("call %d", b.Call.Number),
	}, left, entered, edited, w)
}

// DiffSides name the two windows a MessagesDiff compares: the heading of
// the messages only the first has (gone) and only the second (come), and
// each window's label in a text diff.
type DiffSides struct{ Gone, Come, A, B string }

// MessagesDiff lists the messages only one window has, then each one
// the two have with other text as a line diff (go-udiff) of its texts.
func MessagesDiff(st *theme.Styles, n DiffSides, aOnly, bOnly []*model.Message, edited [][2]*model.Message, w int) string {
	var out strings.Builder
	line := func(mark string, style func(...string) string, m *model.Message) {
		out.WriteString(ansi.Truncate(style(mark)+" "+changedLine(m), w, "…") + "\n")
	}
	if len(bOnly) > 0 {
		out.WriteString(st.Title.Render(n.Come) + "\n")
		for _, m := range bOnly {
			line("+", st.New.Render, m)
		}
		out.WriteString("\n")
	}
	if len(aOnly) > 0 {
		out.WriteString(st.Title.Render(n.Gone) + "\n")
		for _, m := range aOnly {
			line("-", st.Evicted.Render, m)
		}
		out.WriteString("\n")
	}
	for _, e := range edited {
		out.WriteString(st.Title.Render("other text: "+termtext.Line(changedWho(e[1]))) + "\n")
		d := udiff.Unified(n.A, n.B, e[0].Content+"\n", e[1].Content+"\n")
		for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
			s := termtext.Line(l)
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
				s = st.Dim.Render(s)
			case strings.HasPrefix(l, "+"):
				s = st.New.Render(s)
			case strings.HasPrefix(l, "-"):
				s = st.Evicted.Render(s)
			}
			out.WriteString(ansi.Wrap(s, w, "") + "\n")
		}
		out.WriteString("\n")
	}
	if len(aOnly)+len(bOnly)+len(edited) == 0 {
		out.WriteString(st.Dim.Render("the two windows hold the same messages") + "\n")
	}
	return strings.TrimRight(out.String(), "\n")
}

// changedWho names a message: a tool result by its tool and call id, a
// notice, a frame, else its role.
func changedWho(m *model.Message) string {
	switch {
	case m.Role == model.RoleTool:
		return m.ToolName + " " + m.ToolCallID
	case m.IsNotice():
		return "drop notice"
	case m.IsFrame():
		return "compaction frame"
	case m.IsCorrection():
		return "library correction"
	case m.Role == model.RoleAssistant && len(m.ToolCalls) > 0:
		var names []string
		for _, t := range m.ToolCalls {
			names = append(names, t.Name)
		}
		return "assistant → " + strings.Join(names, ",")
	}
	return m.Role
}

// changedLine is one message in a line: who, its size, its first words.
func changedLine(m *model.Message) string {
	return termtext.Line(fmt.Sprintf("%s · %d chars · %s", changedWho(m), m.Chars(), present.OneLine(present.TurnText([]*model.Message{m}))))
}
