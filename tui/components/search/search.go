package search

import (
	"fmt"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
)

// maxHits bounds one search; the count says when it was reached.
const maxHits = 10000

// Hit is one message of the file that holds the query.
type Hit struct {
	Key   string // the turn's Row.Key
	Where string // "in the list_hosts result", "in get_metrics arguments", …
	Life  present.Life
}

// Search is the / prompt and its answer: every message of the file
// (content, tool names, tool-call arguments, turns already gone
// included), searched in a tea.Cmd as the query is typed; n and N step
// through the hits across calls.
type Search struct {
	c      *common.Common
	width  int
	Typing bool // the prompt is open
	Query  string
	Hits   []Hit
	Others int           // messages of the file's other conversations that hold query
	At     int           // the hit on screen; -1 before the first jump
	Busy   bool          // a search for query is running
	Gen    int           // counts searches; only the latest answer is used
	Latest *atomic.Int64 // gen, for searches in flight to see they are stale
}

// New is the search drawn from c.
func New(c *common.Common) *Search {
	return &Search{c: c, At: -1, Latest: new(atomic.Int64)}
}

func (s *Search) Init() tea.Cmd                       { return nil }
func (s *Search) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s *Search) SetSize(w, _ int)                    { s.width = max(0, w) }
func (s *Search) View() string {
	if s.c.Session == nil {
		return ""
	}
	return s.line(s.c.Session.Replay, s.c.Session.Policy)
}
func (s *Search) ShortHelp() []key.Binding {
	if s.Typing {
		return []key.Binding{s.c.Keys.Confirm, s.c.Keys.Close}
	}
	return []key.Binding{s.c.Keys.NextHit, s.c.Keys.PrevHit, s.c.Keys.Close}
}
func (s *Search) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.c.Keys.Search, s.c.Keys.NextHit, s.c.Keys.PrevHit}}
}

// Active: a query is typed or kept.
func (s *Search) Active() bool { return s.Typing || s.Query != "" }

// Msg is sent by searchCmd with the hits for query; gen tells
// the latest search from stale ones.
type Msg struct {
	Gen    int
	Query  string
	Hits   []Hit
	Others int
}

// Cmd looks for q in every turn of the replay lv reads, in conversation order.
// It only reads the messages, which nothing changes once loaded. It
// stops early, answering nothing, once a later search was asked for
// (latest is the newest gen): each key typed starts one.
// The runs of the file's other conversations (others) are searched too,
// for a count: their turns are one w away.
func Cmd(gen int, q string, lv *present.Lives, others []*model.Run, latest *atomic.Int64) tea.Cmd {
	return func() tea.Msg {
		m := present.NewMatcher(q)
		var hits []Hit
		i, stale := 0, false
		lv.Each(func(r *window.Row) bool {
			if i%256 == 0 && latest != nil && latest.Load() != int64(gen) {
				stale = true
				return false
			}
			i++
			for _, msg := range r.Messages {
				if w := m.Where(msg); w != "" && len(hits) < maxHits {
					lf, _ := lv.Of(r.Key)
					hits = append(hits, Hit{Key: r.Key, Where: w, Life: lf})
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
		return Msg{Gen: gen, Query: q, Hits: hits, Others: n}
	}
}

// Describe is one hit for the footer: where the text is, and where its
// turn was in view.
func (s *Search) Describe(r *window.Replay, p model.Policy) string {
	if s.At < 0 || s.At >= len(s.Hits) {
		return ""
	}
	h := s.Hits[s.At]
	return termtext.Line(h.Where) + " · " + present.Lifeline(h.Life, r, p)
}

// line is the footer while a search is on: the prompt while typing,
// then the hit on screen and what it is.
func (s *Search) line(r *window.Replay, p model.Policy) string {
	q := s.c.Styles.Title.Render("/") + termtext.Line(s.Query)
	count := ""
	switch {
	case s.Busy:
		count = "searching…"
	case s.Query == "":
	case len(s.Hits) == 0 && s.Others > 0:
		count = fmt.Sprintf("not in this conversation; %s of the file's other conversations hold it (w)", present.Plural(s.Others, "message"))
	case len(s.Hits) == 0:
		count = "no message holds it"
	case s.At < 0:
		count = fmt.Sprintf("%s (enter goes to the first)", present.Plural(len(s.Hits), "hit"))
	default:
		count = fmt.Sprintf("hit %d of %d", s.At+1, len(s.Hits))
	}
	if len(s.Hits) >= maxHits {
		count += " (the first " + present.Thousands(maxHits) + ")"
	}
	if len(s.Hits) > 0 && s.Others > 0 && !s.Busy {
		count += fmt.Sprintf(" · %d more in other conversations (w)", s.Others)
	}
	if s.Typing {
		return q + "▏  " + s.c.Styles.Label.Render(count)
	}
	out := q + "  " + s.c.Styles.Label.Render(count)
	if d := s.Describe(r, p); d != "" {
		out += s.c.Styles.Label.Render(" · ") + d
	}
	return present.Fit(out, s.width)
}
