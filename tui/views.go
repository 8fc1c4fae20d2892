package tui

import (
	"fmt"
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// A real log holds several agents and conversations (docs/rules/runs-and-conversations.md
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
	all *model.Recording // the whole file
	// convs are the conversations in order, then the compositions that
	// made model calls of their own (study.Conversation.Composition)
	convs  []study.Conversation
	shown  int                 // index in convs of the one on screen
	paused map[*model.Run]bool // the runs a later resume() continues (§10.7)
	passes map[segment]int     // how many agent runs each segment holds (§15.2)
	rows   *rowIndex           // the picker's rows, made on the first look
	column []pickRow           // the conversations' column's rows, likewise
}

// segment is one runId and agent path (§15.1): a Loop's passes share it.
type segment struct {
	runID string
	agent *model.Agent
}

// newViews lists st's conversations, v on screen.
func newViews(st *study.Study, v *study.View) *views {
	vs := &views{all: st.Rec, convs: st.Conversations(), paused: map[*model.Run]bool{}, passes: map[segment]int{}}
	for _, r := range st.Rec.Runs {
		k := segment{r.RunID, r.Agent}
		vs.passes[k] = max(vs.passes[k], r.Pass)
	}
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

// composition reports whether the calls on screen are a composition's
// own (§15.5): no window strategy replays them, and their windows are
// not in the log.
func (s *session) composition() bool {
	return s.views != nil && s.views.shown < len(s.views.convs) && s.views.convs[s.views.shown].Composition
}

// noKnobs says why no knob moves on a composition's own calls.
const noKnobs = "no knob replays a composition's own calls: it has no window strategy, and their windows are not in the log"

// conversations is how many conversations the file holds (the
// compositions listed after them are none).
func (vs *views) conversations() int {
	n := 0
	for _, cv := range vs.convs {
		if !cv.Composition {
			n++
		}
	}
	return n
}

// passOf is " · pass 2/3" for a conversation that is one pass of an
// agent that ran several in one segment (a Loop's body, a swarm's
// agent, §15.2); "" otherwise.
func (vs *views) passOf(cv study.Conversation) string {
	if len(cv.Runs) == 0 {
		return ""
	}
	return vs.pass(cv.Runs[0].Run)
}

// pass is " · pass 2/3" for run, one of several agent runs of its
// segment; "" for the only one.
func (vs *views) pass(run *model.Run) string {
	if n := vs.passes[segment{run.RunID, run.Agent}]; n > 1 {
		return fmt.Sprintf(" · pass %d/%d", run.Pass, n)
	}
	return ""
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

// The picker's rows: an agent's title, a conversation, one of its runs,
// the blank line between two agents.
const (
	agentRow = iota
	convRow
	runRow
	blankRow
)

// pickRow is one row of the picker.
type pickRow struct {
	kind int
	conv int // in views.convs
	run  int // in the conversation's runs, for a runRow
}

// rowIndex is the picker's rows: every conversation's, or those a
// filter matched.
type rowIndex struct {
	rows  []pickRow
	order []int // the conversations listed (indices in views.convs), in order
	conv  []int // the row of each, likewise
}

// pickRows are the picker's rows: made once, on the first look.
func (vs *views) pickRows() *rowIndex {
	if vs.rows != nil {
		return vs.rows
	}
	n := 0
	for _, cv := range vs.convs {
		n += 3 + len(cv.Runs) // its row, its runs', at most an agent's title and a blank
	}
	x := &rowIndex{rows: make([]pickRow, 0, n), order: make([]int, 0, len(vs.convs)), conv: make([]int, 0, len(vs.convs))}
	for i, cv := range vs.convs {
		x.add(vs, i, func(yield func(int) bool) {
			for r := range cv.Runs {
				if !yield(r) {
					return
				}
			}
		})
	}
	vs.rows = x
	return x
}

// add lists conversation i, with the runs given, after the rows so far:
// its agent's title first when the agent changes.
func (x *rowIndex) add(vs *views, i int, runs func(func(int) bool)) {
	cv := vs.convs[i]
	if n := len(x.order); n == 0 || vs.convs[x.order[n-1]].Agent != cv.Agent {
		if n > 0 {
			x.rows = append(x.rows, pickRow{kind: blankRow, conv: i})
		}
		x.rows = append(x.rows, pickRow{kind: agentRow, conv: i})
	}
	x.order = append(x.order, i)
	x.conv = append(x.conv, len(x.rows))
	x.rows = append(x.rows, pickRow{kind: convRow, conv: i})
	for r := range runs {
		x.rows = append(x.rows, pickRow{kind: runRow, conv: i, run: r})
	}
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

// columnRows are the column's rows: each agent's title, its
// conversations; made once.
func (vs *views) columnRows() []pickRow {
	if vs.column != nil {
		return vs.column
	}
	for _, r := range vs.pickRows().rows {
		if r.kind == agentRow || r.kind == convRow {
			vs.column = append(vs.column, r)
		}
	}
	return vs.column
}

// conversationsAndOwn is how many entries the picker lists unfiltered:
// the conversations and the compositions' own calls.
func (vs *views) conversationsAndOwn() int { return len(vs.convs) }
