package tui

import (
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
		sr.typing = false
		if sr.query == "" {
			m.endSearch()
		} else if !sr.busy && len(sr.hits) > 0 {
			m.goHit(m.firstHitFromHere())
		}
		return m, nil
	case key.Matches(msg, k.Erase):
		if sr.query == "" {
			return m, nil
		}
		r := []rune(sr.query)
		sr.query = string(r[:len(r)-1])
	case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
		sr.query += string(msg.Runes)
	default:
		return m, nil
	}
	return m, m.runSearch()
}

// runSearch starts a search for the query as it is now.
func (m Model) runSearch() tea.Cmd {
	sr := m.search
	sr.gen++
	sr.latest.Store(int64(sr.gen))
	sr.hits, sr.at = nil, -1
	m.detail.setMark(sr.query)
	if sr.query == "" {
		sr.busy = false
		return nil
	}
	sr.busy = true
	lv := livesOf(m.s)
	return searchCmd(sr.gen, sr.query, lv, m.s.OtherRuns(), sr.latest)
}

// searched takes a search's answer, when it is the latest.
func (m Model) searched(msg searchedMsg) Model {
	sr := m.search
	if msg.gen != sr.gen {
		return m
	}
	sr.busy, sr.hits, sr.at, sr.others = false, msg.hits, -1, msg.others
	if !sr.typing && len(sr.hits) > 0 {
		m.goHit(m.firstHitFromHere()) // enter was pressed before the answer came
	}
	return m
}

// endSearch closes the prompt and forgets the query and its marks.
func (m *Model) endSearch() {
	sr := m.search
	sr.typing, sr.query, sr.hits, sr.at, sr.busy, sr.others = false, "", nil, -1, false, 0
	sr.gen++
	sr.latest.Store(int64(sr.gen))
	m.detail.setMark("")
}

// firstHitFromHere is the first hit in a turn still in the
// conversation at the call on screen or after it; the first hit when
// every one is earlier.
func (m Model) firstHitFromHere() int {
	for i, h := range m.search.hits {
		if h.life.left < 0 || h.life.left >= m.s.Call {
			return i
		}
	}
	return 0
}

// stepHit goes d hits on (n: 1, N: -1), round the end.
func (m *Model) stepHit(d int) {
	sr := m.search
	n := len(sr.hits)
	if n == 0 {
		return
	}
	i := sr.at + d
	if sr.at < 0 && d < 0 {
		i = n - 1
	}
	m.goHit((i%n + n) % n)
}

// goHit shows hit i: its turn at the call on screen when the turn is
// already in the conversation there, else at the first call that held
// it; the cursor on the turn, the detail scrolled to the text.
func (m *Model) goHit(i int) {
	sr := m.search
	sr.at = i
	h := sr.hits[i]
	if h.life.first > m.s.Call {
		m.goTo(h.life.first)
	}
	m.list.show(h.key)
	m.syncDetail()
	m.detail.toMark()
}
