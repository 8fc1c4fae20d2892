package session

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

// Views is what the picker lists: the file's conversations, each run
// tallied under the agents' recorded policies (the study's), and the
// one on screen.
type Views struct {
	All *model.Recording // the whole file
	// convs are the conversations in order, then the compositions that
	// made model calls of their own (study.Conversation.Composition)
	Convs  []study.Conversation
	Shown  int                 // index in convs of the one on screen
	Paused map[*model.Run]bool // the runs a later resume() continues (§10.7)
	passes map[segment]int     // how many agent runs each segment holds (§15.2)
	Rows   *RowIndex           // the picker's rows, made on the first look
	Column []PickRow           // the conversations' column's rows, likewise
}

// segment is one runId and agent path (§15.1): a Loop's passes share it.
type segment struct {
	runID string
	Agent *model.Agent
}

// newViews lists st's conversations, v on screen.
func newViews(st *study.Study, v *study.View) *Views {
	vs := &Views{All: st.Rec, Convs: st.Conversations(), Paused: map[*model.Run]bool{}, passes: map[segment]int{}}
	for _, r := range st.Rec.Runs {
		k := segment{r.RunID, r.Agent}
		vs.passes[k] = max(vs.passes[k], r.Pass)
	}
	for i, c := range vs.Convs {
		if c.Number == v.Number {
			vs.Shown = i
		}
		for _, r := range c.Runs {
			if r.Paused {
				vs.Paused[r.Run] = true
			}
		}
	}
	return vs
}

// Composition reports whether the calls on screen are a composition's
// own (§15.5): no window strategy replays them, and their windows are
// not in the log.
func (s *Session) Composition() bool {
	return s.Views != nil && s.Views.Shown < len(s.Views.Convs) && s.Views.Convs[s.Views.Shown].Composition
}

// NoKnobs says why no knob moves on a composition's own calls.
const NoKnobs = "no knob replays a composition's own calls: it has no window strategy, and their windows are not in the log"

// Conversations is how many conversations the file holds (the
// compositions listed after them are none).
func (vs *Views) Conversations() int {
	n := 0
	for _, cv := range vs.Convs {
		if !cv.Composition {
			n++
		}
	}
	return n
}

// PassOf is " · pass 2/3" for a conversation that is one pass of an
// agent that ran several in one segment (a Loop's body, a swarm's
// agent, §15.2); "" otherwise.
func (vs *Views) PassOf(cv study.Conversation) string {
	if len(cv.Runs) == 0 {
		return ""
	}
	return vs.Pass(cv.Runs[0].Run)
}

// Pass is " · pass 2/3" for run, one of several agent runs of its
// segment; "" for the only one.
func (vs *Views) Pass(run *model.Run) string {
	if n := vs.passes[segment{run.RunID, run.Agent}]; n > 1 {
		return fmt.Sprintf(" · pass %d/%d", run.Pass, n)
	}
	return ""
}

// FileNumbers reports whether a call's number on screen, its place in
// the conversation, is not always its number in the file (a file of
// several conversations, or a composition's own calls besides).
func (s *Session) FileNumbers() bool { return s.numbersDiffer }

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
	AgentRow = iota
	ConvRow
	RunRow
	BlankRow
)

// PickRow is one row of the picker.
type PickRow struct {
	Kind int
	Conv int // in views.convs
	Run  int // in the conversation's runs, for a runRow
}

// RowIndex is the picker's rows: every conversation's, or those a
// filter matched.
type RowIndex struct {
	Rows  []PickRow
	Order []int // the conversations listed (indices in views.convs), in order
	Conv  []int // the row of each, likewise
}

// PickRows are the picker's rows: made once, on the first look.
func (vs *Views) PickRows() *RowIndex {
	if vs.Rows != nil {
		return vs.Rows
	}
	n := 0
	for _, cv := range vs.Convs {
		n += 3 + len(cv.Runs) // its row, its runs', at most an agent's title and a blank
	}
	x := &RowIndex{Rows: make([]PickRow, 0, n), Order: make([]int, 0, len(vs.Convs)), Conv: make([]int, 0, len(vs.Convs))}
	for i, cv := range vs.Convs {
		x.Add(vs, i, func(yield func(int) bool) {
			for r := range cv.Runs {
				if !yield(r) {
					return
				}
			}
		})
	}
	vs.Rows = x
	return x
}

// Add lists conversation i, with the runs given, after the rows so far:
// its agent's title first when the agent changes.
func (x *RowIndex) Add(vs *Views, i int, runs func(func(int) bool)) {
	cv := vs.Convs[i]
	if n := len(x.Order); n == 0 || vs.Convs[x.Order[n-1]].Agent != cv.Agent {
		if n > 0 {
			x.Rows = append(x.Rows, PickRow{Kind: BlankRow, Conv: i})
		}
		x.Rows = append(x.Rows, PickRow{Kind: AgentRow, Conv: i})
	}
	x.Order = append(x.Order, i)
	x.Conv = append(x.Conv, len(x.Rows))
	x.Rows = append(x.Rows, PickRow{Kind: ConvRow, Conv: i})
	for r := range runs {
		x.Rows = append(x.Rows, PickRow{Kind: RunRow, Conv: i, Run: r})
	}
}

// OtherRuns are the runs of the file's conversations not on screen.
func (s *Session) OtherRuns() []*model.Run {
	if s.Views == nil || s.Views.All == nil || s.Views.All == s.Rec {
		return nil
	}
	var out []*model.Run
	for _, r := range s.Views.All.Runs {
		if !slices.Contains(s.Rec.Runs, r) {
			out = append(out, r)
		}
	}
	return out
}

// ColumnRows are the column's rows: each agent's title, its
// conversations; made once.
func (vs *Views) ColumnRows() []PickRow {
	if vs.Column != nil {
		return vs.Column
	}
	for _, r := range vs.PickRows().Rows {
		if r.Kind == AgentRow || r.Kind == ConvRow {
			vs.Column = append(vs.Column, r)
		}
	}
	return vs.Column
}

// ConversationsAndOwn is how many entries the picker lists unfiltered:
// the conversations and the compositions' own calls.
func (vs *Views) ConversationsAndOwn() int { return len(vs.Convs) }
