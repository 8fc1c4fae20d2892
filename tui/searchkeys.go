package tui

import (
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/components/search"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

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
func (m *Model) endSearch() {
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
func (m *Model) stepHit(d int) {
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
func (m *Model) goHit(i int) {
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
