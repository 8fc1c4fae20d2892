package tui

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// What the search for a policy that would have kept a value found.
const (
	keepPending = iota // not answered yet
	keepFound
	keepNone
)

// keepState is the answers of the "what would have kept it" search for
// the replay on screen: by call, then by value.
type keepState struct {
	gen     int // the replay they were asked for (Model.gen)
	answers map[int]map[string]*provenance.Suggestion
}

func (k keepState) of(call int, value string) (provenance.Suggestion, int) {
	vs, ok := k.answers[call]
	if !ok {
		return provenance.Suggestion{}, keepPending
	}
	if sug := vs[value]; sug != nil {
		return *sug, keepFound
	}
	return provenance.Suggestion{}, keepNone
}

// keptMsg is sent by keepCmd with the suggestions for one call's values
// that left; gen names the replay they were worked out on.
type keptMsg struct {
	gen  int
	call int
	sugs map[string]*provenance.Suggestion
}

// keepCmd searches nearby policies, by replay, for each value of call i
// that left the window: slow (a replay per policy tried), so off the UI
// goroutine. It reads the book it is given and nothing else of the
// session.
func keepCmd(gen int, rec *model.Recording, r *window.Replay, folds *window.FoldBook, vals []provenance.Entry, i int) tea.Cmd {
	return func() tea.Msg {
		strategies := []string{model.SlidingWindow, model.TokenBudget}
		if folds != nil && folds.Folds() > 0 {
			strategies = append(strategies, model.SummarizeOldest)
		}
		search := provenance.NewSearcher(r, func(_ string, p model.Policy) *window.Replay {
			return window.RunFolds(rec, p, folds)
		}, strategies...)
		sugs := map[string]*provenance.Suggestion{}
		for _, e := range vals {
			if sug, ok := search.Keep(i, e); ok {
				sugs[e.Value] = &sug
			}
		}
		return keptMsg{gen: gen, call: i, sugs: sugs}
	}
}

// askKeep starts the search for the call on screen unless it is answered
// or under way.
func (m *Model) askKeep() tea.Cmd {
	if m.keep.gen != m.gen || m.keep.answers == nil {
		*m.keep = keepState{gen: m.gen, answers: map[int]map[string]*provenance.Suggestion{}}
	}
	ce := m.s.evidenceAt(m.s.call)
	if ce == nil || m.keepAsked[m.s.call] == m.gen+1 {
		return nil
	}
	var left []provenance.Entry
	for _, e := range ce.Values {
		if e.Verdict == evidence.Left {
			left = append(left, e)
		}
	}
	if len(left) == 0 {
		return nil
	}
	if m.keepAsked == nil {
		m.keepAsked = map[int]int{}
	}
	m.keepAsked[m.s.call] = m.gen + 1
	return keepCmd(m.gen, m.s.rec, m.s.replay, m.s.inference.Folds, left, m.s.call)
}

// kept files an answer of keepCmd, if it is for the replay on screen.
func (m *Model) kept(msg keptMsg) {
	if msg.gen != m.keep.gen || m.keep.answers == nil {
		return
	}
	m.keep.answers[msg.call] = msg.sugs
	m.resp.refresh()
	if m.list.onResponse() {
		m.syncDetail()
	}
}

// responseKey handles keys while the response block is open: it closes
// with i or esc, scrolls, follows the call keys and the flagged jumps,
// and K applies the suggestion.
func (m Model) responseKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Close, k.Response):
		m.overlay = noOverlay
		return m, nil
	case key.Matches(msg, k.ApplyKeep):
		return m.applyKeep()
	case key.Matches(msg, k.Focus):
		if n := len(m.leftValues()); n > 0 {
			*m.respSel = (*m.respSel + 1) % n
			m.resp.refresh()
		}
		return m, nil
	case key.Matches(msg, k.Confirm):
		return m.toSource(), nil
	case key.Matches(msg, k.FinalAnswer):
		m.goTo(m.finalAnswer())
	case key.Matches(msg, k.PrevCall):
		m.goTo(m.s.call - 1)
	case key.Matches(msg, k.NextCall):
		m.goTo(m.s.call + 1)
	case m.judgingKey(msg):
		return m, nil
	default:
		if j, ok := m.jumpKey(msg); ok {
			m = j
		} else {
			m.resp.Update(msg)
			return m, nil
		}
	}
	*m.respSel = 0
	m.resp.top()
	return m, m.askKeep()
}

// leftValues are the call's values that left the window, in order.
func (m Model) leftValues() []provenance.Entry {
	var out []provenance.Entry
	if ce := m.s.evidenceAt(m.s.call); ce != nil {
		for _, e := range ce.Values {
			if e.Verdict == evidence.Left {
				out = append(out, e)
			}
		}
	}
	return out
}

// toSource closes the response block and goes to the last call whose
// window held the selected value's first source.
func (m Model) toSource() Model {
	left := m.leftValues()
	if len(left) == 0 {
		return m
	}
	e := left[min(*m.respSel, len(left)-1)]
	src := e.Sources[0]
	for i := range m.s.replay.Calls {
		if m.s.replay.Calls[i].Call.Number == src.SentOn[1] {
			m.overlay = noOverlay
			m.goTo(i)
			for _, r := range m.s.rows.Rows() {
				if slices.Contains(r.Messages, src.Message()) && m.list.show(r.Key) {
					m.syncDetail()
					break
				}
			}
			name := "the user's text"
			if src.ToolName != nil {
				name = *src.ToolName + " " + *src.ToolCallID
			}
			m.flash = fmt.Sprintf("call %d: the last call %s (which held %s) was in view; it left at %d (%s)",
				i+1, name, e.Value, onScreen(m.s.replay, src.EvictedAt), src.Rule)
			break
		}
	}
	return m
}

// openResponse shows the response block of the call on screen, over
// its response row (selected, so closing the block shows it there).
func (m Model) openResponse() (Model, tea.Cmd) {
	m.overlay = responseOverlay
	m.list.toResponse()
	m.syncDetail()
	*m.respSel = 0
	m.resp.top()
	return m, m.askKeep()
}

// finalAnswer is the last call of the run on screen whose response asks
// for no tool: the run's final answer (else its last call).
func (m Model) finalAnswer() int {
	cur := m.s.current()
	last := m.s.call
	for i := m.s.call; i < m.s.calls(); i++ {
		c := &m.s.replay.Calls[i]
		if c.Run != cur.Run {
			continue
		}
		last = i
		if len(c.Call.Facts.Response.ToolCalls) == 0 {
			return i
		}
	}
	return last
}

// applyKeep replays the call on screen under the policy found to keep
// a value's source in view: the selected value's in the response block,
// else the first found. The policy is the agent's on screen — the one
// whose call used the value (the screen shows one agent's conversation,
// and the search changed only that agent's policy) — and every knob the
// suggestion moved moves, strategy and threshold too.
func (m Model) applyKeep() (Model, tea.Cmd) {
	left := m.leftValues()
	if m.overlay == responseOverlay && len(left) > 0 {
		sel := left[min(*m.respSel, len(left)-1)]
		left = append([]provenance.Entry{sel}, left...)
	}
	pending := false
	for _, e := range left {
		sug, state := m.keep.of(m.s.call, e.Value)
		if state == keepFound {
			m.applyOnKept = 0
			m.s.policy = sug.Policy
			if sug.Policy.KeepLastToolResults > 0 {
				m.s.lastPins = sug.Policy.KeepLastToolResults
			}
			m.flash = "applied" + onAgent(m.s) + ": " + sug.Text
			return m.replan()
		}
		pending = pending || state == keepPending
	}
	if pending {
		// not searched yet (the response was never opened): search, then apply
		m.applyOnKept = m.s.call + 1
		m.flash = "looking for a policy that would have kept this call's values…"
		return m, m.askKeep()
	}
	m.flash = "no suggestion to apply on this call"
	return m, nil
}

// onAgent names the agent whose policy the knobs move, when the file
// holds several.
func onAgent(s *session) string {
	if s.views == nil || s.views.all == nil || len(s.views.all.Agents) < 2 || len(s.rec.Agents) != 1 {
		return ""
	}
	return " to agent " + termtext.Line(s.rec.Agents[0].Key)
}

// flagged reports whether call i of the replay on screen has a value that
// left the window or was never read; false while that is being worked out.
func (s *session) flagged(i int) bool {
	f := s.judgements[s.book].flags
	return i >= 0 && i < len(f) && f[i]
}

// judgedMsg is sent by judgeCmd with what judging every call of a replay
// found; book names the replay's book. gaveUp: the replay left the
// screen first, and the job stopped (judgement is empty).
type judgedMsg struct {
	book *provenance.Book
	judgement
	gaveUp bool
}

// judgeJob starts judging every call of the replay on screen, once per
// replay; nil when that is done or under way, or a knob was pressed.
func (s *session) judgeJob() tea.Cmd {
	if s == nil || s.book == nil || s.judging[s.book] || s.replaying {
		return nil // (while a replay is under way, its book comes next)
	}
	if wait := judgeWait - time.Since(s.shownAt); s.calls() >= judgeWaitCalls && wait > 0 {
		if s.judgeTick {
			return nil
		}
		s.judgeTick = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return judgeSoonMsg{} })
	}
	if s.judging == nil {
		s.judging = map[*provenance.Book]bool{}
	}
	s.judging[s.book] = true
	if _, done := s.judgements[s.book]; done {
		return nil
	}
	stop := &atomic.Bool{}
	if s.judgeStops == nil {
		s.judgeStops = map[*provenance.Book]*atomic.Bool{}
	}
	s.judgeStops[s.book] = stop
	return judgeCmdUntil(s.book, s.rec, s.replay, stop)
}

// A long run's judge pass (seconds of work at 50,000 calls) starts only
// once the user's replay has been on screen judgeWait: a user pressing a
// knob again and again would otherwise start one each time, each
// competing with the next replay until the key stops it.
const (
	judgeWait      = 700 * time.Millisecond
	judgeWaitCalls = 5000
)

// judgeSoonMsg is sent when a long run's judge pass may start.
type judgeSoonMsg struct{}

// dropJudges stops the judge jobs of the replays no longer on screen, or
// about to leave it (a knob pressed: a replay under way), so that a pass
// over the whole run (seconds at call 50,000) does not compete with the
// next replay; such a replay is judged afresh if it comes back. It lets
// go of the judgements of books no longer on screen, kept or made ahead:
// each holds its replay (some 50 MB at call 50,000), and a user pressing
// knob after knob would otherwise keep every replay they ever saw.
func (s *session) dropJudges() {
	if s == nil {
		return
	}
	for b, stop := range s.judgeStops {
		if b != s.book || s.replaying {
			stop.Store(true)
			delete(s.judgeStops, b)
			delete(s.judging, b)
		}
	}
	maps.DeleteFunc(s.judging, func(b *provenance.Book, _ bool) bool { return !s.bookKept(b) })
	maps.DeleteFunc(s.judgements, func(b *provenance.Book, _ judgement) bool { return !s.bookKept(b) })
}

// bookKept says whether b is the book of a replay the session still
// holds: on screen, the recorded one, kept, or made ahead.
func (s *session) bookKept(b *provenance.Book) bool {
	if b == s.book || b == s.recordedBook {
		return true
	}
	has := func(k keptReplay) bool { return k.book == b }
	return slices.ContainsFunc(s.kept, has) || slices.ContainsFunc(s.next, has)
}

// judgeCmd judges every call with a book of its own (a Book is not shared
// between goroutines): a whole-recording pass, off the UI goroutine.
func judgeCmd(key *provenance.Book, rec *model.Recording, r *window.Replay) tea.Cmd {
	return judgeCmdUntil(key, rec, r, nil)
}

// judgeCmdUntil is judgeCmd, which gives up as soon as stop says so.
func judgeCmdUntil(key *provenance.Book, rec *model.Recording, r *window.Replay, stop *atomic.Bool) tea.Cmd {
	return func() tea.Msg {
		b := provenance.Walk(rec, r) // every call once, in order: the export's way, values told ahead
		defer b.Stop()
		j, done := judgeUntil(b, len(r.Calls), stop)
		return judgedMsg{book: key, judgement: j, gaveUp: !done}
	}
}

// judged files what judgeCmd found.
func (s *session) judged(msg judgedMsg) {
	if s != nil && !msg.gaveUp {
		delete(s.judgeStops, msg.book)
		s.file(msg.book, msg.judgement)
	}
}

// file keeps the judgement of book.
func (s *session) file(book *provenance.Book, j judgement) {
	if s.judgements == nil {
		s.judgements = map[*provenance.Book]judgement{}
	}
	s.judgements[book] = j
}

// responseFollows brings the open response block up to the replay on
// screen and asks for its suggestions.
func (m *Model) responseFollows() tea.Cmd {
	if m.overlay != responseOverlay {
		return nil
	}
	m.resp.refresh()
	return m.askKeep()
}

// top shows the start of the pane's text, rebuilt.
func (p *textPane) top() {
	p.refresh()
	p.vp.GotoTop()
}

// smallJudge is how many calls are judged at once on a key press when
// the background pass has not answered yet (a few milliseconds' work).
const smallJudge = 300

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
	if s.smallToJudge() {
		s.file(s.book, judgeAll(s.book, s.calls()))
		return false
	}
	m.flash = "still judging every call's values…"
	return true
}
