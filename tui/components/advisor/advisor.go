// Package advisor is the policy advisor's view (P): the sweep's state,
// then its answer — the chart and the frontier's table, the cursor on
// one of its rows. The sweep itself is a session job.
package advisor

import (
	"context"
	"fmt"
	"slices"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/theme"
)

// Pane is the advisor's view: the sweep's state, then its answer
// — the chart and the frontier's table, the cursor on one of its rows.
type Pane struct {
	st            *theme.Styles
	keys          keys.KeyMap
	width, height int

	study *session.Study     // the file the advice is of, nil before the first open
	agent string             // the agent's key
	gen   int                // counts sweeps started and given up: an older one's messages are ignored
	job   *session.AdviseJob // the sweep under way, nil when none runs
	stop  context.CancelFunc
	done  int // policies replayed so far, of total
	total int

	advice *session.Advice
	none   string // why there is nothing to advise ("" when there is, or it is not known yet)
	failed error  // what stopped the sweep, other than being given up
	rows   []int  // the table's rows (Advice.Rows indexes): the frontier, the recorded policy in its place
	cursor int    // in rows
	// Shown is the policy on screen when the knobs moved it off the
	// recorded one (nil when they did not): its row is marked
	Shown *model.Policy
	chart chartCache
}

var _ common.Component = (*Pane)(nil)

// New is the advisor's view drawn from c.
func New(c *common.Common) *Pane {
	return &Pane{st: c.Styles, keys: c.Keys}
}

func (a *Pane) Init() tea.Cmd                       { return nil }
func (a *Pane) Update(tea.Msg) (tea.Model, tea.Cmd) { return a, nil }
func (a *Pane) SetSize(w, h int)                    { a.width, a.height = max(0, w), max(0, h) }

func (a *Pane) ShortHelp() []key.Binding {
	return []key.Binding{a.keys.Turns, a.keys.Confirm, a.keys.Close}
}
func (a *Pane) FullHelp() [][]key.Binding { return [][]key.Binding{a.ShortHelp()} }

// IsFor reports whether the advice shown (or being made) is of the agent
// on screen, in the study on screen.
func (a *Pane) IsFor(s *session.Session) bool {
	return a.study == s.Study && a.agent == session.AgentKey(s) && (a.job != nil || a.advice != nil || a.none != "" || a.failed != nil)
}

// KeepsAllFor names the advisor's keeps-everything policy for the agent
// on screen, with its cost: "K6 L4 (≈+31.0% tok)"; "" when the advisor
// has not found one for it.
func (a *Pane) KeepsAllFor(s *session.Session) string {
	if a == nil || s == nil || !a.IsFor(s) || a.advice == nil || a.advice.KeepsEverything == nil {
		return ""
	}
	ad := a.advice
	i := ad.KeepsEverything.Row
	return fmt.Sprintf("%s (%s tok)", PolicyName(ad.Rows[i].Policy, false), against(ad.Rows[i].Tokens, ad.Rows[ad.RecordedRow].Tokens))
}

// Start gives up any sweep under way and starts the one for the agent on
// screen; nil when there is nothing to sweep.
func (a *Pane) Start(s *session.Session) tea.Cmd {
	a.GiveUp()
	*a = Pane{st: a.st, keys: a.keys, width: a.width, height: a.height, gen: a.gen + 1,
		study: s.Study, agent: session.AgentKey(s)}
	switch {
	case s.Agent == nil || s.Agent.Agent == nil:
		a.none = "the file names no agent whose calls a policy decides"
		return nil
	case s.Agent.Agent.Composition:
		a.none = "these are a composition's own model calls (a Parallel's merge): the log holds no window of theirs, so there is no policy to advise on"
		return nil
	case s.Calls() == 0:
		a.none = "agent " + termtext.Line(a.agent) + " made no model call: there is nothing to advise on"
		return nil
	}
	ctx, stop := context.WithCancel(context.Background())
	a.job, a.stop = session.StartAdvise(ctx, a.gen, s, a.agent), stop
	return a.job.Wait()
}

// GiveUp cancels the sweep under way, if any: its messages, still on
// their way, are ignored, and the next open starts it again.
func (a *Pane) GiveUp() {
	if a.job == nil {
		return
	}
	a.stop()
	a.job, a.stop = nil, nil
	a.gen++
	a.study = nil // not answered: ask again when opened
}

// Progressed files a progress message of the sweep under way, and waits
// for the next.
func (a *Pane) Progressed(msg session.AdviseProgressMsg) tea.Cmd {
	if a.job == nil || msg.Gen != a.gen {
		return nil
	}
	a.done, a.total = msg.Done, msg.Total
	return a.job.Wait()
}

// Answered files the sweep's end.
func (a *Pane) Answered(msg session.AdvisedMsg) {
	if a.job == nil || msg.Gen != a.gen {
		return
	}
	a.stop() // its resources, now it is over
	a.job, a.stop = nil, nil
	switch {
	case msg.Err != nil:
		a.failed = msg.Err
	case msg.Advice == nil || msg.Advice.Calls == 0 || len(msg.Advice.Rows) == 0:
		a.none = "agent " + termtext.Line(a.agent) + " has no model call whose window a policy decides: there is nothing to advise on"
	default:
		a.advice = msg.Advice
		a.rows = tableRows(msg.Advice)
		a.cursor = max(0, slices.Index(a.rows, msg.Advice.RecordedRow))
	}
}

// tableRows are the frontier's rows, fewest tokens first, with the
// recorded policy's in its place when it is not on the frontier.
func tableRows(ad *session.Advice) []int {
	rows := slices.Clone(ad.Frontier)
	if rec := ad.Rows[ad.RecordedRow]; !rec.Frontier {
		at, _ := slices.BinarySearchFunc(rows, rec.Tokens, func(i, t int) int { return ad.Rows[i].Tokens - t })
		rows = slices.Insert(rows, at, ad.RecordedRow)
	}
	return rows
}

// Move puts the cursor d rows further along the table, kept inside it.
func (a *Pane) Move(d int) {
	a.cursor = max(0, min(a.cursor+d, len(a.rows)-1))
}

// Wheel moves the cursor along the frontier with the mouse Wheel; a
// click does nothing (the panes under the view are not on screen).
func (a *Pane) Wheel(msg tea.MouseMsg) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		a.Move(-1)
	case tea.MouseButtonWheelDown:
		a.Move(1)
	}
}

// Selected is the advice's row under the cursor, -1 when there is none.
func (a *Pane) Selected() int {
	if a.advice == nil || len(a.rows) == 0 {
		return -1
	}
	return a.rows[a.cursor]
}

// Advice is the sweep's answer, nil until it is in.
func (a *Pane) Advice() *session.Advice { return a.advice }

// Cursor is the table row the cursor is on.
func (a *Pane) Cursor() int { return a.cursor }

// Key moves the cursor along the frontier; apply says enter asked for
// the policy under it.
func (a *Pane) Key(k keys.KeyMap, msg tea.KeyMsg) (apply bool) {
	switch {
	case key.Matches(msg, k.Up):
		a.Move(-1)
	case key.Matches(msg, k.Down):
		a.Move(1)
	case key.Matches(msg, k.Top):
		a.Move(-len(a.rows))
	case key.Matches(msg, k.Bottom):
		a.Move(len(a.rows))
	case key.Matches(msg, k.Confirm):
		return true
	}
	return false
}
