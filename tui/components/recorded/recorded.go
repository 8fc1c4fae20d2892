// Package recorded draws the recorded window beside the replay (W).
package recorded

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// The recorded window beside the replay (W): where the replayed window of
// a call is not the one the library recorded for it, the two are shown
// side by side, message by message, the differing ones marked. The
// recorded window is the loader's (role and content, as the log states
// them; docs/rules/runs-and-conversations.md §10.6).

// Text is the W overlay for the call on screen, w columns wide.
func Text(s *session.Session, st *theme.Styles, w int) string {
	c := s.Current()
	if c == nil {
		return ""
	}
	var b strings.Builder
	switch c.Recorded() {
	case window.Unknown:
		if provenance.Unjudged(c) {
			return ansi.Wrap(st.Unknown.Render(present.UnknownWindow), w, "")
		}
		return st.Dim.Render("the log does not record the window of this call: nothing to compare")
	case window.Match:
		b.WriteString(ansi.Wrap(st.Match.Render("the replay sends exactly the window the library recorded for this call"), w, "") + "\n\n")
	default:
		b.WriteString(ansi.Wrap(st.Differs.Render("the replay's window differs from the one the library recorded for this call: the replay's messages are not what was sent"), w, "") + "\n\n")
	}
	replay, rec := c.Window(), c.Call.Recorded
	col := max(10, (w-5)/2)
	fmt.Fprintf(&b, "%s │ %s\n", present.Pad(st.Title.Render(fmt.Sprintf("replay · %s", present.Plural(len(replay), "msg"))), col),
		st.Title.Render(fmt.Sprintf("recorded · %s", present.Plural(len(rec), "msg"))))
	for _, p := range align(replay, rec) {
		left, right := "", ""
		if p[0] >= 0 {
			left = recordedLine(p[0], replay[p[0]], true)
		}
		if p[1] >= 0 {
			right = recordedLine(p[1], rec[p[1]], false)
		}
		mark, style := "│", st.Dim
		if p[0] < 0 || p[1] < 0 {
			mark, style = "≠", st.Differs
		}
		fmt.Fprintf(&b, "%s %s %s\n", present.Pad(style.Render(left), col), mark, style.Render(ansi.Truncate(right, col, "…")))
	}
	return b.String()
}

// recordedLine is a message as one line: its index, role, length, the
// tools it called (calls: a recorded message is its role and content
// only), and the start of its content.
func recordedLine(i int, m *model.Message, calls bool) string {
	text := termtext.Line(strings.Join(strings.Fields(m.Content), " "))
	for k := len(m.ToolCalls) - 1; calls && k >= 0; k-- {
		text = "→" + termtext.Line(m.ToolCalls[k].Name) + " " + text
	}
	return fmt.Sprintf("%2d %s (%s) %s", i, m.Role, present.Thousands(m.Chars()), text)
}

// align pairs the messages of two windows by their longest common
// subsequence (role and content): [i, j] for a message in both, [i, -1]
// for one only the replay sent, [-1, j] for one only the library sent.
func align(a, b []*model.Message) [][2]int {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if model.SameText(a[i], b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out [][2]int
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && model.SameText(a[i], b[j]):
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case j == m || i < n && lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, [2]int{i, -1})
			i++
		default:
			out = append(out, [2]int{-1, j})
			j++
		}
	}
	return out
}
