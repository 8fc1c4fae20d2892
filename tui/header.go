package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// headerHeight is the header's fixed number of lines.
const headerHeight = 2

// header is the two lines on top: where you are in the recording, what
// the model was sent, under which policy, and whether the replay agrees
// with what the library recorded.
type header struct {
	s     *session
	st    *Styles
	keys  KeyMap
	name  string
	width int
	// loading is the spinner frame while the recording loads, "" after.
	loading string
	// stream is what is known of a recording still being read, nil after.
	stream *streaming
	err    error
	// note is what the root says about the file on disk (following, or
	// grown since it was read); "" for nothing.
	note string
}

func newHeader(st *Styles, keys KeyMap, name string) *header {
	return &header{st: st, keys: keys, name: name}
}

func (h *header) Init() tea.Cmd                       { return nil }
func (h *header) Update(tea.Msg) (tea.Model, tea.Cmd) { return h, nil }
func (h *header) SetSize(w, _ int)                    { h.width = max(0, w) }
func (h *header) ShortHelp() []key.Binding            { return []key.Binding{h.keys.Problems} }
func (h *header) FullHelp() [][]key.Binding           { return [][]key.Binding{h.ShortHelp()} }

func (h *header) View() string {
	name := termtext.Line(h.name)
	title := h.st.Title.Render("inspect") + " " + h.st.Value.Render(name)
	switch {
	case h.err != nil:
		return lines(title+"  "+h.st.Error.Render("could not open: "+termtext.Line(h.err.Error())), h.width, headerHeight)
	case h.loading != "" && h.stream != nil:
		return lines(title+"  "+h.loading+"\n"+h.stream.line(h.st), h.width, headerHeight)
	case h.loading != "":
		return lines(title+"  "+h.loading+" loading and replaying…", h.width, headerHeight)
	}
	c := h.s.current()
	if c == nil {
		return lines(title+"  "+h.st.Dim.Render("no model calls in this recording"), h.width, headerHeight)
	}
	line1 := joinFlow(append([]string{title}, h.where(c, "iteration", -1)...), "   ", h.width)
	if ansi.StringWidth(line1) >= h.width {
		line1 = h.narrow(c, name)
	}
	how := h.how(c, true, false)
	if ansi.StringWidth(strings.Join(how, "   ")) > h.width {
		how = h.how(c, false, false)
	}
	if ansi.StringWidth(strings.Join(how, "   ")) > h.width {
		how = h.how(c, false, true)
	}
	line2 := joinFlow(how, "   ", h.width)
	if h.stream != nil {
		line2 = fit(h.stream.line(h.st), h.width)
	}
	return lines(line1+"\n"+line2, h.width, headerHeight)
}

// narrow is the first line when it does not fit: without the program's
// name, shortened; the file name gives way first, then the window's
// size and the conversation's label, never the call counter.
func (h *header) narrow(c *window.CallReplay, name string) string {
	segs := h.where(c, "iter", -1)
	// up to the call counter: what must fit beside 8 columns of the name
	upToCall := ansi.StringWidth("  " + segs[0] + "  " + segs[1])
	if over := upToCall + 8 + 2 - h.width; over > 0 { // 2: the ellipsis that cuts the size
		if lw := termtext.Width(h.s.views.label(-1)); lw > 0 {
			segs = h.where(c, "iter", max(0, lw-over))
		}
	}
	rest := "  " + strings.Join(segs, "  ")
	room := max(8, h.width-ansi.StringWidth(rest))
	return fit(h.st.Value.Render(fitLeft(shortName(name), room))+rest, h.width)
}

// where: the run, the call, the iteration, and the window's size; the
// conversation's label cut to labelMax columns (-1: whole).
func (h *header) where(c *window.CallReplay, iteration string, labelMax int) []string {
	l, v := h.st.Label.Render, h.st.Value.Render
	w := c.Window()
	size := l("window ") + v(fmt.Sprintf("%s, %s chars", plural(len(w), "msg"), thousands(model.WindowChars(w))))
	if c.Run.Composition && c.Call.Recorded == nil { // §15.5: nothing replays it
		size = l("a composition's own call, ") + h.st.Unknown.Render("its window not in the log")
	}
	switch {
	case c.Call.Ended && c.Recorded() == window.Differs:
		// the provider counted what the library sent, not this window
		size += l(", the library sent ") + v(thousands(c.Call.Usage.Input)) + l(" tok")
	case c.Call.Ended:
		// the provider's count of what was sent
		size += l(", ") + v(thousands(c.Call.Usage.Input)) + l(" tok")
	case h.s.rec.Tier == model.TierMinimal:
		size += l(", ") + h.st.Unknown.Render("tokens not in the log") // §16.3: no llm_end at all
	default:
		size += l(", ") + h.st.Unknown.Render("no reply yet") // no llm_end
	}
	run := l("run ") + v(fmt.Sprintf("%d/%d", runPosition(h.s.rec, c.Run), len(h.s.rec.Runs)))
	if label := h.s.views.label(labelMax); label != "" {
		run = v(label) + l(" (w) · ") + run // which agent and conversation
	}
	switch {
	case h.s.views != nil && h.s.views.paused[c.Run]:
		run += " " + h.st.Unknown.Render("paused, resumed later") // a resume() continues it
	case !c.Run.Complete:
		run += " " + h.st.Unknown.Render("unfinished") // no turn_end yet
	}
	return []string{
		run,
		l("call ") + v(fmt.Sprintf("%d/%d", c.Index+1, h.s.calls())) + l(fmt.Sprintf(" (%s %d)", iteration, c.Call.Iteration)),
		size,
	}
}

// how: the policy in force, the replay against the record, problems and
// this call's flagged values. Long says how many recorded windows the
// inferred policy reproduces; narrow puts the flagged values before the
// problems, which stay one key (!) away.
func (h *header) how(c *window.CallReplay, long, narrow bool) []string {
	l := h.st.Label.Render
	pol := l("policy ") + h.st.Value.Render("recorded")
	if a := h.s.agent; a.Inferred {
		pol += l(" (inferred")
		if a.Compared > 0 && long {
			pol += l(fmt.Sprintf(": reproduces %d/%d recorded windows", a.Matched, a.Compared))
		}
		pol += l(")")
	}
	if h.s.changed() {
		pol = l("policy ") + h.st.Changed.Render("changed by you")
	}
	var rec string
	switch c.Recorded() {
	case window.Match:
		rec = h.st.Match.Render("match")
	case window.Differs:
		rec = h.st.Differs.Render("differs") + l(" (W)")
	default:
		rec = h.st.Unknown.Render("unknown")
	}
	if h.s.replaying {
		rec = h.st.Unknown.Render("replaying…") // what is on screen is the replay before the knob moved
	}
	probs := h.s.problemCount // the study's: report's and export's count
	ps := l("problems ") + h.st.Value.Render(fmt.Sprint(probs))
	if probs > 0 {
		ps = l("problems ") + h.st.Error.Render(fmt.Sprint(probs))
	}
	if n := len(h.s.replay.Problems); n > 0 && h.s.moved() { // the settled policies' are counted above
		ps += l(" · replay ") + h.st.Error.Render(fmt.Sprint(n))
	}
	out := []string{pol, l("replay vs recorded: ") + rec}
	if h.note != "" {
		out = append([]string{h.note}, out...) // first: it asks for a key
	}
	e := evidenceCount(h.s, h.st)
	switch {
	case e == "":
		return append(out, ps+l(" (! list)"))
	case narrow:
		return append(out, e, ps)
	}
	return append(out, ps+l(" (! list)"), e)
}

// shortName keeps the last folder and the file name of a long path.
func shortName(p string) string {
	return filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p))
}

// fitLeft cuts s to w columns from the left, keeping its end.
func fitLeft(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-w+1, "")
}

// joinFlow joins segments on one line, cut to w.
func joinFlow(segs []string, sep string, w int) string {
	return fit(strings.Join(segs, sep), w)
}

// runPosition is the 1-based place of run among rec's runs (the runs of
// the conversation on screen).
func runPosition(rec *model.Recording, run *model.Run) int {
	for i, r := range rec.Runs {
		if r == run {
			return i + 1
		}
	}
	return run.Index
}
