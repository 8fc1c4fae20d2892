package tui

import (
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/afinspect/inspect/tui/components/advisor"
	"github.com/afinspect/inspect/tui/components/detail"
	"github.com/afinspect/inspect/tui/components/search"
	"github.com/afinspect/inspect/tui/components/transcript"
	"github.com/afinspect/inspect/tui/external"
	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The root's side of the background work: when to start a job from what
// the screen shows, and what to do with its answer. The jobs themselves
// and the state they report into are the session's.

// idleWork asks for an idleMsg when there is work to do while the user
// reads a settled screen (idleTask); nil when there is none or one is on
// its way.
func (m Model) idleWork() tea.Cmd {
	if m.s == nil || m.s.IdleTick {
		return nil
	}
	if ahead, collect := m.idleTask(); ahead == nil && !collect {
		return nil
	}
	m.s.IdleTick = true
	wait := session.IdleDelay - time.Since(m.lastInput)
	return tea.Tick(max(wait, time.Millisecond), func(time.Time) tea.Msg { return session.IdleMsg{} })
}

// idle starts the work idleWork asked for, unless a key came since (then
// it asks again).
func (m Model) idle() tea.Cmd {
	s := m.s
	if s == nil {
		return nil
	}
	s.IdleTick = false
	if time.Since(m.lastInput) < session.IdleDelay {
		return m.idleWork()
	}
	ahead, collect := m.idleTask()
	switch {
	case ahead != nil:
		s.AheadFor, s.QuitAhead = ahead, &atomic.Bool{}
		return session.AheadCmd(s.View, s.Recorded, *ahead, m.timeline.Cells(), s.QuitAhead)
	case collect:
		s.Dirty = false
		return session.CollectCmd(s.Calls())
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
func (m Model) idleTask() (ahead *model.Policy, collect bool) {
	s := m.s
	if s == nil || m.stream != nil || s.Replaying || s.AheadFor != nil || s.Calls() < session.AheadMin || s.Book == nil {
		return nil, false
	}
	if session.RecentReplays > 0 && m.lastKnob != session.NoKnob {
		for _, p := range m.aheadPolicies() {
			if s.MadeFor(p) == nil {
				return &p, false
			}
		}
	}
	if !s.JudgedBook() {
		return nil, s.Dirty && !s.Judging[s.Book]
	}
	return nil, s.Dirty
}

// letGoAhead lets go of the replays made ahead that no knob key gives
// from the screen's policy (replan calls it once the policy moved).
func (m Model) letGoAhead() {
	switch {
	case m.s == nil:
	case m.lastKnob == session.NoKnob:
		m.s.Ahead = nil
	default:
		want := m.aheadPolicies()
		m.s.Ahead = slices.DeleteFunc(m.s.Ahead, func(n session.MadeReplay) bool { return !slices.Contains(want, n.Policy) })
	}
}

// aheadPolicies are the policies replayed ahead from the screen's, most
// likely first: the last knob's again, then keepRecentTurns ±1,
// keepLastToolResults ±1 and pins on/off; each
// once, none on screen, recorded (the recorded replay is shown at
// once) or held as one the user set, at most aheadMax. (a s t T change the anchor, the strategy
// and its threshold: rarer, and a summary's replay is not split.)
func (m Model) aheadPolicies() []model.Policy {
	s := m.s
	var out []model.Policy
	for _, kn := range []session.Knob{m.lastKnob, session.RecentMore, session.RecentLess, session.PinsMore, session.PinsLess, session.TogglePins} {
		p, _, ok := session.Step(s.Policy, s.LastPins, s.Agent, kn)
		if ok && p != s.Policy && p != s.Agent.Recorded && !s.SetBefore(p) && !slices.Contains(out, p) && len(out) < session.AheadMax {
			out = append(out, p)
		}
	}
	return out
}

// aheadBack holds a replay made ahead, and shows it when the user has
// asked for its policy meanwhile (replan waits for it then).
func (m Model) aheadBack(msg session.AheadMsg) (Model, tea.Cmd) {
	s := m.s
	if s == nil || s.View != msg.View || s.AheadFor == nil || *s.AheadFor != msg.Policy {
		return m, nil // another recording or conversation is on screen
	}
	s.AheadFor, s.Dirty = nil, true
	if msg.Replay == nil {
		return m, nil // given up: the user went elsewhere
	}
	k := session.MadeReplay{Policy: msg.Policy, Replay: msg.Replay, Diff: msg.Diff, Cells: msg.Cells}
	s.HoldAhead(k)
	if s.Replaying && s.Policy == msg.Policy {
		return m.show(k)
	}
	return m, nil
}

// show puts a replay under the session's policy on screen: a fresh one,
// or a held one (with its book, when made).
func (m Model) show(k session.MadeReplay) (Model, tea.Cmd) {
	s := m.s
	s.Remember(k) // now a policy the user set
	s.Booked(k.Replay, k.Book)
	s.Replay, s.Replaying, s.Book, s.Diff = k.Replay, false, k.Book, k.Diff
	var diff tea.Cmd
	if k.Diff == nil && s.Diffing != k.Replay {
		s.Diffing, diff = k.Replay, session.DiffCmd(s.Recorded, k.Replay) // the frame does not wait for it
	}
	if k.Cells != nil {
		m.timeline.Adopt(k.Cells)
	}
	s.ShownAt = time.Now()
	m.reread()
	cmd := m.responseFollows()
	if k.Book == nil {
		cmd = tea.Batch(cmd, s.BookFor(k.Replay))
	}
	return m, session.AfterFrame(tea.Batch(cmd, diff))
}

// stillJudging reports whether x/X must wait for the calls to be judged:
// a small recording is judged at once; for a large one (many calls, or
// large windows) the footer says so rather than "no later call".
func (m Model) stillJudging(msg tea.KeyMsg) bool {
	s := m.s
	if !key.Matches(msg, m.keys.NextFlagged, m.keys.PrevFlagged) || s.Book == nil {
		return false
	}
	if _, done := s.Judgements[s.Book]; done {
		return false
	}
	if s.SmallToJudge() && s.Lent != s.Book {
		s.File(s.Book, session.JudgeAll(s.Book, s.Calls()))
		return false
	}
	return true
}

// judgingWords is the footer's answer to x or X while the calls are
// still being judged.
const judgingWords = "still judging every call's values…"

// askSuggestions starts the search for the call on screen unless it is
// answered or under way; a search for a replay no longer on screen is
// given up.
func (m Model) askSuggestions() tea.Cmd {
	if m.sugs.Gen != m.gen || m.sugs.Answers == nil {
		if m.sugs.Search != nil {
			m.sugs.Search.GiveUp()
		}
		*m.sugs = session.Suggestions{Gen: m.gen, Answers: map[int]map[string]*session.Suggestion{}}
	}
	ce := m.s.EvidenceAt(m.s.Call)
	if g, asked := m.sugAsked[m.s.Call]; ce == nil || asked && g == m.gen {
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
	m.sugAsked[m.s.Call] = m.gen // a map New made: shared by the model's copies
	if m.sugs.Search == nil {
		m.sugs.Search = m.s.NewSearcher() // one sweep for every call of this replay
	}
	return session.SuggestCmd(m.gen, m.sugs.Search, m.s.Rec, session.AgentKey(m.s), left, m.s.Call)
}

// suggested files an answer of suggestCmd, if it is for the replay on
// screen.
func (m Model) suggested(msg session.SuggestedMsg) {
	if msg.Gen != m.sugs.Gen || m.sugs.Answers == nil {
		return
	}
	m.sugs.Answers[msg.Call] = msg.Sugs
	if m.sugs.Costs == nil {
		m.sugs.Costs = map[model.Policy]session.Cost{}
	}
	maps.Copy(m.sugs.Costs, msg.Costs)
	m.resp.Refresh()
	if m.list.OnResponse() {
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
		sug, state := m.sugs.Of(m.s.Call, e.Value)
		if state == session.SugFound {
			m.applyPending = false
			m.s.Policy = sug.Policy
			if sug.Policy.KeepLastToolResults > 0 {
				m.s.LastPins = sug.Policy.KeepLastToolResults
			}
			m.flash = "applied" + onAgent(m.s) + ": " + sug.Text
			if c, ok := m.sugs.Costs[sug.Policy]; ok { // the cost first: a long sentence is cut
				m.flash = "applied" + onAgent(m.s) + " (" + advisor.CostWords(c) + "): " + sug.Text
			}
			return m.replan()
		}
		pending = pending || state == session.SugPending
	}
	if pending {
		// not searched yet (the response was never opened): search, then apply
		m.applyOnAnswer, m.applyPending = m.s.Call, true
		m.flash = "looking for a policy that would have kept this call's values…"
		return m, m.askSuggestions()
	}
	m.flash = "no suggestion to apply on this call"
	return m, nil
}

// onAgent names the agent whose policy the knobs move, when the file
// holds several.
func onAgent(s *session.Session) string {
	if len(s.Study.Rec.Agents) < 2 || len(s.Rec.Agents) != 1 {
		return ""
	}
	return " to agent " + termtext.Line(s.Rec.Agents[0].Key)
}

// convColumn is the left column's width: 0 when it is not shown.
func (m Model) convColumn() int {
	if m.s == nil || m.s.Views == nil || len(m.s.Views.Convs) <= 1 || m.width < convColumnMin {
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

// answer is what the model does with a job's answer (session.*), the
// stream's and the file's news, and what comes back from outside (the
// pager, the editor, the clipboard, fg); now says it is answered in full
// and the screen need not be laid out again.
func (m Model) answer(msg tea.Msg) (_ Model, cmd tea.Cmd, now bool) {
	switch msg := msg.(type) {
	case streamOpenedMsg:
		m.stream = newStreaming(msg.src)
		cmd = m.stream.tick(m.cfg, nil)
	case streamTickMsg:
		if m.stream != nil {
			cmd = m.stream.tick(m.cfg, m.mine())
		}
	case session.PartialMsg:
		if m.stream == nil {
			return m, nil, true // the whole recording is already on screen
		}
		m.stream.partialBack(msg.Calls, msg.Study)
		m, cmd = m.adopt(msg.LoadedMsg)
		cmd = tea.Batch(cmd, m.stream.finalNow(m.cfg, m.mine())) // the load may have ended meanwhile
	case session.LoadedMsg:
		if msg.Err != nil {
			m.err = msg.Err
			m.header.Failed(msg.Err)
			return m, tea.Quit, true
		}
		var src *session.Stream
		if m.stream != nil {
			src = m.stream.src
		}
		m.stream = nil
		m, cmd = m.adopt(msg)
		var watch tea.Cmd
		m, watch = m.startWatching(src)
		cmd = tea.Batch(cmd, watch)
	case session.FileLookMsg:
		m, cmd = m.looked(msg)
	case session.ReloadedMsg:
		m, cmd = m.reloaded(msg)
	case detail.RenderedMsg:
		m.detail.Rendered(msg)
	case session.ReplayedMsg:
		if m.s == nil || m.s.View != msg.View {
			return m, nil, true // another conversation is on screen
		}
		m.s.Dirty = true
		if msg.Replay == nil {
			return m, nil, true // given up for a newer key's
		}
		if msg.Gen != m.gen {
			m.s.Remember(session.MadeReplay{Policy: msg.Policy, Replay: msg.Replay, Cells: msg.Cells}) // set, and left at once: held for a way back
			return m, nil, true                                                                        // a later change is on its way
		}
		m, cmd = m.show(session.MadeReplay{Policy: msg.Policy, Replay: msg.Replay, Cells: msg.Cells})
	case session.DiffedMsg:
		if m.s != nil {
			m.s.Diffed(msg.Replay, msg.Diff)
		}
	case session.AheadMsg:
		m, cmd = m.aheadBack(msg)
	case session.IdleMsg:
		cmd = m.idle()
	case session.CollectedMsg:
	case session.BookMsg:
		if msg.Book == nil { // given up: a knob key left its replay
			if m.s != nil && m.s.Replay == msg.Replay && m.s.Book == nil && !m.s.Replaying {
				cmd = m.s.BookFor(msg.Replay) // it is on screen again all the same
			}
			return m, cmd, true
		}
		if m.s != nil {
			m.s.Booked(msg.Replay, msg.Book)
			m.s.Dirty = true
		}
		if m.s == nil || m.s.Replay != msg.Replay {
			return m, nil, true // another replay is on screen
		}
		m.s.Book = msg.Book
		m.syncDetail()
		cmd = m.responseFollows()
	case session.SuggestedMsg:
		m.suggested(msg)
		if m.applyPending && m.applyOnAnswer == msg.Call && msg.Gen == m.gen && m.s != nil && m.s.Call == msg.Call {
			m.applyPending = false
			m, cmd = m.applySuggestion()
		}
	case session.JudgeSoonMsg:
		if m.s != nil {
			m.s.JudgeTick = false // the tail below starts the judge pass, if still wanted
		}
	case session.EvidenceMsg:
		m.s.Evidenced(msg)
		if m.s != nil && m.s.Book == msg.Book {
			m.s.Dirty = true
			m.syncDetail()
			cmd = m.responseFollows()
		}
	case session.JudgedMsg:
		m.s.Judged(msg)
		m.s.Dirty = true
		m.syncDetail() // a tool turn's strip marks the calls that used it
	case session.ViewMsg:
		m = m.viewed(msg)
	case session.AdviseProgressMsg:
		cmd = m.adv.Progressed(msg)
	case session.AdvisedMsg:
		m.adv.Answered(msg)
	case search.Msg:
		m = m.searched(msg)
	case transcript.Msg:
		m.trans.Rendered(msg)
	case external.PagerFileMsg:
		switch {
		case msg.Err != nil && msg.Path != "":
			external.Temps.Remove(msg.Path)
			fallthrough
		case msg.Err != nil:
			m.flash = "could not open the file: " + msg.Err.Error()
		case msg.Editor:
			cmd = external.OpenEditor(msg.Path)
		default:
			cmd = external.OpenPager(msg.Path)
		}
	case tea.ResumeMsg: // fg after Ctrl-Z: the terminal comes back without the mouse
		if !m.mouseOff {
			cmd = tea.EnableMouseCellMotion
		}
	case external.PagerDoneMsg:
		external.Temps.Remove(msg.Path)
		if msg.Err != nil {
			m.flash = "the pager: " + msg.Err.Error()
		}
		if !m.mouseOff {
			cmd = tea.EnableMouseCellMotion // the terminal comes back from the pager without it
		}
	case external.CopiedMsg:
		m.flash = external.CopiedText(msg)
	}
	return m, cmd, false
}

// jobs starts what the screen now wants done off the UI goroutine: the
// turn's render, the whole-run judge pass, the suggestions for the
// response row, the evidence, the advisor's sweep, and idle work.
func (m Model) jobs() tea.Cmd {
	var cmd tea.Cmd
	if job := m.detail.TakeJob(); job != nil {
		cmd = tea.Batch(cmd, job)
	}
	// the whole-run evidence pass waits for the whole run: a partial
	// load's would be thrown away, and would compete with the decoders
	if m.stream == nil {
		m.s.DropJudges()
		if m.s != nil {
			m.s.Growing = m.watch.follow
		}
		if job := m.s.JudgeJob(); job != nil {
			cmd = tea.Batch(cmd, job)
		}
	}
	if m.s != nil && m.list.OnResponse() && !m.s.Replaying {
		cmd = tea.Batch(cmd, m.askSuggestions()) // the response row shows the suggestions
	}
	cmd = tea.Batch(cmd, m.s.EvidenceJob())
	cmd = tea.Batch(cmd, m.advisorFollows())
	return tea.Batch(cmd, m.idleWork())
}
