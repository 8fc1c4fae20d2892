package tui

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/theme"
)

// The policy advisor (P): which window policy the agent on screen should
// run, from its calls in the file. The sweep is package advise's (every
// policy of its grid replayed over every call of the agent); it runs off
// the UI goroutine, says how far it has got, and is given up through its
// context when the view closes or the conversation on screen changes.
// The study keeps its answer, and so does the view: opened again, it
// shows at once. Enter applies the policy under the cursor to the knobs,
// as K applies a suggestion.

// sweepAdvice is the advisor's engine. A test puts one there that it
// controls (one that blocks until it is given up).
var sweepAdvice = func(ctx context.Context, st *study.Study, agent string, progress func(done, total int)) (*advise.Advice, error) {
	return advise.Advise(ctx, st, agent, progress)
}

// adviseProgressMsg is sent by the sweep's waiter (adviseJob.wait) each
// time the sweep has replayed more policies; gen names the sweep.
type adviseProgressMsg struct {
	gen         int
	done, total int
}

// advisedMsg is sent by the sweep's waiter when the sweep ends: with the
// advice (nil when the agent has none: a composition's own calls), or
// the error that stopped it (the context's, when it was given up).
type advisedMsg struct {
	gen    int
	advice *advise.Advice
	err    error
}

// adviseJob is one sweep under way: its progress, told by the sweep's
// goroutines, and its end.
type adviseJob struct {
	gen         int
	done, total atomic.Int64
	moved       chan struct{} // a value when the progress moved since last read
	end         chan advisedMsg
}

// startAdvise starts the sweep for agent of st at once (not when the
// program runs a command) and gives the job.
func startAdvise(ctx context.Context, gen int, st *study.Study, agent string) *adviseJob {
	j := &adviseJob{gen: gen, moved: make(chan struct{}, 1), end: make(chan advisedMsg, 1)}
	go func() {
		ad, err := sweepAdvice(ctx, st, agent, func(done, total int) {
			j.done.Store(int64(done))
			j.total.Store(int64(total))
			select {
			case j.moved <- struct{}{}:
			default: // the screen has not read the last move yet: it will read this one
			}
		})
		j.end <- advisedMsg{gen: gen, advice: ad, err: err}
	}()
	return j
}

// wait is the command that waits for the job's next word: progress, or
// its end. The view asks again after each progress.
func (j *adviseJob) wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-j.end:
			return msg
		case <-j.moved:
			return adviseProgressMsg{gen: j.gen, done: int(j.done.Load()), total: int(j.total.Load())}
		}
	}
}

// advisorPane is the advisor's view: the sweep's state, then its answer
// — the chart and the frontier's table, the cursor on one of its rows.
type advisorPane struct {
	st            *theme.Styles
	keys          keys.KeyMap
	width, height int

	study *study.Study // the file the advice is of, nil before the first open
	agent string       // the agent's key
	gen   int          // counts sweeps started and given up: an older one's messages are ignored
	job   *adviseJob   // the sweep under way, nil when none runs
	stop  context.CancelFunc
	done  int // policies replayed so far, of total
	total int

	advice *advise.Advice
	none   string // why there is nothing to advise ("" when there is, or it is not known yet)
	failed error  // what stopped the sweep, other than being given up
	rows   []int  // the table's rows (Advice.Rows indexes): the frontier, the recorded policy in its place
	cursor int    // in rows
	// shown is the policy on screen when the knobs moved it off the
	// recorded one (nil when they did not): its row is marked
	shown *model.Policy
	chart chartCache
}

var _ common.Component = (*advisorPane)(nil)

func newAdvisorPane(st *theme.Styles, keys keys.KeyMap) *advisorPane {
	return &advisorPane{st: st, keys: keys}
}

func (a *advisorPane) Init() tea.Cmd                       { return nil }
func (a *advisorPane) Update(tea.Msg) (tea.Model, tea.Cmd) { return a, nil }
func (a *advisorPane) SetSize(w, h int)                    { a.width, a.height = max(0, w), max(0, h) }

func (a *advisorPane) ShortHelp() []key.Binding {
	return []key.Binding{a.keys.Turns, a.keys.Confirm, a.keys.Close}
}
func (a *advisorPane) FullHelp() [][]key.Binding { return [][]key.Binding{a.ShortHelp()} }

// isFor reports whether the advice shown (or being made) is of the agent
// on screen, in the study on screen.
func (a *advisorPane) isFor(s *session.Session) bool {
	return a.study == s.Study && a.agent == agentKey(s) && (a.job != nil || a.advice != nil || a.none != "" || a.failed != nil)
}

// keepsAllFor names the advisor's keeps-everything policy for the agent
// on screen, with its cost: "K6 L4 (≈+31.0% tok)"; "" when the advisor
// has not found one for it.
func (a *advisorPane) keepsAllFor(s *session.Session) string {
	if a == nil || s == nil || !a.isFor(s) || a.advice == nil || a.advice.KeepsEverything == nil {
		return ""
	}
	ad := a.advice
	i := ad.KeepsEverything.Row
	return fmt.Sprintf("%s (%s tok)", policyName(ad.Rows[i].Policy, false), against(ad.Rows[i].Tokens, ad.Rows[ad.RecordedRow].Tokens))
}

// agentKey is the key of the agent on screen ("" when the file names
// none).
func agentKey(s *session.Session) string {
	if s.Agent == nil || s.Agent.Agent == nil {
		return ""
	}
	return s.Agent.Agent.Key
}

// start gives up any sweep under way and starts the one for the agent on
// screen; nil when there is nothing to sweep.
func (a *advisorPane) start(s *session.Session) tea.Cmd {
	a.giveUp()
	*a = advisorPane{st: a.st, keys: a.keys, width: a.width, height: a.height, gen: a.gen + 1,
		study: s.Study, agent: agentKey(s)}
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
	a.job, a.stop = startAdvise(ctx, a.gen, s.Study, a.agent), stop
	return a.job.wait()
}

// giveUp cancels the sweep under way, if any: its messages, still on
// their way, are ignored, and the next open starts it again.
func (a *advisorPane) giveUp() {
	if a.job == nil {
		return
	}
	a.stop()
	a.job, a.stop = nil, nil
	a.gen++
	a.study = nil // not answered: ask again when opened
}

// progressed files a progress message of the sweep under way, and waits
// for the next.
func (a *advisorPane) progressed(msg adviseProgressMsg) tea.Cmd {
	if a.job == nil || msg.gen != a.gen {
		return nil
	}
	a.done, a.total = msg.done, msg.total
	return a.job.wait()
}

// answered files the sweep's end.
func (a *advisorPane) answered(msg advisedMsg) {
	if a.job == nil || msg.gen != a.gen {
		return
	}
	a.stop() // its resources, now it is over
	a.job, a.stop = nil, nil
	switch {
	case msg.err != nil:
		a.failed = msg.err
	case msg.advice == nil || msg.advice.Calls == 0 || len(msg.advice.Rows) == 0:
		a.none = "agent " + termtext.Line(a.agent) + " has no model call whose window a policy decides: there is nothing to advise on"
	default:
		a.advice = msg.advice
		a.rows = tableRows(msg.advice)
		a.cursor = max(0, slices.Index(a.rows, msg.advice.RecordedRow))
	}
}

// tableRows are the frontier's rows, fewest tokens first, with the
// recorded policy's in its place when it is not on the frontier.
func tableRows(ad *advise.Advice) []int {
	rows := slices.Clone(ad.Frontier)
	if rec := ad.Rows[ad.RecordedRow]; !rec.Frontier {
		at, _ := slices.BinarySearchFunc(rows, rec.Tokens, func(i, t int) int { return ad.Rows[i].Tokens - t })
		rows = slices.Insert(rows, at, ad.RecordedRow)
	}
	return rows
}

// move puts the cursor d rows further along the table, kept inside it.
func (a *advisorPane) move(d int) {
	a.cursor = max(0, min(a.cursor+d, len(a.rows)-1))
}

// wheel moves the cursor along the frontier with the mouse wheel; a
// click does nothing (the panes under the view are not on screen).
func (a *advisorPane) wheel(msg tea.MouseMsg) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		a.move(-1)
	case tea.MouseButtonWheelDown:
		a.move(1)
	}
}

// selected is the advice's row under the cursor, -1 when there is none.
func (a *advisorPane) selected() int {
	if a.advice == nil || len(a.rows) == 0 {
		return -1
	}
	return a.rows[a.cursor]
}

// advisorKey: the arrows move along the frontier, enter applies the
// policy under the cursor (esc, q and P close the view in key).
func (m Model) advisorKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k, a := m.keys, m.adv
	switch {
	case key.Matches(msg, k.Up):
		a.move(-1)
	case key.Matches(msg, k.Down):
		a.move(1)
	case key.Matches(msg, k.Top):
		a.move(-len(a.rows))
	case key.Matches(msg, k.Bottom):
		a.move(len(a.rows))
	case key.Matches(msg, k.Confirm):
		return m.applyAdvice()
	}
	return m, nil
}

// applyAdvice replays the conversation on screen under the policy under
// the advisor's cursor, for the agent on screen (the one advised), as K
// applies a suggestion: every knob moves, and the screen shows that
// replay.
func (m Model) applyAdvice() (Model, tea.Cmd) {
	i := m.adv.selected()
	if i < 0 || !m.adv.isFor(m.s) {
		return m, nil
	}
	ad := m.adv.advice
	p := ad.Rows[i].Policy
	m.overlay = noOverlay
	m.applyPending = false
	m.s.Policy = p
	if p.KeepLastToolResults > 0 {
		m.s.LastPins = p.KeepLastToolResults
	}
	m.flash = "applied" + onAgent(m.s) + " from the advisor: " + policyName(p, false) + rowRole(ad, i) + " (" + rowCost(ad, i) + ")"
	return m.replan()
}

// advisorFollows keeps the sweep in step with the screen: it is given up
// when the view is closed, and started (again) when the view is open on
// an agent or a study it was not made for — opened, or the conversation
// or the file on screen changed under it.
func (m *Model) advisorFollows() tea.Cmd {
	a := m.adv
	if m.overlay != advisorOverlay || m.s == nil {
		a.giveUp()
		return nil
	}
	if a.isFor(m.s) {
		return nil
	}
	return a.start(m.s)
}
