package tui

import (
	"fmt"
	"sync/atomic"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// maxHits bounds one search; the count says when it was reached.
const maxHits = 10000

// searchHit is one message of the file that holds the query.
type searchHit struct {
	key   string // the turn's Row.Key
	where string // "in the list_hosts result", "in get_metrics arguments", …
	life  life
}

// search is the / prompt and its answer: every message of the file
// (content, tool names, tool-call arguments, turns already gone
// included), searched in a tea.Cmd as the query is typed; n and N step
// through the hits across calls.
type search struct {
	s      *session.Session
	st     *theme.Styles
	keys   keys.KeyMap
	width  int
	typing bool // the prompt is open
	query  string
	hits   []searchHit
	others int           // messages of the file's other conversations that hold query
	at     int           // the hit on screen; -1 before the first jump
	busy   bool          // a search for query is running
	gen    int           // counts searches; only the latest answer is used
	latest *atomic.Int64 // gen, for searches in flight to see they are stale
}

func newSearch(st *theme.Styles, keys keys.KeyMap) *search {
	return &search{st: st, keys: keys, at: -1, latest: new(atomic.Int64)}
}

func (s *search) Init() tea.Cmd                       { return nil }
func (s *search) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s *search) SetSize(w, _ int)                    { s.width = max(0, w) }
func (s *search) View() string {
	if s.s == nil {
		return ""
	}
	return s.line(s.s.Replay, s.s.Policy)
}
func (s *search) ShortHelp() []key.Binding {
	if s.typing {
		return []key.Binding{s.keys.Confirm, s.keys.Close}
	}
	return []key.Binding{s.keys.NextHit, s.keys.PrevHit, s.keys.Close}
}
func (s *search) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.keys.Search, s.keys.NextHit, s.keys.PrevHit}}
}

// active: a query is typed or kept.
func (s *search) active() bool { return s.typing || s.query != "" }

// searchedMsg is sent by searchCmd with the hits for query; gen tells
// the latest search from stale ones.
type searchedMsg struct {
	gen    int
	query  string
	hits   []searchHit
	others int
}

// searchCmd looks for q in every turn of the replay lv reads, in conversation order.
// It only reads the messages, which nothing changes once loaded. It
// stops early, answering nothing, once a later search was asked for
// (latest is the newest gen): each key typed starts one.
// The runs of the file's other conversations (others) are searched too,
// for a count: their turns are one w away.
func searchCmd(gen int, q string, lv *lives, others []*model.Run, latest *atomic.Int64) tea.Cmd {
	return func() tea.Msg {
		m := present.NewMatcher(q)
		var hits []searchHit
		i, stale := 0, false
		lv.each(func(r *window.Row) bool {
			if i%256 == 0 && latest != nil && latest.Load() != int64(gen) {
				stale = true
				return false
			}
			i++
			for _, msg := range r.Messages {
				if w := m.Where(msg); w != "" && len(hits) < maxHits {
					lf, _ := lv.of(r.Key)
					hits = append(hits, searchHit{key: r.Key, where: w, life: lf})
				}
			}
			return true
		})
		if stale {
			return nil
		}
		n := 0
		for _, r := range others {
			if latest != nil && latest.Load() != int64(gen) {
				return nil
			}
			n += m.Count(r)
		}
		return searchedMsg{gen: gen, query: q, hits: hits, others: n}
	}
}

// describe is one hit for the footer: where the text is, and where its
// turn was in view.
func (s *search) describe(r *window.Replay, p model.Policy) string {
	if s.at < 0 || s.at >= len(s.hits) {
		return ""
	}
	h := s.hits[s.at]
	return termtext.Line(h.where) + " · " + lifeline(h.life, r, p)
}

// line is the footer while a search is on: the prompt while typing,
// then the hit on screen and what it is.
func (s *search) line(r *window.Replay, p model.Policy) string {
	q := s.st.Title.Render("/") + termtext.Line(s.query)
	count := ""
	switch {
	case s.busy:
		count = "searching…"
	case s.query == "":
	case len(s.hits) == 0 && s.others > 0:
		count = fmt.Sprintf("not in this conversation; %s of the file's other conversations hold it (w)", present.Plural(s.others, "message"))
	case len(s.hits) == 0:
		count = "no message holds it"
	case s.at < 0:
		count = fmt.Sprintf("%s (enter goes to the first)", present.Plural(len(s.hits), "hit"))
	default:
		count = fmt.Sprintf("hit %d of %d", s.at+1, len(s.hits))
	}
	if len(s.hits) >= maxHits {
		count += " (the first " + present.Thousands(maxHits) + ")"
	}
	if len(s.hits) > 0 && s.others > 0 && !s.busy {
		count += fmt.Sprintf(" · %d more in other conversations (w)", s.others)
	}
	if s.typing {
		return q + "▏  " + s.st.Label.Render(count)
	}
	out := q + "  " + s.st.Label.Render(count)
	if d := s.describe(r, p); d != "" {
		out += s.st.Label.Render(" · ") + d
	}
	return present.Fit(out, s.width)
}
