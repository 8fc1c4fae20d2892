package present

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// The evidence lifetime strip (docs/rules/evidence.md §5): for one
// message that can ground a value — a tool result, the user's text — one
// cell per call of the conversation: in view, pinned, evicted by that
// call's visit, out of view, or used while out of view (that call's
// response has a value whose verdict is `left the window` with this
// message among its sources). The moment the evidence left and the
// moments it was used are one glance apart. The uses come from the
// judgement of every call (judgeCmd); the cells from the replay.

// stripLegend names the cells.
const StripLegend = "▮ in view  ▣ pinned  ╳ evicted  · out of view  ▲ used while out of view  ^ this call"

// stripCell is m's cell at call i: used while out of view wins over
// evicted (the call that evicted it can be the one that used it).
func stripCell(st *theme.Styles, c *window.CallReplay, m *model.Message, used bool) string {
	switch {
	case used:
		return st.Evicted.Render("▲")
	case slices.Contains(c.Visit.Evicted, m):
		return st.Evicted.Render("╳")
	case pinnedAt(c, m):
		return st.Pinned.Render("▣")
	case slices.Contains(c.Window(), m):
		return st.Match.Render("▮")
	}
	return st.Dim.Render("·")
}

// stripSpan is the calls shown in room cells: all of them, or a stretch
// around the call on screen.
func stripSpan(n, cur, room int) (from, to int) {
	room = max(1, room)
	if n <= room {
		return 0, n
	}
	from = max(0, min(cur-room/2, n-room))
	return from, from + room
}

// Strip is what a lifetime strip is drawn from: the replay's calls, the
// call on screen, and which calls used a message while it was out of
// view (Used; known false while that is still being judged).
type Strip struct {
	Calls []window.CallReplay
	Call  int
	Used  func(*model.Message) (calls []int, known bool)
}

// LifetimeLines is m's strip, label before the cells, then the caret
// under the call on screen followed by what the strip says in words, at
// most w columns.
func LifetimeLines(sp Strip, st *theme.Styles, m *model.Message, label string, w int) []string {
	label = termtext.Line(label)
	lw := min(termtext.Width(label), max(0, w/3))
	label = Pad(Fit(label, lw), lw) + " "
	used, known := sp.Used(m)
	n, room, shift := len(sp.Calls), w-lw-1, 0
	if n > room { // a stretch around the call on screen, … where calls are left out
		room, shift = room-2, 1
	}
	from, to := stripSpan(n, sp.Call, room)
	edge := func(cut bool) string {
		if cut {
			return st.Dim.Render("…")
		}
		return " "
	}
	var cells strings.Builder
	if shift > 0 {
		cells.WriteString(edge(from > 0))
	}
	for i := from; i < to; i++ {
		c := &sp.Calls[i]
		cells.WriteString(stripCell(st, c, m, slices.Contains(used, i)))
	}
	if shift > 0 {
		cells.WriteString(edge(to < n))
	}
	// when it left the lines above say (the lifeline, the source)
	words := "never used out of view"
	switch {
	case !known:
		words = "still judging which calls used it…"
	case len(used) > 0:
		words = "used out of view at " + callList(used)
	}
	out := []string{st.Label.Render(label) + cells.String()}
	caret := strings.Repeat(" ", lw+1+shift+sp.Call-from) + fmt.Sprintf("^ call %d", sp.Call+1)
	if line := caret + " · " + words; termtext.Width(line) <= w {
		return append(out, st.Dim.Render(line))
	}
	return append(append(out, st.Dim.Render(Fit(caret, w))), WrapLines(words, st.Dim, w)...)
}

// callList is 1-based call numbers, "call 7" or "calls 7, 8, 13".
func callList(calls []int) string {
	ns := make([]string, len(calls))
	for i, c := range calls {
		ns[i] = strconv.Itoa(c + 1)
	}
	if len(ns) == 1 {
		return "call " + ns[0]
	}
	return "calls " + strings.Join(ns, ", ")
}

// SourceMessages are the messages of a turn whose text can ground a
// value and have a strip: its tool results.
func SourceMessages(msgs []*model.Message) []*model.Message {
	var out []*model.Message
	for _, m := range msgs {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// ToolStrips is the lifetime strip of each tool result of a turn (at
// most maxStrips), with the legend once when legend is set (the pane
// has the room).
func ToolStrips(sp Strip, st *theme.Styles, msgs []*model.Message, w int, legend bool) []string {
	const maxStrips = 3
	srcs := SourceMessages(msgs)
	if len(srcs) == 0 || len(sp.Calls) == 0 {
		return nil
	}
	var out []string
	for i, m := range srcs {
		if i == maxStrips {
			out = append(out, st.Dim.Render(fmt.Sprintf("(%d more results: o opens the turn)", len(srcs)-maxStrips)))
			break
		}
		label := m.ToolName
		if sameTool(srcs, m) {
			label += " " + m.ToolCallID
		}
		out = append(out, LifetimeLines(sp, st, m, label, w)...)
	}
	if legend {
		out = append(out, WrapLines(StripLegend, st.Dim, w)...)
	}
	return out
}

// pinnedAt reports whether m's turn was held as a tool's latest result at
// call c's visit.
func pinnedAt(c *window.CallReplay, m *model.Message) bool {
	v := &c.Visit
	mi := slices.Index(v.Before, m)
	if mi < 0 || !v.Engaged || !slices.Contains(v.After, m) {
		return false
	}
	for _, t := range v.Turns() {
		if mi >= t.Start && mi < t.Start+t.Length {
			return t.PinTool != ""
		}
	}
	return false
}

// sameTool reports whether another of srcs is a result of m's tool, so
// that the tool's name alone does not tell them apart.
func sameTool(srcs []*model.Message, m *model.Message) bool {
	for _, o := range srcs {
		if o != m && o.ToolName == m.ToolName {
			return true
		}
	}
	return false
}
