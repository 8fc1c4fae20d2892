package tui

import (
	"fmt"
	"slices"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/tui/present"
)

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
			m.selectValue((m.respSel + 1) % n)
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
	m.selectValue(0)
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
	m.selectValue(0)
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
func (m *Model) responseFollows() tea.Cmd {
	if m.overlay != responseOverlay {
		return nil
	}
	m.resp.Refresh()
	return m.askSuggestions()
}
