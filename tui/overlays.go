package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/components/advisor"
	"github.com/afinspect/inspect/tui/components/changed"
	"github.com/afinspect/inspect/tui/components/recorded"
	"github.com/afinspect/inspect/tui/components/textpane"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// overlay is what covers the two panes, if anything.
type overlay int

const (
	noOverlay overlay = iota
	helpOverlay
	problemsOverlay
	transcriptOverlay
	responseOverlay
	pickerOverlay
	recordedOverlay
	advisorOverlay
	changedOverlay // what changed since the previous call (components/changed)
)

// opener is the key that opened o, which closes it again, as esc does.
func opener(k keys.KeyMap, o overlay) key.Binding {
	return [...]key.Binding{
		helpOverlay:       k.Help,
		problemsOverlay:   k.Problems,
		transcriptOverlay: k.Transcript,
		responseOverlay:   k.Response,
		pickerOverlay:     k.Picker,
		recordedOverlay:   k.Recorded,
		advisorOverlay:    k.Advisor,
		changedOverlay:    k.Changed,
	}[o]
}

// newHelp is the bubbles help model dressed in the style sheet.
func newHelp(st *theme.Styles) help.Model {
	h := help.New()
	h.Styles.ShortKey, h.Styles.FullKey = st.HelpKey, st.HelpKey
	h.Styles.ShortDesc, h.Styles.FullDesc = st.HelpDesc, st.HelpDesc
	h.Styles.ShortSeparator, h.Styles.FullSeparator = st.HelpSep, st.HelpSep
	h.Styles.Ellipsis = st.HelpSep
	return h
}

// helpText is the full help: one titled column per keys.KeyMap group,
// placed side by side while they fit in w, then on the next row.
func helpText(h help.Model, st *theme.Styles, keys keys.KeyMap, w int, mk *marks) string {
	var blocks []string
	for i, g := range keys.FullHelp() {
		body := h.FullHelpView([][]key.Binding{g})
		blocks = append(blocks, st.Title.Render(keys.HelpGroups()[i])+"\n"+body)
	}
	var rows []string
	var row []string
	width := 0
	for _, b := range blocks {
		bw := lipgloss.Width(b) + 4
		if len(row) > 0 && width+bw > w {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, width = nil, 0
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(4).Render(b))
		width += bw
	}
	rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	legend := "Fates: anchor (the current request) · pinned (a tool's latest result) · recent (inside keepRecentTurns) · " +
		"kept (refused for the reason named) · evicted (left at this call) · gone (left earlier) · notice (a drop notice) · " +
		"new (appended since the previous call) · folded (left at this call, folded into a summary) · " +
		"summary (a frame holding a model's summary of folded turns). The last row, response, is what the model answered. " +
		"≠ marks a fate that differs from the recorded policy; * a changed knob; \"equally good\" a knob the log cannot tell, whose value shown is a guess."
	verdicts := "Verdicts of a value the model typed: in-view · user-supplied · summary · library-note (grounded) · " +
		"left (its source left the window) · in-view-text (its characters were in view inside a longer token) · " +
		"never-read (typed, not read) · summary-unsupported (only a summary held it; no tool result did) · " +
		"unknown (the call's window is not in the log). The header and x/X count the answer's flagged values; " +
		"the tool calls' arguments (args:) are counted apart, and I makes x/X stop on them too. " +
		"Call numbers are the conversation's; where the file numbers a call otherwise (several conversations) the header says it (f11), and :f11 goes there."
	if t := marksText(mk); t != "" {
		rows = append([]string{st.Title.Render("Marks (' and the letter goes there)") + "\n" + t}, rows...)
	}
	return strings.Join(rows, "\n\n") + "\n\n" + st.Dim.Render(ansi.Wrap(legend, max(1, w), "")) + "\n\n" + st.Dim.Render(ansi.Wrap(verdicts, max(1, w), ""))
}

// problemsText lists the problems report and export list — what the
// loader could not use, what the lineage and the replay could not
// decide — (the study's), then what the replay under the user's knobs
// could not decide, and how the recorded policy was found.
func problemsText(s *session.Session, st *theme.Styles, w int) string {
	if s == nil || s.Rec == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", st.Title.Render(fmt.Sprintf("In the file (%d)", s.ProblemCount)))
	if len(s.Problems) == 0 {
		b.WriteString(st.Dim.Render("none: every line was used") + "\n")
	}
	for _, pr := range s.Problems {
		where := "file"
		if pr.Line > 0 {
			where = fmt.Sprintf("line %d", pr.Line)
			if file := placeFile(pr.Message, pr.Line); len(s.Rec.Files) > 1 && file != "" {
				where = termtext.Line(file) + ":" + fmt.Sprint(pr.Line) // one of several files: which
			}
		}
		b.WriteString(ansi.Wrap(st.Label.Render(where+": ")+termtext.Screen(withoutPlace(pr.Message, pr.Line), st.Placeholder), w, "") + "\n")
	}
	if s.Moved() {
		fmt.Fprintf(&b, "\n%s\n", st.Title.Render(fmt.Sprintf("In the replay under your knobs (%d)", len(s.Replay.Problems))))
		if len(s.Replay.Problems) == 0 {
			b.WriteString(st.Dim.Render("none") + "\n")
		}
		for _, pr := range s.Replay.Problems {
			b.WriteString(ansi.Wrap(termtext.Screen(pr, st.Placeholder), w, "") + "\n")
		}
	}
	fmt.Fprintf(&b, "\n%s\n", st.Title.Render("Whose window rules, and what the log keeps"))
	for _, t := range present.LibraryText(s.Rec) {
		b.WriteString(ansi.Wrap(termtext.Screen(t, st.Placeholder), w, "") + "\n")
	}
	a := s.Agent
	fmt.Fprintf(&b, "\n%s\n", st.Title.Render("How the recorded policy was found"))
	recorded := a.Recorded.String()
	if s.Composition() {
		recorded = "none: a composition's own calls have no window strategy, hence no knobs"
	}
	b.WriteString(ansi.Wrap(termtext.Screen(recorded, st.Placeholder), w, "") + "\n")
	b.WriteString(ansi.Wrap(termtext.Screen(strings.ReplaceAll(a.Evidence, "; ", "\n"), st.Placeholder), w, ""))
	return b.String()
}

// withoutPlace drops a leading "file:line: " from a problem's message,
// since the line is shown already.
// placeFile is the file a problem's "file:line: " place names, "" when
// it has none.
func placeFile(msg string, line int) string {
	tag := fmt.Sprintf(":%d: ", line)
	if i := strings.Index(msg, tag); line > 0 && i >= 0 && !strings.Contains(msg[:i], " ") {
		return msg[:i]
	}
	return ""
}

func withoutPlace(msg string, line int) string {
	tag := fmt.Sprintf(":%d: ", line)
	if i := strings.Index(msg, tag); line > 0 && i >= 0 && !strings.Contains(msg[:i], " ") {
		return msg[i+len(tag):]
	}
	return msg
}

// callPaneText draws the W and u overlays: the recorded window beside
// the replay, and what changed since the previous call.
var callPaneText = map[overlay]func(*session.Session, *theme.Styles, int) string{
	recordedOverlay: recorded.Text,
	changedOverlay:  changed.Text,
}

// callPane is the overlay about the call on screen that o names (W or u).
func (m Model) callPane(o overlay) *textpane.TextPane {
	if o == recordedOverlay {
		return m.recWin
	}
	return m.sinceWin
}

// refreshCallPane points the W or u overlay at the call on screen.
func (m Model) refreshCallPane(o overlay) {
	s, st, text := m.s, m.st, callPaneText[o]
	pane := m.callPane(o)
	pane.Text = func(w int) string { return text(s, st, w) }
	pane.Refresh()
}

// callPaneKey is the keys of the W and u overlays: the call keys move to
// another call and the overlay follows, the others scroll it (its opener
// or esc closes it in key).
func (m Model) callPaneKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.PrevCall):
		m.goTo(m.s.Call - 1)
	case key.Matches(msg, m.keys.NextCall):
		m.goTo(m.s.Call + 1)
	default:
		m.callPane(m.overlay).Update(msg)
		return m, nil
	}
	m.refreshCallPane(m.overlay)
	return m, nil
}

// openPicker shows the picker with the cursor on the conversation on
// screen.
func (m Model) openPicker() Model {
	if m.s == nil || m.s.Views == nil {
		return m
	}
	m.overlay = pickerOverlay
	m.picker.Open(m.s)
	return m
}

// pickerKey gives the key to the picker; what it picked is opened: a
// run at its first call, a conversation when it is not the one on screen.
func (m Model) pickerKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	r, picked, closed := m.picker.Key(m.keys, msg)
	if !closed {
		return m, nil
	}
	m.overlay = noOverlay
	if !picked {
		return m, nil // no conversation to open
	}
	if r.Kind == session.RunRow {
		if calls := m.s.Views.Convs[r.Conv].Runs[r.Run].Run.Calls; len(calls) > 0 {
			return m.goToFileCall(calls[0].Number) // opens its conversation when another is on screen
		}
	}
	if r.Conv == m.s.Views.Shown {
		return m, nil // on screen already
	}
	m.gen++
	m.cfg.View = m.s.Views.Convs[r.Conv].Number
	m.s.Replaying = true
	return m, tea.Batch(session.ViewCmd(m.gen, m.s, m.cfg.View), m.spin.Tick)
}

// viewed puts a newly chosen conversation on screen, from its first call
// and under its agent's recorded policy.
func (m Model) viewed(msg session.ViewMsg) Model {
	if m.s == nil || msg.Gen != m.gen || msg.Err != nil {
		return m
	}
	if old := m.s.Views; old != nil && msg.Views != nil && old.All == msg.Views.All {
		// the same file's conversations: their rows are the same
		msg.Views.Rows, msg.Views.Column = old.Rows, old.Column
	}
	m.s = nil
	m = m.loaded(session.New(m.cfg.Name, msg.LoadedMsg))
	if m.pendingFileCall > 0 {
		m = m.landOnFileCall()
	}
	return m
}

// advisorKey: the arrows move along the frontier, enter applies the
// policy under the cursor (esc, q and P close the view in key).
func (m Model) advisorKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if m.adv.Key(m.keys, msg) {
		return m.applyAdvice()
	}
	return m, nil
}

// applyAdvice replays the conversation on screen under the policy under
// the advisor's cursor, for the agent on screen (the one advised), as K
// applies a suggestion: every knob moves, and the screen shows that
// replay.
func (m Model) applyAdvice() (Model, tea.Cmd) {
	i := m.adv.Selected()
	if i < 0 || !m.adv.IsFor(m.s) {
		return m, nil
	}
	ad := m.adv.Advice()
	p := ad.Rows[i].Policy
	m.overlay = noOverlay
	m.applyPending = false
	m.s.Policy = p
	if p.KeepLastToolResults > 0 {
		m.s.LastPins = p.KeepLastToolResults
	}
	m.flash = "applied" + onAgent(m.s) + " from the advisor: " + advisor.PolicyName(p, false) + advisor.RowRole(ad, i) + " (" + advisor.RowCost(ad, i) + ")"
	return m.replan()
}

// advisorFollows keeps the sweep in step with the screen: it is given up
// when the view is closed, and started (again) when the view is open on
// an agent or a study it was not made for — opened, or the conversation
// or the file on screen changed under it.
func (m Model) advisorFollows() tea.Cmd {
	a := m.adv
	if m.overlay != advisorOverlay || m.s == nil {
		a.GiveUp()
		return nil
	}
	if a.IsFor(m.s) {
		return nil
	}
	return a.Start(m.s)
}

// The response block (i): the response of the call on screen and its
// values; its keys, and the jumps from a value to where its source was.

// responseKey handles keys while the response block is open: it scrolls,
// follows the call keys and the flagged jumps, and K applies the
// suggestion.
func (m Model) responseKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.ApplySuggestion):
		return m.applySuggestion()
	case key.Matches(msg, k.Knobs):
		return m.knobKey(msg) // the block follows the replay (responseFollows)
	case key.Matches(msg, k.Focus):
		if n := len(m.leftValues()); n > 0 {
			m = m.selectValue((m.respSel + 1) % n)
			m.resp.Refresh()
		}
		return m, nil
	case key.Matches(msg, k.Confirm):
		return m.toSource(), nil
	case key.Matches(msg, k.Request):
		return m.requestFromResponse(), nil
	case key.Matches(msg, k.FinalAnswer):
		m.goTo(m.finalAnswer())
	case key.Matches(msg, k.PrevCall):
		m.goTo(m.s.Call - 1)
	case key.Matches(msg, k.NextCall):
		m.goTo(m.s.Call + 1)
	case m.stillJudging(msg):
		m.flash = judgingWords
		return m, nil
	default:
		if j, ok := m.jumpKey(msg); ok {
			m = j
		} else {
			m.resp.Update(msg)
			return m, nil
		}
	}
	m = m.selectValue(0)
	m.resp.Top()
	return m, m.askSuggestions()
}

// leftValues are the call's values that left the window, in order.
func (m Model) leftValues() []provenance.Entry {
	var out []provenance.Entry
	if ce := m.s.EvidenceAt(m.s.Call); ce != nil {
		for _, e := range ce.Values {
			if e.Own() == evidence.Left {
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
	e := left[min(m.respSel, len(left)-1)]
	src := e.OwnSources()[0]
	for i := range m.s.Replay.Calls {
		if m.s.Replay.Calls[i].Call.Number == src.SentOn[1] {
			m.overlay = noOverlay
			m.goTo(i)
			for _, r := range m.s.Rows.Rows() {
				if slices.Contains(r.Messages, src.Message()) && m.list.Show(r.Key) {
					m.syncDetail()
					break
				}
			}
			name := present.SourceWho(src)
			m.flash = fmt.Sprintf("call %d: the last call %s (which held %s) was in view; it left at %d (%s)",
				i+1, name, e.Value, session.OnScreen(m.s.Replay, src.EvictedAt), m.s.RuleWords(src))
			break
		}
	}
	return m
}

// openResponse shows the response block of the call on screen, over
// its response row (selected, so closing the block shows it there).
func (m Model) openResponse() (Model, tea.Cmd) {
	m.overlay = responseOverlay
	m.list.ToResponse()
	m.syncDetail()
	m = m.selectValue(0)
	m.resp.Top()
	return m, m.askSuggestions()
}

// finalAnswer is the call of the run's final answer (its last answer,
// never a draft the answer check sent back: docs/rules/evidence.md §9.4.3),
// else the run's last call.
func (m Model) finalAnswer() int {
	run := m.s.Current().Run
	var want *model.Call
	if k := provenance.FinalAnswer(run); k >= 0 {
		want = run.Calls[k]
	}
	last := m.s.Call
	for i := range m.s.Calls() {
		c := &m.s.Replay.Calls[i]
		if c.Run != run {
			continue
		}
		if c.Call == want {
			return i
		}
		last = i
	}
	return last
}

// responseFollows brings the open response block up to the replay on
// screen and asks for its suggestions.
func (m Model) responseFollows() tea.Cmd {
	if m.overlay != responseOverlay {
		return nil
	}
	m.resp.Refresh()
	return m.askSuggestions()
}

// The response row — the model's output, on the call that produced it,
// not only in the next call's window: the last row of every call's turn list is what the model answered on that
// call. Its line says it in a few words (provenance.Produced) with the
// call's flagged values; selected, the detail shows the response in full
// — text, tool calls with their arguments, usage, stop reason — and
// every value with its verdict, drawn by response.Text as the i overlay
// draws it.

// responseMessages is the response of the call on screen as the one
// assistant message it is, for the pager (o) and the clipboard (y); nil
// when the cursor is not on the response row.
func (m Model) responseMessages() []*model.Message {
	c := m.s.Current()
	if c == nil || !m.list.OnResponse() {
		return nil
	}
	r := c.Call.Facts.Response
	return []*model.Message{{Role: model.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}}
}
