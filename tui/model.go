package tui

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/advisor"
	"github.com/afinspect/inspect/tui/components/detail"
	"github.com/afinspect/inspect/tui/components/header"
	"github.com/afinspect/inspect/tui/components/picker"
	"github.com/afinspect/inspect/tui/components/policybar"
	"github.com/afinspect/inspect/tui/components/response"
	"github.com/afinspect/inspect/tui/components/search"
	"github.com/afinspect/inspect/tui/components/textpane"
	"github.com/afinspect/inspect/tui/components/timeline"
	"github.com/afinspect/inspect/tui/components/transcript"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/theme"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

var (
	_ common.Component = (*header.Header)(nil)
	_ common.Component = (*turnlist.TurnList)(nil)
	_ common.Component = (*detail.Pane)(nil)
	_ common.Component = (*policybar.PolicyBar)(nil)
	_ common.Component = (*textpane.TextPane)(nil)
	_ common.Component = (*timeline.Timeline)(nil)
	_ common.Component = (*search.Search)(nil)
	_ common.Component = (*transcript.Transcript)(nil)
)

// Model is the root of the program: it owns the session, routes keys to
// the components, and lays them out.
type Model struct {
	cfg  Config
	st   *theme.Styles
	keys keys.KeyMap
	// c is what every component is given: the style sheet, the keys and
	// the session, one for all (loaded changes its session)
	c *common.Common
	s *session.Session // nil until the recording is loaded
	// lastKnob is the last knob moved (NoKnob before any): moved again,
	// its policy is the one replayed ahead first (session/replays.go)
	lastKnob session.Knob
	// lastInput is when the user last pressed a key or used the mouse
	lastInput time.Time

	header   *header.Header
	timeline *timeline.Timeline
	search   *search.Search
	trans    *transcript.Transcript // the v overlay
	list     *turnlist.TurnList
	detail   *detail.Pane
	bar      *policybar.PolicyBar
	problems *textpane.TextPane // the ! overlay
	keyhelp  *textpane.TextPane // the ? overlay
	resp     *textpane.TextPane // the i overlay: the response and its values
	picker   *picker.Picker     // the w overlay: agents, conversations, runs
	recWin   *textpane.TextPane // the W overlay: the recorded window beside the replay
	sinceWin *textpane.TextPane // the u overlay: what changed since the previous call

	adv *advisor.Pane // the P overlay: the policy advisor

	// sugs holds the answers of the "what would have kept it" search;
	// sugAsked, by call, the replay generation each was asked for
	sugs     *session.Suggestions
	sugAsked map[int]int
	// applyOnAnswer (when applyPending) is the call whose suggestion K asked for before
	// the search had answered: it is applied when the answer comes
	applyOnAnswer int
	applyPending  bool
	respSel       int // the selected value that left, in the response block
	help          help.Model
	spin          spinner.Model

	overlay  overlay
	mouseOff bool     // m gave the mouse to the terminal
	watch    watch    // the file on disk: followed, or grown since it was read
	flash    string   // a one-time answer to the last key ("no later eviction"), in the footer
	prompt   bool     // the go-to-call prompt is open
	marks    *marks   // m and a letter; shared by the model's copies
	markWait markWait // the key after m or ' names a mark
	digits   string   // typed into it so far
	// pendingFileCall is the file's call a go-to (:f20) asked for in a
	// conversation being opened; 0 for none
	pendingFileCall int
	// xArgs: x and X stop on calls whose tool calls' arguments hold a
	// flagged value too, not only their answers (I)
	xArgs         bool
	width, height int
	gen           int // counts replay requests; only the latest answer is used
	err           error
	stream        *streaming // while a Stream is being read; nil after
	quitting      bool       // q was pressed: the last frame is empty
	// hold: this update only started a replay (replan), and its frame is
	// the one before (layout.go: the held frame)
	hold  bool
	frame *lastFrame
}

// New is the root model for cfg; nothing is loaded until Init's command
// runs.
func New(cfg Config) Model {
	st, keys := theme.DefaultStyles(), keys.DefaultKeyMap()
	if cfg.Keys != nil {
		keys = *cfg.Keys
	}
	c := &common.Common{Styles: st, Keys: keys}
	sp := spinner.New(spinner.WithSpinner(spinner.Dot))
	m := Model{
		cfg: cfg, st: st, keys: keys, c: c, frame: &lastFrame{},
		header:   header.New(c, cfg.Name),
		timeline: timeline.New(c),
		search:   search.New(c),
		trans:    transcript.New(c),
		list:     turnlist.New(c),
		detail:   detail.New(c),
		bar:      policybar.New(c),
		help:     newHelp(st),
		spin:     sp,
	}
	m.watch.follow = cfg.Follow
	m.marks = &marks{at: map[rune]markedCall{}}
	mk := m.marks
	m.keyhelp = textpane.New(c, func(w int) string { return helpText(m.help, st, keys, w, mk) })
	m.problems = textpane.New(c, func(int) string { return "" })
	m.resp = textpane.New(c, func(int) string { return "" })
	m.picker = picker.New(c)
	m.recWin = textpane.New(c, func(int) string { return "" })
	m.sinceWin = textpane.New(c, func(int) string { return "" })
	m.adv = advisor.New(c)
	m.sugs, m.sugAsked = &session.Suggestions{}, map[int]int{}
	return m
}

func (m Model) Init() tea.Cmd {
	if m.cfg.Open != nil {
		open := m.cfg.Open
		return tea.Batch(func() tea.Msg { return streamOpenedMsg{open()} }, m.spin.Tick)
	}
	return tea.Batch(session.LoadCmd(m.cfg.source()), m.spin.Tick)
}

// streamOpenedMsg is sent by Init's command once Config.Open has started
// reading.
type streamOpenedMsg struct{ src *session.Stream }

// mine is the policy the user set, when they moved a knob; nil otherwise.
func (m Model) mine() *model.Policy {
	if m.s == nil || !m.s.Moved() {
		return nil
	}
	p := m.s.Policy
	return &p
}

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.hold = false // a message's own frame, unless it only starts a replay
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case spinner.TickMsg:
		if m.s != nil && !m.s.Replaying {
			return m, nil // nothing to wait for: let the ticks stop
		}
		m.spin, cmd = m.spin.Update(msg)
	case tea.KeyMsg:
		m.lastInput = time.Now()
		m, cmd = m.keys1by1(msg)
	case tea.MouseMsg:
		m.lastInput = time.Now()
		m = m.mouse(msg)
	default:
		var now bool
		if m, cmd, now = m.answer(msg); now {
			return m, cmd // nothing on screen changed: no layout, no job
		}
	}
	m = m.layout()
	return m, tea.Batch(cmd, m.jobs())
}

// keys1by1 handles a key message one key at a time: a terminal read can
// hold several typed runes ("lll" when l is held down), and each one is
// a key press of its own.
func (m Model) keys1by1(msg tea.KeyMsg) (Model, tea.Cmd) {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste {
		return m.key(msg)
	}
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		var cmd tea.Cmd
		m, cmd = m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// adopt puts a freshly prepared recording on screen — the first, a larger
// part of a stream, or the whole of it — keeping the call and the turn
// the user was on, and the policy they set.
func (m Model) adopt(msg session.LoadedMsg) (Model, tea.Cmd) {
	old := m.s
	s := session.New(m.cfg.Name, msg)
	if old == nil {
		m = m.loaded(s)
		return m, nil
	}
	k := m.list.SelectedKey()
	s.Call = min(old.Call, max(0, s.Calls()-1))
	s.LastPins = old.LastPins
	s.Refresh()
	m = m.loaded(s)
	m.list.Reselect(k)
	m.syncDetail()
	if old.Moved() && s.Policy != old.Policy {
		// the user moved a knob after this was prepared: replay theirs
		s.Policy = old.Policy
		return m.replan()
	}
	return m, nil
}

// loaded hands the session to every component.
func (m Model) loaded(s *session.Session) Model {
	if m.s != nil && m.s != s {
		m.s.GiveUpAll()
	}
	m.s, m.c.Session = s, s
	st := m.st
	m.problems.Text = func(w int) string { return problemsText(s, st, w) }
	m = m.selectValue(m.respSel)
	sugs, adv := m.sugs, m.adv
	m.detail.RespText = func(w int) string { return response.Text(s, st, withAdvice(sugs, adv, s), -1, w) }
	m.list.Land()
	m.problems.Refresh()
	m.syncDetail()
	return m
}

// withAdvice is the suggestions with the advisor's keeps-everything
// pick for the agent on screen, when it has one.
func withAdvice(sugs *session.Suggestions, adv *advisor.Pane, s *session.Session) session.Suggestions {
	sg := *sugs
	sg.KeepsAll = adv.KeepsAllFor(s)
	return sg
}

// selectValue selects the i-th value that left in the response block:
// its text is drawn with that selection from now on.
func (m Model) selectValue(i int) Model {
	m.respSel = i
	s, st, sugs, adv := m.s, m.st, m.sugs, m.adv
	m.resp.Text = func(w int) string { return response.Text(s, st, withAdvice(sugs, adv, s), i, w) }
	return m
}

// reread follows a new replay of the same call: the turn the user chose
// stays selected when it is still there; the detail and problems are
// brought up to date.
func (m Model) reread() {
	k := m.list.SelectedKey()
	m.s.Refresh()
	m.list.Reselect(k)
	m.problems.Refresh()
	m.syncDetail()
}

// syncDetail shows in the detail what the list's cursor is on.
func (m Model) syncDetail() {
	if m.detail.Request {
		m.detail.ShowRequest()
		return
	}
	if m.list.OnResponse() {
		m.detail.ShowResponse()
		return
	}
	if f, ok := m.list.SelectedFold(); ok {
		m.detail.ShowNote(fmt.Sprintf("%d turns that left at calls %d–%d, folded so the list stays short. enter opens them; z hides every gone turn.",
			f.N, m.s.Rows.At(f.Row).LeftAt+1, turnlist.LastLeft(m.s.Rows, f.Row, f.N)+1))
		return
	}
	m.detail.Show(m.list.Selected())
}

// spinSoon starts the spinner at its second frame: the first shows with
// the key's own frame, and a tick at once would draw the whole screen
// again while a long replay wants both cores.
func (m Model) spinSoon() tea.Cmd {
	tick := m.spin.Tick
	return tea.Tick(spinStart, func(time.Time) tea.Msg { return tick() })
}

// spinStart is when the spinner's second frame comes (tests set 0: they
// run no clocks).
var spinStart = time.Second / 10

// replan reruns the replay after a knob moved. Back on the recorded
// policy, the recorded replay is reused at once, and a held one (session/replays.go)
// likewise. The replays made ahead from the policy before, which no knob
// key gives from this one, are let go.
func (m Model) replan() (Model, tea.Cmd) {
	m.gen++
	m.s.GiveUp()
	defer m.letGoAhead() // once the one for this policy, if any, is held
	if !m.s.Changed() {
		m.s.Replay, m.s.Replaying, m.s.Book = m.s.Recorded, false, m.s.RecordedBook
		m.reread()
		return m, m.responseFollows()
	}
	if k := m.s.MadeFor(m.s.Policy); k != nil {
		return m.show(*k) // held since the user set it, or replayed ahead
	}
	m.s.Replaying, m.hold = true, true
	if m.s.AheadFor != nil && *m.s.AheadFor == m.s.Policy {
		return m, m.spinSoon() // its replay is under way ahead (aheadBack shows it)
	}
	m.s.QuitReplay = &atomic.Bool{}
	return m, tea.Batch(session.ReplayCmd(m.gen, m.s.View, m.s.Policy, m.timeline.Cells(), m.s.QuitReplay), m.spinSoon())
}

// requestHeight is the request line's height, when shown.
const requestHeight = 1

// showRequest: the request line is on screen, between the timeline and
// the panes, while the recording is, the terminal has room, and what
// covers the panes is the call's (not the help, the problems, the picker
// or the advisor, which keep their lines).
func (m Model) showRequest() bool {
	switch m.overlay {
	case helpOverlay, problemsOverlay, pickerOverlay, advisorOverlay:
		return false
	}
	return m.s != nil && m.s.Calls() > 0 && m.height >= 20
}

// openRequest shows the request of the call on screen in the detail, or
// the turn again when it is shown.
func (m Model) openRequest() {
	m.detail.Request = !m.detail.Request
	m.detail.ReqFocus = -1
	m.syncDetail()
	if m.detail.Request {
		m.detail.Top()
	}
}

// requestFromResponse is S over the response block: the block closes and
// the request opens at the system-prompt piece that holds the first
// user-supplied value of the call's response (docs/rules/evidence.md §5: the
// system prompt is user-supplied text), or at its top when none does.
func (m Model) requestFromResponse() Model {
	m.overlay = noOverlay
	m.detail.Request = false
	m.openRequest()
	if c := m.s.Current(); c != nil {
		if ce := m.s.EvidenceAt(m.s.Call); ce != nil {
			for _, e := range ce.Values {
				if i, ok := present.PieceHolding(c.Call.Request, e.Own(), e.Value); ok {
					m.detail.ReqFocus = i
					m.detail.ShowRequest()
					break
				}
			}
		}
	}
	return m
}
