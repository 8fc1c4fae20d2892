package tui

import (
	"fmt"
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
)

// The "what would have kept it" search (K applies what it found): for
// each value of the call on screen that left the window, the smallest
// change of its agent's policy under which a source of it is in view on
// that call — advise's Searcher, over a sweep of the conversation on
// screen, off the UI goroutine.

// What the search for a value found.
const (
	sugPending = iota // not answered yet
	sugFound
	sugNone
)

// suggestions are the search's answers for the replay on screen: by
// call, then by value.
type suggestions struct {
	gen     int // the replay they were asked for (Model.gen)
	answers map[int]map[string]*advise.Suggestion
	search  *advise.Searcher // the last search started, given up when the replay changes
	// keepsAll names the advisor's policy that keeps every value of the
	// agent on screen in view, when the advisor has found one ("" else):
	// a value no nearby policy keeps says that one does (it is further)
	keepsAll string
	costs    map[model.Policy]advise.Cost // what each policy found costs (K says it)
}

func (k suggestions) of(call int, value string) (advise.Suggestion, int) {
	vs, ok := k.answers[call]
	if !ok {
		return advise.Suggestion{}, sugPending
	}
	if sug := vs[value]; sug != nil {
		return *sug, sugFound
	}
	return advise.Suggestion{}, sugNone
}

// suggestedMsg is sent by suggestCmd with the suggestions for one call's
// values that left; gen names the replay they were worked out on.
type suggestedMsg struct {
	gen   int
	call  int
	sugs  map[string]*advise.Suggestion
	costs map[model.Policy]advise.Cost // what each policy found costs
}

// suggestCmd searches nearby policies, by replay, for each value of call
// i that left the window: slow (a replay per policy tried), so off the
// UI goroutine. It reads the searcher it is given and nothing else of
// the session.
func suggestCmd(gen int, search *advise.Searcher, rec *model.Recording, agent string, vals []provenance.Entry, i int) tea.Cmd {
	return func() tea.Msg {
		sugs := map[string]*advise.Suggestion{}
		costs := map[model.Policy]advise.Cost{}
		for _, e := range vals {
			if sug, ok := search.Keep(i, e); ok {
				sugs[e.Value] = &sug
				if _, done := costs[sug.Policy]; !done {
					if c, ok := search.CostOf(rec, agent, sug.Policy); ok {
						costs[sug.Policy] = c
					}
				}
			}
		}
		return suggestedMsg{gen: gen, call: i, sugs: sugs, costs: costs}
	}
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
