package tui

import (
	"io"
	"os"
	"strconv"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/search"
	"github.com/afinspect/inspect/tui/external"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/keys"
)

// key routes one key press: ctrl+c always quits, q from the main screen
// (over an overlay it closes the overlay, as esc does: less, k9s and
// lazygit close a view so), and so do esc and the key that opened it;
// the prompt and the overlays take their own keys first; then calls,
// knobs, focus, and the focused component.
func (m Model) key(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	typing := m.prompt || m.search.Typing || m.overlay == pickerOverlay && m.picker.Typing()
	quit := msg.String() == "ctrl+c" || (!typing && key.Matches(msg, k.Quit))
	switch {
	case quit && msg.String() != "ctrl+c" && m.s != nil && m.overlay != noOverlay:
		m.overlay = noOverlay
		return m, nil
	case quit:
		m.quitting = true
		return m, tea.Quit
	case m.s == nil:
		return m, nil // still loading
	case m.prompt:
		return m.promptKey(msg)
	case m.search.Typing:
		return m.searchKey(msg)
	case m.markWait != noMarkWait:
		return m.markKey(msg)
	case m.overlay != noOverlay:
		return m.overlayRoute(msg)
	}
	m.flash = ""
	if m.stillJudging(msg) {
		m.flash = judgingWords
		return m, nil
	}
	if j, ok := m.jumpKey(msg); ok {
		return j, nil
	}
	for _, keys := range []func(Model, tea.KeyMsg) (Model, tea.Cmd, bool){Model.findKey, Model.viewKey, Model.outKey} {
		if next, cmd, ok := keys(m, msg); ok {
			return next, cmd
		}
	}
	return m.moveKey(msg)
}

// overlayRoute hands a key to the overlay on screen, or closes it.
func (m Model) overlayRoute(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case m.overlay == pickerOverlay && (m.picker.Typing() || m.picker.Escapable() && key.Matches(msg, k.Close)):
		return m.pickerKey(msg) // a filter takes every key; esc leaves the runs, then clears the filter, before it closes the picker
	case key.Matches(msg, k.Close, opener(k, m.overlay)):
		// an advisor's sweep under way is given up (advisorFollows)
		m.overlay = noOverlay
		return m, nil
	case m.overlay == transcriptOverlay:
		return m.transcriptKey(msg)
	case m.overlay == responseOverlay:
		return m.responseKey(msg)
	case m.overlay == pickerOverlay:
		return m.pickerKey(msg)
	case m.overlay == recordedOverlay, m.overlay == changedOverlay:
		return m.callPaneKey(msg)
	case m.overlay == advisorOverlay:
		return m.advisorKey(msg)
	}
	return m.overlayKey(msg), nil
}

// findKey answers the keys of search, go-to and marks; ok is false for
// any other key.
func (m Model) findKey(msg tea.KeyMsg) (_ Model, _ tea.Cmd, ok bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Search):
		m.endSearch()
		m.search.Typing = true
	case m.search.Query != "" && key.Matches(msg, k.NextHit):
		m.stepHit(1)
	case m.search.Query != "" && key.Matches(msg, k.PrevHit):
		m.stepHit(-1)
	case key.Matches(msg, k.NextHit, k.PrevHit):
		m.flash = "no search to step through: / starts one"
	case m.search.Query != "" && key.Matches(msg, k.Close):
		m.endSearch()
	case key.Matches(msg, k.GotoCall):
		m.prompt, m.digits = true, ""
	case key.Matches(msg, k.Mark):
		m.markWait, m.flash = settingMark, "mark: a letter names the call on screen"
	case key.Matches(msg, k.JumpMark):
		m.markWait, m.flash = jumpingToMark, "go to mark: its letter"
	default:
		return m, nil, false
	}
	return m, nil, true
}

// viewKey opens a view (an overlay, the request, the response) or
// toggles what the screen shows; ok is false for any other key.
func (m Model) viewKey(msg tea.KeyMsg) (_ Model, _ tea.Cmd, ok bool) {
	k := m.keys
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, k.Request), m.detail.Request && key.Matches(msg, k.Close):
		m.openRequest()
	case key.Matches(msg, k.Response):
		m, cmd = m.openResponse()
	case key.Matches(msg, k.ApplySuggestion):
		m, cmd = m.applySuggestion()
	case key.Matches(msg, k.Advisor):
		m.overlay = advisorOverlay // the sweep starts with the frame (advisorFollows)
		m.adv.Shown = m.mine()
	case key.Matches(msg, k.FlaggedArgs):
		m.xArgs = !m.xArgs
		m.flash = "x and X stop on calls whose answer holds a flagged value; the arguments' values are counted apart"
		if m.xArgs {
			m.flash = "x and X stop on calls whose answer or tool calls' arguments hold a flagged value"
		}
	case key.Matches(msg, k.Help):
		m.overlay = helpOverlay
		m.keyhelp.Refresh() // the marks set since it was last drawn
	case key.Matches(msg, k.Problems):
		m.overlay = problemsOverlay
	case key.Matches(msg, k.Picker):
		m = m.openPicker()
	case key.Matches(msg, k.Recorded):
		m.overlay = recordedOverlay
		m.refreshCallPane(m.overlay)
	case key.Matches(msg, k.Changed):
		m.overlay = changedOverlay
		m.refreshCallPane(m.overlay)
	case key.Matches(msg, k.Transcript):
		m.overlay = transcriptOverlay
		m.trans.SetMark(m.search.Query)
		cmd = m.trans.Show(m.s.Current())
	case key.Matches(msg, k.Mouse):
		m, cmd = m.mouseToggle()
	case key.Matches(msg, k.Follow):
		m, cmd = m.followKey()
	case key.Matches(msg, k.Reload):
		m, cmd = m.reloadKey()
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// outKey hands the selected turn (or the response) to the pager, the
// editor or the clipboard; ok is false for any other key.
func (m Model) outKey(msg tea.KeyMsg) (_ Model, _ tea.Cmd, ok bool) {
	k := m.keys
	if !key.Matches(msg, k.Pager, k.Editor, k.Copy) {
		return m, nil, false
	}
	var msgs []*model.Message
	if r := m.list.Selected(); r != nil {
		msgs = r.Messages
	} else {
		msgs = m.responseMessages()
	}
	switch {
	case msgs == nil:
		return m, nil, true
	case key.Matches(msg, k.Pager):
		return m, external.PagerCmd(m.st, msgs, false), true
	case key.Matches(msg, k.Editor):
		return m, external.EditorCmd(m.st, msgs), true
	}
	return m, external.CopyCmd(m.clipboard(), external.PlainText(msgs), m.inTmux()), true
}

// moveKey moves between calls and turns, scrolls the detail, and moves
// the knobs.
func (m Model) moveKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.FinalAnswer):
		m.goTo(m.finalAnswer())
		m.list.ToResponse()
		m.syncDetail()
	case m.detail.Focused && key.Matches(msg, k.Top, k.Bottom):
		m.detail.Update(msg)
	case key.Matches(msg, k.PrevCall):
		m.goTo(m.s.Call - 1)
	case key.Matches(msg, k.NextCall):
		m.goTo(m.s.Call + 1)
	case key.Matches(msg, k.FirstCall):
		m.goTo(0)
	case key.Matches(msg, k.LastCall):
		m.goTo(m.s.Calls() - 1)
	case key.Matches(msg, k.Focus):
		m.list.Focused = !m.list.Focused
		m.detail.Focused = !m.list.Focused
		m.syncDetail()
	case key.Matches(msg, k.Knobs):
		return m.knobKey(msg)
	case key.Matches(msg, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown):
		m.detail.Update(msg)
	case key.Matches(msg, k.HideGone):
		m.list.Update(msg)
		m.syncDetail()
	case m.list.Focused && m.list.OnResponse() && key.Matches(msg, k.Expand):
		return m.openResponse()
	case key.Matches(msg, k.Up, k.Down, k.Expand):
		if m.list.Focused {
			m.detail.Request = false // the turns again
			m.list.Update(msg)
			m.syncDetail()
		} else {
			m.detail.Update(msg)
		}
	}
	return m, nil
}

// knobKey moves a knob of the policy on screen (or resets it) and
// replays under it: from the main screen and from the response block.
func (m Model) knobKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if m.s.Composition() {
		m.flash = session.NoKnobs
		return m, nil
	}
	kn := knobOf(m.keys, msg)
	m.s.ApplyKnob(kn)
	m.lastKnob = kn
	return m.replan()
}

// goTo shows call i (0-based), clamped to the calls there are.
func (m Model) goTo(i int) {
	if m.s.Calls() == 0 {
		return
	}
	i = max(0, min(i, m.s.Calls()-1))
	if i == m.s.Call {
		return
	}
	m.s.Call = i
	m.s.Refresh()
	m.list.Land()
	m.problems.Refresh()
	m.syncDetail()
	m.detail.Top()
}

// overlayKey: the problems list and the help scroll.
func (m Model) overlayKey(msg tea.KeyMsg) Model {
	switch m.overlay {
	case problemsOverlay:
		m.problems.Update(msg)
	case helpOverlay:
		m.keyhelp.Update(msg)
	}
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }

// transcriptKey: the transcript follows the call keys (and the jumps),
// and scrolls with the rest.
func (m Model) transcriptKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	call := m.s.Call
	switch {
	case key.Matches(msg, k.Pager) && m.s.Current() != nil:
		return m, external.PagerCmd(m.st, m.s.Current().Window(), true)
	case key.Matches(msg, k.Copy) && m.s.Current() != nil:
		return m, external.CopyCmd(m.clipboard(), external.PlainText(m.s.Current().Window()), m.inTmux())
	case key.Matches(msg, k.PrevCall):
		m.goTo(m.s.Call - 1)
	case key.Matches(msg, k.NextCall):
		m.goTo(m.s.Call + 1)
	default:
		if j, ok := m.jumpKey(msg); ok {
			m = j
			break
		}
		m.trans.Update(msg)
	}
	if m.s.Call != call {
		return m, m.trans.Show(m.s.Current())
	}
	return m, nil
}

// clipboard is where OSC 52 goes.
func (m Model) clipboard() io.Writer {
	if m.cfg.Clipboard != nil {
		return m.cfg.Clipboard
	}
	return os.Stdout
}

// knobOf is the knob msg moves under k; NoKnob for any other key.
func knobOf(k keys.KeyMap, msg tea.KeyMsg) session.Knob {
	for _, b := range []struct {
		b  key.Binding
		kn session.Knob
	}{
		{k.RecentLess, session.RecentLess}, {k.RecentMore, session.RecentMore},
		{k.PinsLess, session.PinsLess}, {k.PinsMore, session.PinsMore},
		{k.TogglePins, session.TogglePins}, {k.ToggleAnchor, session.ToggleAnchor},
		{k.Strategy, session.CycleStrategy},
		{k.ThresholdLess, session.ThresholdLess}, {k.ThresholdMore, session.ThresholdMore},
		{k.Reset, session.ResetPolicy},
	} {
		if key.Matches(msg, b.b) {
			return b.kn
		}
	}
	return session.NoKnob
}

// inTmux reports whether the program runs in a tmux pane and y should go
// through tmux: when the clipboard is the terminal.
func (m Model) inTmux() bool { return m.cfg.Clipboard == nil && os.Getenv("TMUX") != "" }

// searchKey handles a key while the search prompt is open: typing runs
// the search again (in a tea.Cmd), enter goes to the first hit, esc
// gives the search up.
func (m Model) searchKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	sr, k := m.search, m.keys
	switch {
	case key.Matches(msg, k.Close):
		m.endSearch()
		return m, nil
	case key.Matches(msg, k.Confirm):
		sr.Typing = false
		if sr.Query == "" {
			m.endSearch()
		} else if !sr.Busy && len(sr.Hits) > 0 {
			m.goHit(m.firstHitFromHere())
		}
		return m, nil
	case key.Matches(msg, k.Erase):
		if sr.Query == "" {
			return m, nil
		}
		r := []rune(sr.Query)
		sr.Query = string(r[:len(r)-1])
	case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
		sr.Query += string(msg.Runes)
	default:
		return m, nil
	}
	return m, m.runSearch()
}

// runSearch starts a search for the query as it is now.
func (m Model) runSearch() tea.Cmd {
	sr := m.search
	sr.Gen++
	sr.Latest.Store(int64(sr.Gen))
	sr.Hits, sr.At = nil, -1
	m.detail.SetMark(sr.Query)
	if sr.Query == "" {
		sr.Busy = false
		return nil
	}
	sr.Busy = true
	lv := common.LivesOf(m.s)
	return search.Cmd(sr.Gen, sr.Query, lv, m.s.OtherRuns(), sr.Latest)
}

// searched takes a search's answer, when it is the latest.
func (m Model) searched(msg search.Msg) Model {
	sr := m.search
	if msg.Gen != sr.Gen {
		return m
	}
	sr.Busy, sr.Hits, sr.At, sr.Others = false, msg.Hits, -1, msg.Others
	if !sr.Typing && len(sr.Hits) > 0 {
		m.goHit(m.firstHitFromHere()) // enter was pressed before the answer came
	}
	return m
}

// endSearch closes the prompt and forgets the query and its marks.
func (m Model) endSearch() {
	sr := m.search
	sr.Typing, sr.Query, sr.Hits, sr.At, sr.Busy, sr.Others = false, "", nil, -1, false, 0
	sr.Gen++
	sr.Latest.Store(int64(sr.Gen))
	m.detail.SetMark("")
}

// firstHitFromHere is the first hit in a turn still in the
// conversation at the call on screen or after it; the first hit when
// every one is earlier.
func (m Model) firstHitFromHere() int {
	for i, h := range m.search.Hits {
		if h.Life.Left < 0 || h.Life.Left >= m.s.Call {
			return i
		}
	}
	return 0
}

// stepHit goes d hits on (n: 1, N: -1), round the end.
func (m Model) stepHit(d int) {
	sr := m.search
	n := len(sr.Hits)
	if n == 0 {
		return
	}
	i := sr.At + d
	if sr.At < 0 && d < 0 {
		i = n - 1
	}
	m.goHit((i%n + n) % n)
}

// goHit shows hit i: its turn at the call on screen when the turn is
// already in the conversation there, else at the first call that held
// it; the cursor on the turn, the detail scrolled to the text.
func (m Model) goHit(i int) {
	sr := m.search
	sr.At = i
	h := sr.Hits[i]
	if h.Life.First > m.s.Call {
		m.goTo(h.Life.First)
	}
	m.list.Show(h.Key)
	m.syncDetail()
	m.detail.ToMark()
}
