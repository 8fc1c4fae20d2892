package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// A real log holds several agents and conversations (WINDOW-SEMANTICS
// §10). The screen shows one conversation of one agent at a time (a
// study.View): its calls in order (stepping stays inside it), replayed
// under that agent's policy, which the knobs change. The picker (w)
// lists every agent, its conversations and their runs, with their calls
// and whether the replay under the recorded policies matches what the
// library sent.

// views is what the picker lists: the file's conversations, each run
// tallied under the agents' recorded policies (the study's), and the
// one on screen.
type views struct {
	all    *model.Recording     // the whole file
	convs  []study.Conversation // in conversation order
	shown  int                  // index in convs of the one on screen
	paused map[*model.Run]bool  // the runs a later resume() continues (§10.7)
}

// newViews lists st's conversations, v on screen.
func newViews(st *study.Study, v *study.View) *views {
	vs := &views{all: st.Rec, convs: st.Conversations(), paused: map[*model.Run]bool{}}
	for i, c := range vs.convs {
		if c.Number == v.Number {
			vs.shown = i
		}
		for _, r := range c.Runs {
			if r.Paused {
				vs.paused[r.Run] = true
			}
		}
	}
	return vs
}

// label names the conversation on screen for the header: its agent and
// its number of the file's conversations ("" for a file of one).
func (vs *views) label() string {
	if vs == nil || len(vs.convs) <= 1 {
		return ""
	}
	cv := vs.convs[vs.shown]
	return fmt.Sprintf("%s · conversation %d/%d", cv.Agent.Key, cv.Number, len(vs.convs))
}

// fileNumbers reports whether a call's number on screen, its place in
// the conversation, is not always its number in the file (a file of
// several conversations, or a composition's own calls besides).
func (s *session) fileNumbers() bool { return s.numbersDiffer }

// numbersDiffer reports whether some call of r is not numbered in the
// file as in r.
func numbersDiffer(r *window.Replay) bool {
	for i := range r.Calls {
		if r.Calls[i].Call.Number != i+1 {
			return true
		}
	}
	return false
}

// matchText says how much of a run or conversation the replay matches.
func matchText(matched, compared int) string {
	switch {
	case compared < 0:
		return "…"
	case compared == 0:
		return "nothing recorded to compare"
	case matched == compared:
		return fmt.Sprintf("match %d/%d", matched, compared)
	}
	return fmt.Sprintf("differs: %d/%d match", matched, compared)
}

// pickerText is the picker: agents, then their conversations, then their
// runs, each with how much of it the replay under the recorded policies
// reproduces; cursor is the conversation the cursor is on, mine what the
// knobs the user moved make of the one on screen ("" when none moved).
func pickerText(vs *views, st *Styles, cursor int, mine string) string {
	if vs == nil {
		return ""
	}
	var b strings.Builder
	var agent *model.Agent
	for i, cv := range vs.convs {
		if cv.Agent != agent {
			agent = cv.Agent
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.Title.Render("agent "+agent.Key) + st.Dim.Render(agentNote(agent)) + "\n")
		}
		mark := "  "
		if i == cursor {
			mark = "▸ "
		}
		line := fmt.Sprintf("%sconversation %d · %s · %s · %s", mark, cv.Number, plural(len(cv.Runs), "run"), plural(cv.Calls, "call"), matchText(cv.Matched, cv.Compared))
		if i == vs.shown {
			line += "  (on screen" + mine + ")"
		}
		if i == cursor {
			b.WriteString(st.Value.Render(line) + "\n")
		} else {
			b.WriteString(line + "\n")
		}
		for _, r := range cv.Runs {
			step := ""
			if r.Run.Step != "" {
				step = " " + r.Run.Step
			}
			b.WriteString(st.Dim.Render(fmt.Sprintf("      run %s%s · %s · %s", r.Run.RunID, step, plural(len(r.Run.Calls), "call"), matchText(r.Matched, r.Compared))) + "\n")
		}
	}
	return b.String()
}

func agentNote(a *model.Agent) string {
	if a.HasID {
		return " (agentId " + a.AgentID + ")"
	}
	return " (a step of " + strings.Join(a.Path, " / ") + ")"
}

// convColumnMin is the terminal width from which the file's conversations
// are listed in a left column beside the panes (when it holds several).
const (
	convColumnMin   = 170
	convColumnWidth = 34
)

// convColumn is the left column's width: 0 when it is not shown.
func (m Model) convColumn() int {
	if m.s == nil || m.s.views == nil || len(m.s.views.convs) <= 1 || m.width < convColumnMin {
		return 0
	}
	return convColumnWidth
}

// convColumnText lists the conversations compactly, the one on screen
// marked: its agent, its number, its calls and whether they match.
func convColumnText(vs *views, st *Styles, w int) string {
	var b strings.Builder
	var agent *model.Agent
	for i, cv := range vs.convs {
		if cv.Agent != agent {
			agent = cv.Agent
			b.WriteString(st.Title.Render(fit(agent.Key, w)) + "\n")
		}
		mark := "  "
		if i == vs.shown {
			mark = "▸ "
		}
		ok := "…"
		switch {
		case cv.Compared == 0:
			ok = "—"
		case cv.Compared > 0 && cv.Matched == cv.Compared:
			ok = "match"
		case cv.Compared > 0:
			ok = "differs"
		}
		line := fit(fmt.Sprintf("%sconv %d · %s · %s", mark, cv.Number, plural(cv.Calls, "call"), ok), w)
		if i == vs.shown {
			line = st.Value.Render(line)
		} else if ok == "differs" {
			line = st.Differs.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// otherRuns are the runs of the file's conversations not on screen.
func (s *session) otherRuns() []*model.Run {
	if s.views == nil || s.views.all == nil || s.views.all == s.rec {
		return nil
	}
	var out []*model.Run
	for _, r := range s.views.all.Runs {
		if !slices.Contains(s.rec.Runs, r) {
			out = append(out, r)
		}
	}
	return out
}
