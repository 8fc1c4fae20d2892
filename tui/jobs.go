package tui

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The root's side of the background work: when to start a job from what
// the screen shows, and what to do with its answer. The jobs themselves
// and the state they report into are the session's.

// idleWork asks for an idleMsg when there is work to do while the user
// reads a settled screen (idleTask); nil when there is none or one is on
// its way.
func (m *Model) idleWork() tea.Cmd {
	if m.s == nil || m.s.idleTick {
		return nil
	}
	if ahead, collect := m.idleTask(); ahead == nil && !collect {
		return nil
	}
	m.s.idleTick = true
	wait := idleDelay - time.Since(m.lastInput)
	return tea.Tick(max(wait, time.Millisecond), func(time.Time) tea.Msg { return idleMsg{} })
}

// idle starts the work idleWork asked for, unless a key came since (then
// it asks again).
func (m *Model) idle() tea.Cmd {
	s := m.s
	if s == nil {
		return nil
	}
	s.idleTick = false
	if time.Since(m.lastInput) < idleDelay {
		return m.idleWork()
	}
	ahead, collect := m.idleTask()
	switch {
	case ahead != nil:
		s.aheadFor, s.quitAhead = ahead, &atomic.Bool{}
		return aheadCmd(s.view, s.recorded, *ahead, m.timeline.cells(), s.quitAhead)
	case collect:
		s.dirty = false
		return collectCmd()
	}
	return nil
}

// idleTask is the work to do while the user reads a settled screen (no
// replay or book under way): the first of aheadPolicies not held, to
// replay ahead; else collect, when replays, books or evidence
// passes were made since the heap was last collected. The replays ahead come
// before the evidence pass (which waits judgeWait, about 0.35 s at call
// 50,000): a user pressing a knob every second never lets that pass
// finish. Before that pass the heap is collected too, unless it is
// under way: without it the garbage of their replays was collected half
// way through every other replay, doubling its wait.
func (m *Model) idleTask() (ahead *model.Policy, collect bool) {
	s := m.s
	if s == nil || m.stream != nil || s.replaying || s.aheadFor != nil || s.calls() < aheadMin || s.book == nil {
		return nil, false
	}
	if recentReplays > 0 && m.lastKnob != NoKnob {
		for _, p := range m.aheadPolicies() {
			if s.madeFor(p) == nil {
				return &p, false
			}
		}
	}
	if !s.judgedBook() {
		return nil, s.dirty && !s.judging[s.book]
	}
	return nil, s.dirty
}

// letGoAhead lets go of the replays made ahead that no knob key gives
// from the screen's policy (replan calls it once the policy moved).
func (m Model) letGoAhead() {
	switch {
	case m.s == nil:
	case m.lastKnob == NoKnob:
		m.s.ahead = nil
	default:
		want := m.aheadPolicies()
		m.s.ahead = slices.DeleteFunc(m.s.ahead, func(n madeReplay) bool { return !slices.Contains(want, n.policy) })
	}
}

// aheadPolicies are the policies replayed ahead from the screen's, most
// likely first: the last knob's again, then keepRecentTurns ±1,
// keepLastToolResults ±1 and pins on/off; each
// once, none on screen or recorded (the recorded replay is shown at
// once), at most aheadMax. (a s t T change the anchor, the strategy
// and its threshold: rarer, and a summary's replay is not split.)
func (m *Model) aheadPolicies() []model.Policy {
	s := m.s
	var out []model.Policy
	for _, kn := range []Knob{m.lastKnob, RecentMore, RecentLess, PinsMore, PinsLess, TogglePins} {
		p, _, ok := Step(s.policy, s.lastPins, s.agent, kn)
		if ok && p != s.policy && p != s.agent.Recorded && !slices.Contains(out, p) && len(out) < aheadMax {
			out = append(out, p)
		}
	}
	return out
}

// aheadBack holds a replay made ahead, and shows it when the user has
// asked for its policy meanwhile (replan waits for it then).
func (m Model) aheadBack(msg aheadMsg) (Model, tea.Cmd) {
	s := m.s
	if s == nil || s.view != msg.view || s.aheadFor == nil || *s.aheadFor != msg.policy {
		return m, nil // another recording or conversation is on screen
	}
	s.aheadFor, s.dirty = nil, true
	if msg.replay == nil {
		return m, nil // given up: the user went elsewhere
	}
	k := madeReplay{policy: msg.policy, replay: msg.replay, diff: msg.diff, cells: msg.cells}
	s.holdAhead(k)
	if s.replaying && s.policy == msg.policy {
		return m.show(k)
	}
	return m, nil
}

// show puts a replay under the session's policy on screen: a fresh one,
// or a held one (with its book, when made).
func (m Model) show(k madeReplay) (Model, tea.Cmd) {
	s := m.s
	s.remember(k) // now a policy the user set
	s.booked(k.replay, k.book)
	s.replay, s.replaying, s.book, s.diff = k.replay, false, k.book, k.diff
	var diff tea.Cmd
	if k.diff == nil && s.diffing != k.replay {
		s.diffing, diff = k.replay, diffCmd(s.recorded, k.replay) // the frame does not wait for it
	}
	if k.cells != nil {
		m.timeline.memo = *k.cells // made with the replay; cellsOf makes them afresh if the width changed
	}
	s.shownAt = time.Now()
	m.reread()
	cmd := m.responseFollows()
	if k.book == nil {
		cmd = tea.Batch(cmd, bookCmd(s.rec, k.replay))
	}
	return m, afterFrame(tea.Batch(cmd, diff))
}

// judgingKey answers x/X while the calls are still being judged: a small
// recording is judged at once; a large one (many calls, or large windows)
// says so rather than "no later call".
func (m *Model) judgingKey(msg tea.KeyMsg) bool {
	s := m.s
	if !key.Matches(msg, m.keys.NextFlagged, m.keys.PrevFlagged) || s.book == nil {
		return false
	}
	if _, done := s.judgements[s.book]; done {
		return false
	}
	if s.smallToJudge() && s.lent != s.book {
		s.file(s.book, judgeAll(s.book, s.calls()))
		return false
	}
	m.flash = "still judging every call's values…"
	return true
}

// askSuggestions starts the search for the call on screen unless it is
// answered or under way; a search for a replay no longer on screen is
// given up.
func (m *Model) askSuggestions() tea.Cmd {
	if m.sugs.gen != m.gen || m.sugs.answers == nil {
		if m.sugs.search != nil {
			m.sugs.search.GiveUp()
		}
		*m.sugs = suggestions{gen: m.gen, answers: map[int]map[string]*advise.Suggestion{}}
	}
	ce := m.s.evidenceAt(m.s.call)
	if g, asked := m.sugAsked[m.s.call]; ce == nil || asked && g == m.gen {
		return nil
	}
	var left []provenance.Entry
	for _, e := range ce.Values {
		if e.Own() == evidence.Left {
			left = append(left, e)
		}
	}
	if len(left) == 0 {
		return nil
	}
	if m.sugAsked == nil {
		m.sugAsked = map[int]int{}
	}
	m.sugAsked[m.s.call] = m.gen
	if m.sugs.search == nil {
		m.sugs.search = advise.ViewSearcher(m.s.view, m.s.replay) // one sweep for every call of this replay
	}
	return suggestCmd(m.gen, m.sugs.search, m.s.rec, agentKey(m.s), left, m.s.call)
}

// suggested files an answer of suggestCmd, if it is for the replay on
// screen.
func (m *Model) suggested(msg suggestedMsg) {
	if msg.gen != m.sugs.gen || m.sugs.answers == nil {
		return
	}
	m.sugs.answers[msg.call] = msg.sugs
	if m.sugs.costs == nil {
		m.sugs.costs = map[model.Policy]advise.Cost{}
	}
	maps.Copy(m.sugs.costs, msg.costs)
	m.resp.refresh()
	if m.list.onResponse() {
		m.syncDetail()
	}
}

// applySuggestion replays the call on screen under the policy found to
// keep a value's source in view: the selected value's in the response block,
// else the first found. The policy is the agent's on screen — the one
// whose call used the value (the screen shows one agent's conversation,
// and the search changed only that agent's policy) — and every knob the
// suggestion moved moves, strategy and threshold too.
func (m Model) applySuggestion() (Model, tea.Cmd) {
	left := m.leftValues()
	if m.overlay == responseOverlay && len(left) > 0 {
		sel := left[min(m.respSel, len(left)-1)]
		left = append([]provenance.Entry{sel}, left...)
	}
	pending := false
	for _, e := range left {
		sug, state := m.sugs.of(m.s.call, e.Value)
		if state == sugFound {
			m.applyPending = false
			m.s.policy = sug.Policy
			if sug.Policy.KeepLastToolResults > 0 {
				m.s.lastPins = sug.Policy.KeepLastToolResults
			}
			m.flash = "applied" + onAgent(m.s) + ": " + sug.Text
			if c, ok := m.sugs.costs[sug.Policy]; ok { // the cost first: a long sentence is cut
				m.flash = "applied" + onAgent(m.s) + " (" + costWords(c) + "): " + sug.Text
			}
			return m.replan()
		}
		pending = pending || state == sugPending
	}
	if pending {
		// not searched yet (the response was never opened): search, then apply
		m.applyOnAnswer, m.applyPending = m.s.call, true
		m.flash = "looking for a policy that would have kept this call's values…"
		return m, m.askSuggestions()
	}
	m.flash = "no suggestion to apply on this call"
	return m, nil
}

// costWords says what a policy costs: "≈41,038 tok vs 34,790 recorded,
// +18.0%; 2 values still out of view, 1 in answers".
func costWords(c advise.Cost) string {
	s := fmt.Sprintf("≈%s tok vs %s recorded, %s", present.Thousands(c.Tokens), present.Thousands(c.Recorded), against(c.Tokens, c.Recorded))
	n := c.OutOfView.Answers + c.OutOfView.Arguments
	if n == 0 {
		return s + "; no value out of view"
	}
	return s + fmt.Sprintf("; %d %s still out of view, %d in answers", n, present.Pick(n == 1, "value", "values"), c.OutOfView.Answers)
}

// onAgent names the agent whose policy the knobs move, when the file
// holds several.
func onAgent(s *session) string {
	if len(s.study.Rec.Agents) < 2 || len(s.rec.Agents) != 1 {
		return ""
	}
	return " to agent " + termtext.Line(s.rec.Agents[0].Key)
}

// convColumn is the left column's width: 0 when it is not shown.
func (m Model) convColumn() int {
	if m.s == nil || m.s.views == nil || len(m.s.views.convs) <= 1 || m.width < convColumnMin {
		return 0
	}
	return convColumnWidth
}

// convColumnMin is the terminal width from which the file's conversations
// are listed in a left column beside the panes (when it holds several).
const (
	convColumnMin   = 170
	convColumnWidth = 34
)
