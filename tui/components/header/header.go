package header

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// Height is the header's fixed number of lines.
const Height = 2

// Header is the two lines on top: where you are in the recording, what
// the model was sent, under which policy, and whether the replay agrees
// with what the library recorded.
type Header struct {
	c     *common.Common
	name  string
	width int
	// loading is the spinner frame while the recording loads, "" after.
	loading string
	// stream is the line of a recording still being read, "" after.
	stream string
	err    error
	// note is what the root says about the file on disk (following, or
	// grown since it was read); "" for nothing.
	note string
}

// New is the header of the recording name, drawn from c.
func New(c *common.Common, name string) *Header { return &Header{c: c, name: name} }

// SetStatus tells the header what the root knows beyond the session:
// the spinner frame while the recording loads (""), the line of a
// recording still being read (""), and what is said of the file on disk
// ("").
func (h *Header) SetStatus(loading, stream, note string) {
	h.loading, h.stream, h.note = loading, stream, note
}

// Failed says the recording could not be opened, and why.
func (h *Header) Failed(err error) { h.err = err }

func (h *Header) Init() tea.Cmd                       { return nil }
func (h *Header) Update(tea.Msg) (tea.Model, tea.Cmd) { return h, nil }
func (h *Header) SetSize(w, _ int)                    { h.width = max(0, w) }
func (h *Header) ShortHelp() []key.Binding            { return []key.Binding{h.c.Keys.Problems} }
func (h *Header) FullHelp() [][]key.Binding           { return [][]key.Binding{h.ShortHelp()} }

func (h *Header) View() string {
	name := termtext.Line(h.name)
	title := h.c.Styles.Title.Render("inspect") + " " + h.c.Styles.Value.Render(name)
	switch {
	case h.err != nil:
		return present.Lines(title+"  "+h.c.Styles.Error.Render("could not open: "+termtext.Line(h.err.Error())), h.width, Height)
	case h.loading != "" && h.stream != "":
		return present.Lines(title+"  "+h.loading+"\n"+h.stream, h.width, Height)
	case h.loading != "":
		return present.Lines(title+"  "+h.loading+" loading and replaying…", h.width, Height)
	}
	c := h.c.Session.Current()
	if c == nil {
		return present.Lines(title+"  "+h.c.Styles.Dim.Render("no model calls in this recording"), h.width, Height)
	}
	line1 := h.line1(c, title, name)
	line2 := h.line2(c)
	if h.stream != "" {
		line2 = present.Fit(h.stream, h.width)
	}
	return present.Lines(line1+"\n"+line2, h.width, Height)
}

// nameRoom is the most columns the file's name takes when the header is
// narrow: room for a folder and a file name that tell the file apart.
const nameRoom = 24

// line1: where you are. Narrow, the program's name goes, then the rest
// is said shorter, step by step, until the file's name has the room to
// say which file it is (its folder and its name, cut from the left of
// the folder).
func (h *Header) line1(c *window.CallReplay, title, name string) string {
	line := joinFlow(append([]string{title}, h.where(c, 0)...), "   ", h.width)
	if ansi.StringWidth(line) < h.width {
		return line
	}
	want := min(nameRoom, ansi.StringWidth(present.ShortName(name)))
	var rest string
	for level := 1; level <= maxWhere; level++ {
		rest = "  " + strings.Join(h.where(c, level), "  ")
		if h.width-ansi.StringWidth(rest) >= want {
			break
		}
	}
	room := max(8, h.width-ansi.StringWidth(rest))
	return present.Fit(h.c.Styles.Value.Render(shortPath(name, room))+rest, h.width)
}

// maxWhere is where's shortest way of saying it.
const maxWhere = 4

// labelRoom is the most columns the conversation's label (its agent key,
// which the recording names and may make long) takes at each level of
// where: it gives way before the call counter does (-1: whole).
var labelRoom = [maxWhere + 1]int{-1, -1, -1, 48, 36}

// where: the run, the call, the iteration, and the window's size, said
// shorter at each level (0: in full).
func (h *Header) where(c *window.CallReplay, level int) []string {
	l, v := h.c.Styles.Label.Render, h.c.Styles.Value.Render
	w := c.Window()
	size := l("window ") + v(fmt.Sprintf("%s, %s chars", present.Plural(len(w), "msg"), present.Thousands(model.WindowChars(w))))
	switch {
	case level >= 3:
		size = v(present.Plural(len(w), "msg"))
	case level >= 2:
		size = v(fmt.Sprintf("%s, %s chars", present.Plural(len(w), "msg"), present.Thousands(model.WindowChars(w))))
	}
	if provenance.Unjudged(c) { // §15.5: nothing replays it
		size = l("a composition's own call, ") + h.c.Styles.Unknown.Render("its window not in the log")
		if level >= 2 {
			size = h.c.Styles.Unknown.Render("window not in the log")
		}
	}
	switch {
	case c.Call.Ended && c.Recorded() == window.Differs:
		// the provider counted what the library sent, not this window
		size += l(", the library sent ") + v(present.Thousands(c.Call.Usage.Input)) + l(" tok")
	case c.Call.Ended:
		// the provider's count of what was sent
		size += l(", ") + v(present.Thousands(c.Call.Usage.Input)) + l(" tok")
	case h.c.Session.Rec.Tier == model.TierMinimal:
		size += l(", ") + h.c.Styles.Unknown.Render("tokens not in the log") // §16.3: no llm_end at all
	case present.FailedCall(c):
		size += l(", ") + h.c.Styles.Error.Render("no reply: the call failed") // §14.1: error.fatal, no llm_end
	default:
		size += l(", ") + h.c.Styles.Unknown.Render("no reply yet") // no llm_end
	}
	run := l("run ") + v(fmt.Sprintf("%d/%d", present.RunPosition(h.c.Session.Rec, c.Run), len(h.c.Session.Rec.Runs)))
	if label := ViewsLabel(h.c.Session.Views, labelRoom[min(level, maxWhere)]); label != "" {
		run = v(label) + l(" (w) · ") + run // which agent and conversation
	}
	switch {
	case h.c.Session.Views != nil && h.c.Session.Views.Paused[c.Run]:
		run += " " + h.c.Styles.Unknown.Render("paused, resumed later") // a resume() continues it
	case c.Run.Failed:
		run += " " + h.c.Styles.Error.Render("failed") // error.fatal: it threw, or was aborted
	case !c.Run.Complete && !c.Run.Composition: // a composition's own calls have no turn_end
		run += " " + h.c.Styles.Unknown.Render("unfinished") // no turn_end yet
	}
	return []string{run, l("call ") + v(fmt.Sprintf("%d/%d", c.Index+1, h.c.Session.Calls())) + l(h.callNote(c, level)), size}
}

// callNote is what follows the call's number: its number in the file,
// when the file holds several conversations (report and evidence number
// the file's calls; ":f11" goes to one), and its iteration.
func (h *Header) callNote(c *window.CallReplay, level int) string {
	var parts []string
	if h.c.Session.FileNumbers() {
		parts = append(parts, present.Pick(level > 0, "f", "file call ")+strconv.Itoa(c.Call.Number))
	}
	if level < maxWhere {
		parts = append(parts, present.Pick(level > 0, "iter ", "iteration ")+strconv.Itoa(c.Call.Iteration))
	}
	if parts == nil {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// line2: the policy in force, the replay against the record, problems
// and this call's flagged values — the answer's, then the arguments',
// apart, each whole: the rest is said shorter, or goes, to make room
// for them.
func (h *Header) line2(c *window.CallReplay) string {
	ev := present.SideWords(h.c.Session.JudgedCounts(h.c.Session.Call), h.c.Styles)
	for level := range 4 {
		segs := h.how(c, level)
		switch {
		case len(ev) == 0:
		case level < 2: // the key that lists them, while there is room
			segs = append(append(segs, ev[:len(ev)-1]...), ev[len(ev)-1]+h.c.Styles.Label.Render(" (i)"))
		case level == 2:
			segs = append(segs, ev...)
		case h.note != "":
			// the note about the file first (it says the screen may not
			// be the file's), then the counts: what is cut is the rest
			segs = append(append([]string{segs[0]}, ev...), segs[1:]...)
		default:
			segs = append(ev, segs...) // the counts first: what is cut is the rest
		}
		if line := strings.Join(segs, "   "); level == 3 || ansi.StringWidth(line) <= h.width {
			return present.Fit(line, h.width)
		}
	}
	return ""
}

// how: the policy in force, the replay against the record and problems,
// said shorter at each level: level 0 says how many recorded windows the
// inferred policy reproduces; 1 does not; 2 says each in a word.
func (h *Header) how(c *window.CallReplay, level int) []string {
	l := h.c.Styles.Label.Render
	pol := l("policy ") + h.c.Styles.Value.Render("recorded")
	if a := h.c.Session.Agent; a.Inferred {
		pol += l(" (inferred")
		if a.Compared > 0 && level == 0 {
			pol += l(fmt.Sprintf(": reproduces %d/%d recorded windows", a.Matched, a.Compared))
		}
		pol += l(")")
		if level >= 2 {
			pol = l("policy ") + h.c.Styles.Value.Render("inferred")
		}
	} else if a.Compared > 0 && level == 0 {
		pol += l(fmt.Sprintf(" (reproduces %d/%d recorded windows)", a.Matched, a.Compared)) // read from the recording, and checked
	}
	if h.c.Session.Changed() {
		pol = l("policy ") + h.c.Styles.Changed.Render(present.Pick(level >= 2, "yours", "changed by you"))
	}
	if h.c.Session.Composition() {
		pol = l("policy ") + h.c.Styles.Value.Render("none") + l(present.Pick(level >= 2, "", " (a composition's own calls)"))
	}

	var rec string
	switch c.Recorded() {
	case window.Match:
		rec = h.c.Styles.Match.Render("match")
	case window.Differs:
		rec = h.c.Styles.Differs.Render("differs") + l(" (W)")
	default:
		rec = h.c.Styles.Unknown.Render("unknown")
	}
	if h.c.Session.Replaying {
		rec = h.c.Styles.Unknown.Render("replaying…") // what is on screen is the replay before the knob moved
	}
	rec = l(present.Pick(level >= 2, "replay: ", "replay vs recorded: ")) + rec
	probs := h.c.Session.ProblemCount // the study's: report's and export's count
	ps := l("problems ") + h.c.Styles.Value.Render(fmt.Sprint(probs))
	if probs > 0 {
		ps = l("problems ") + h.c.Styles.Error.Render(fmt.Sprint(probs))
	}
	if n := len(h.c.Session.Replay.Problems); n > 0 && h.c.Session.Moved() { // the settled policies' are counted above
		ps += l(" · replay ") + h.c.Styles.Error.Render(fmt.Sprint(n))
	}
	if level < 2 {
		ps += l(" (! list)")
	}
	out := []string{pol, rec, ps}
	if h.note != "" {
		out = append([]string{h.note}, out...) // first: it asks for a key
	}
	return out
}

// shortPath is p in w columns: its last folder and its name, the folder
// cut from the left when they do not fit ("…invented-value/run.jsonl"),
// so that the name stays whole while it can.
func shortPath(p string, w int) string {
	s := present.ShortName(p)
	if ansi.StringWidth(s) <= w {
		return s
	}
	base := filepath.Base(p)
	if dir := strings.TrimSuffix(s, base); dir != "" && ansi.StringWidth(base)+2 <= w {
		return fitLeft(dir, w-ansi.StringWidth(base)) + base
	}
	return fitLeft(base, w)
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
	return present.Fit(strings.Join(segs, sep), w)
}

// ViewsLabel names the conversation on screen for the header: its agent, the
// pass when its segment holds several (§15.2), and its number of the
// file's conversations ("" for a file of one) — or the composition whose
// own calls these are; the agent's key cut so the label takes at most w
// columns (-1: whole).
func ViewsLabel(vs *session.Views, w int) string {
	if vs == nil || len(vs.Convs) <= 1 && (len(vs.Convs) == 0 || !vs.Convs[0].Composition) {
		return ""
	}
	cv := vs.Convs[vs.Shown]
	num := fmt.Sprintf("%s · conversation %d/%d", vs.PassOf(cv), cv.Number, vs.Conversations())
	if cv.Composition {
		num = " " + present.CompositionWords(cv.Agent) + " · its own calls"
		if w < 0 || w > 60 {
			num += ", in no conversation"
		}
	}
	key := termtext.Line(cv.Agent.Key)
	if w >= 0 {
		key = present.Fit(key, max(2, w-termtext.Width(num)))
	}
	return key + num
}
