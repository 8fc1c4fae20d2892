package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A real log holds several agents and conversations (WINDOW-SEMANTICS
// §10). The screen shows one conversation of one agent at a time: its
// calls in order (stepping stays inside it), replayed under that agent's
// policy, which the knobs change. The picker (w) lists every agent, its
// conversations and their runs, with their calls and whether the replay
// under the recorded policies matches what the library sent.

// views is what the picker lists: the whole recording's conversations.
type views struct {
	all   *model.Recording // the whole file
	convs []convView       // in conversation order
	shown int              // index in convs of the one on screen
	// paused are the runs a later resume() continues (§10.7): they have
	// no turn_end because they stopped for a person, not because the log
	// was cut.
	paused map[*model.Run]bool
}

// convView is one conversation and its runs, with the calls whose
// recorded window the replay under the agents' recorded policies
// reproduces (matched of compared; -1 when not worked out).
type convView struct {
	number            int
	agent             *model.Agent
	runs              []runView
	calls             int
	matched, compared int
}

type runView struct {
	index             int // in all.Runs
	runID, step       string
	calls             int
	matched, compared int
}

// scope is the recording of one conversation: its segments, its agent,
// and the file's problems.
// view is a conversation number; 0 or one not there is the first.
func scope(rec *model.Recording, view int) (*model.Recording, *views) {
	lin := lineage.Decide(rec)
	vs := &views{all: rec, paused: map[*model.Run]bool{}}
	for _, l := range lin.Links {
		if l.Kind == lineage.Resume {
			vs.paused[rec.Runs[l.Pred]] = true
		}
	}
	for _, c := range lin.Conversations {
		cv := convView{number: c.Number, agent: rec.Runs[c.Runs[0]].Agent, matched: -1, compared: -1}
		for _, i := range c.Runs {
			r := rec.Runs[i]
			cv.runs = append(cv.runs, runView{index: i, runID: r.RunID, step: r.Step, calls: len(r.Calls), matched: -1, compared: -1})
			cv.calls += len(r.Calls)
		}
		if c.Number == view {
			vs.shown = len(vs.convs)
		}
		vs.convs = append(vs.convs, cv)
	}
	if len(vs.convs) <= 1 {
		return rec, vs
	}
	cv := vs.convs[vs.shown]
	out := *rec
	out.Agents, out.Runs = []*model.Agent{cv.agent}, nil
	for _, r := range cv.runs {
		out.Runs = append(out.Runs, rec.Runs[r.index])
	}
	// the header names the conversation on screen and w lists the others:
	// a file of several is not a problem with it
	return &out, vs
}

// count works out, for the picker, how many recorded windows of each run
// and conversation the replay under each agent's recorded policy
// reproduces. A file of one conversation is counted from recorded, the
// replay of its recorded policy the screen already made.
func (vs *views) count(recorded *window.Replay) {
	if len(vs.convs) <= 1 {
		vs.tally(recorded)
		return
	}
	lin := lineage.Decide(vs.all)
	infs := window.InferAgents(vs.all, lin)
	policies := map[string]model.Policy{}
	for _, inf := range infs {
		policies[inf.Agent.Key] = inf.Policy
	}
	vs.tally(window.Merge(vs.all, lin, infs, policies))
}

// tally counts the calls of r whose recorded window its replay
// reproduces, per run and conversation.
func (vs *views) tally(r *window.Replay) {
	if r == nil {
		return
	}
	type tally struct{ matched, compared int }
	byRun := map[*model.Run]*tally{}
	for i := range r.Calls {
		c := &r.Calls[i]
		t := byRun[c.Run]
		if t == nil {
			t = &tally{}
			byRun[c.Run] = t
		}
		switch c.Recorded() {
		case window.Match:
			t.matched++
			t.compared++
		case window.Differs:
			t.compared++
		}
	}
	for ci := range vs.convs {
		cv := &vs.convs[ci]
		cv.matched, cv.compared = 0, 0
		for ri := range cv.runs {
			rv := &cv.runs[ri]
			if t := byRun[vs.all.Runs[rv.index]]; t != nil {
				rv.matched, rv.compared = t.matched, t.compared
			} else {
				rv.matched, rv.compared = 0, 0
			}
			cv.matched += rv.matched
			cv.compared += rv.compared
		}
	}
}

// label names the conversation on screen for the header: its agent and
// its number of the file's conversations ("" for a file of one).
func (vs *views) label() string {
	if vs == nil || len(vs.convs) <= 1 {
		return ""
	}
	cv := vs.convs[vs.shown]
	return fmt.Sprintf("%s · conversation %d/%d", cv.agent.Key, cv.number, len(vs.convs))
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
		if cv.agent != agent {
			agent = cv.agent
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.Title.Render("agent "+agent.Key) + st.Dim.Render(agentNote(agent)) + "\n")
		}
		mark := "  "
		if i == cursor {
			mark = "▸ "
		}
		line := fmt.Sprintf("%sconversation %d · %s · %s · %s", mark, cv.number, plural(len(cv.runs), "run"), plural(cv.calls, "call"), matchText(cv.matched, cv.compared))
		if i == vs.shown {
			line += "  (on screen" + mine + ")"
		}
		if i == cursor {
			b.WriteString(st.Value.Render(line) + "\n")
		} else {
			b.WriteString(line + "\n")
		}
		for _, r := range cv.runs {
			step := ""
			if r.step != "" {
				step = " " + r.step
			}
			b.WriteString(st.Dim.Render(fmt.Sprintf("      run %s%s · %s · %s", r.runID, step, plural(r.calls, "call"), matchText(r.matched, r.compared))) + "\n")
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
		if cv.agent != agent {
			agent = cv.agent
			b.WriteString(st.Title.Render(fit(agent.Key, w)) + "\n")
		}
		mark := "  "
		if i == vs.shown {
			mark = "▸ "
		}
		ok := "…"
		switch {
		case cv.compared == 0:
			ok = "—"
		case cv.compared > 0 && cv.matched == cv.compared:
			ok = "match"
		case cv.compared > 0:
			ok = "differs"
		}
		line := fit(fmt.Sprintf("%sconv %d · %s · %s", mark, cv.number, plural(cv.calls, "call"), ok), w)
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
