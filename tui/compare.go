package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/components/changed"
	"github.com/afinspect/inspect/tui/components/turnlist"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// Compare mode (inspect compare A B): two recordings lined up call by
// call (study.Compare), the turn lists of one aligned pair side by side,
// each turn's fate coloured as the main screen colours it and marked
// where the other side's window has no message of it (+) or has it with
// other text (~); a strip of both sides' window sizes, pair by pair, with
// the pair on screen and the one where the runs part ways marked.

// CompareKeys are compare mode's keys.
type CompareKeys struct {
	Prev, Next, First, Last, Parted, NextChanged, PrevChanged, Up, Down, Messages, Quit key.Binding
}

// DefaultCompareKeys are compare mode's keys.
func DefaultCompareKeys() CompareKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return CompareKeys{
		Prev:        b([]string{"left", "h"}, "←/→", "pair"),
		Next:        b([]string{"right", "l"}, "→", "next pair"),
		First:       b([]string{"g", "home"}, "g/G", "ends"),
		Last:        b([]string{"G", "end"}, "G", "last pair"),
		Parted:      b([]string{"p"}, "p", "parted/back"),
		NextChanged: b([]string{"n"}, "n/N", "changes"),
		PrevChanged: b([]string{"N"}, "N", "previous pair not the same"),
		Up:          b([]string{"up", "k"}, "↑/↓", "scroll"),
		Down:        b([]string{"down", "j"}, "↓", "scroll down"),
		Messages:    b([]string{"d"}, "d", "messages"),
		Quit:        b([]string{"q", "ctrl+c", "esc"}, "q", "quit"),
	}
}

// CompareConfig is what compare mode opens.
type CompareConfig struct {
	Comparison   *session.Comparison
	NameA, NameB string
}

// CompareModel is compare mode.
type CompareModel struct {
	c      *session.Comparison
	names  [2]string
	st     *theme.Styles
	keys   CompareKeys
	w, h   int
	pair   int
	back   int // the pair p jumped from, -1 for none
	scroll int
	// jumpTo is where p goes: the pair where the runs part, else the
	// first that is not the same (-1: none)
	jumpTo int
	// messages: the pair's differing messages are shown in place of the
	// turn lists (d)
	messages bool
}

// NewCompare is compare mode on the pair where the runs part, else the
// first pair.
func NewCompare(cfg CompareConfig) CompareModel {
	m := CompareModel{c: cfg.Comparison, names: [2]string{cfg.NameA, cfg.NameB}, st: theme.DefaultStyles(), keys: DefaultCompareKeys(), back: -1, w: 80, h: 24}
	m.jumpTo = m.c.Parted
	if m.jumpTo < 0 {
		m.jumpTo = m.c.FirstChanged
	}
	return m
}

// RunCompare runs compare mode in the terminal until it is quit.
func RunCompare(cfg CompareConfig) error {
	_, err := tea.NewProgram(NewCompare(cfg), tea.WithAltScreen()).Run()
	return err
}

func (m CompareModel) Init() tea.Cmd { return nil }

func (m CompareModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		k := m.keys
		n := len(m.c.Pairs)
		to := m.pair
		switch {
		case key.Matches(msg, k.Quit):
			return m, tea.Quit
		case key.Matches(msg, k.Prev):
			to--
		case key.Matches(msg, k.Next):
			to++
		case key.Matches(msg, k.First):
			to = 0
		case key.Matches(msg, k.Last):
			to = n - 1
		case key.Matches(msg, k.Parted):
			switch {
			case m.back >= 0 && m.pair == m.jumpTo:
				to, m.back = m.back, -1
			case m.jumpTo >= 0:
				m.back, to = m.pair, m.jumpTo
			}
		case key.Matches(msg, k.NextChanged):
			to = m.changedFrom(m.pair+1, 1)
		case key.Matches(msg, k.PrevChanged):
			to = m.changedFrom(m.pair-1, -1)
		case key.Matches(msg, k.Messages):
			m.messages, m.scroll = !m.messages, 0
			return m, nil
		case key.Matches(msg, k.Up):
			m.scroll = max(0, m.scroll-1)
			return m, nil
		case key.Matches(msg, k.Down):
			m.scroll++
			return m, nil
		}
		if to >= 0 && to < n && to != m.pair {
			m.pair, m.scroll = to, 0
		}
	}
	return m, nil
}

// changedFrom is the first pair from i on in direction d that is not
// Same, or the pair on screen when there is none.
func (m CompareModel) changedFrom(i, d int) int {
	for ; i >= 0 && i < len(m.c.Pairs); i += d {
		if m.c.Pairs[i].State != session.PairSame {
			return i
		}
	}
	return m.pair
}

func (m CompareModel) View() string {
	w, h := max(1, m.w), max(1, m.h)
	var top []string
	for k, s := range []*session.Side{m.c.A, m.c.B} {
		lead := s.Study.Lead()
		lib := s.Study.Rec.Library
		rules := lib.Rules
		if rules == "" {
			rules = "9.57"
		}
		top = append(top, present.Fit(m.st.Title.Render("AB"[k:k+1]+" ")+termtext.Line(m.names[k])+m.st.Dim.Render(" · "+termtext.Line(lead.Policy.String())+" · rules "+rules), w))
	}
	if len(m.c.Pairs) == 0 {
		return strings.Join(append(top, "", "neither recording has a model call: nothing to line up"), "\n")
	}
	p := &m.c.Pairs[m.pair]
	top = append(top, present.Fit(m.status(p), w))
	top = append(top, m.strip(w)...)
	foot := m.footer(p, w)
	body := h - len(top) - len(foot)
	if body < 2 { // a screen too low for the lists: the status and the keys
		return strings.Join(append(top[:min(len(top), max(1, h-1))], foot[len(foot)-1]), "\n")
	}
	cols := m.columns(p, w, body)
	if m.messages {
		cols = m.differing(p, w, body)
	}
	return strings.Join(append(append(top, cols...), foot...), "\n")
}

// status is the pair on screen, its state, and where the runs part.
func (m CompareModel) status(p *session.Pair) string {
	st := m.st
	state := st.Match.Render(p.State)
	if p.State != session.PairSame {
		state = st.Differs.Render(p.State)
	}
	s := fmt.Sprintf("pair %d/%d · %s · A %s · B %s", m.pair+1, len(m.c.Pairs), state, callWord(m.c.CallA(p)), callWord(m.c.CallB(p)))
	if why := m.c.Why(p); why != "" {
		s += " · " + st.Differs.Render(termtext.Line(why))
	}
	switch {
	case m.c.Parted >= 0:
		s += st.Dim.Render(fmt.Sprintf(" · the runs part at pair %d", m.c.Parted+1))
	case m.c.FirstChanged >= 0:
		s += st.Dim.Render(fmt.Sprintf(" · the runs never part; first change at pair %d", m.c.FirstChanged+1))
	default:
		s += st.Dim.Render(" · the same call for call")
	}
	if !m.c.SameTask {
		s += " · " + st.Differs.Render("different tasks")
	}
	return s
}

func callWord(c *window.CallReplay) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("call %d", c.Call.Number)
}

var stripBlocks = []rune(" ▁▂▃▄▅▆▇█")

// strip is both sides' window sizes, one column per pair (or per group
// of pairs, the largest of each, when there are more pairs than
// columns), and a line marking the pair on screen (▲) and the one where
// the runs part (◆).
func (m CompareModel) strip(w int) []string {
	n := len(m.c.Pairs)
	cols := max(1, min(n, w-8))
	per := (n + cols - 1) / cols
	cols = (n + per - 1) / per
	size := func(side, i int) int {
		var c *window.CallReplay
		if side == 0 {
			c = m.c.CallA(&m.c.Pairs[i])
		} else {
			c = m.c.CallB(&m.c.Pairs[i])
		}
		if c == nil {
			return -1
		}
		return c.WindowChars()
	}
	top := 1
	for i := range n {
		top = max(top, size(0, i), size(1, i))
	}
	var out []string
	for side := range 2 {
		var b strings.Builder
		for col := range cols {
			v, any := 0, false
			for i := col * per; i < min(n, (col+1)*per); i++ {
				if s := size(side, i); s >= 0 {
					v, any = max(v, s), true
				}
			}
			switch {
			case !any:
				b.WriteString(m.st.Dim.Render("·"))
			default:
				b.WriteRune(stripBlocks[1+v*(len(stripBlocks)-2)/top])
			}
		}
		out = append(out, present.Fit(m.st.Label.Render("AB"[side:side+1]+" chars ")+b.String(), w))
	}
	marks := []rune(strings.Repeat(" ", cols))
	if m.jumpTo >= 0 {
		marks[m.jumpTo/per] = '◆'
	}
	marks[m.pair/per] = '▲'
	legend := "  ▲ here ◆ where they part"
	if m.c.Parted < 0 {
		legend = "  ▲ here ◆ the first change"
	}
	out = append(out, present.Fit(strings.Repeat(" ", 8)+string(marks)+m.st.Dim.Render(legend), w))
	return out
}

// columns are the two sides' turn lists, side by side, body lines high.
func (m CompareModel) columns(p *session.Pair, w, body int) []string {
	cw := max(1, (w-3)/2)
	a := m.sideLines(m.c.A, m.c.CallA(p), "A", p, true, cw)
	b := m.sideLines(m.c.B, m.c.CallB(p), "B", p, false, cw)
	rows := max(len(a), len(b))
	scroll := min(m.scroll, max(0, rows-body))
	var out []string
	for i := range body {
		k := i
		if i > 0 {
			k = i + scroll // the heading stays
		}
		l, r := "", ""
		if k < len(a) {
			l = a[k]
		}
		if k < len(b) {
			r = b[k]
		}
		out = append(out, present.Fit(present.Pad(l, cw)+m.st.Dim.Render(" │ ")+present.Fit(r, cw), w))
	}
	return out
}

// differing is the pair's messages one side only and those with other
// text (their texts as a line diff), body lines high, scrolled.
func (m CompareModel) differing(p *session.Pair, w, body int) []string {
	st := m.st
	x, y := m.c.CallA(p), m.c.CallB(p)
	if x == nil || y == nil {
		return strings.Split(present.Lines(st.Dim.Render("one side made this call alone: no window to compare it with (d: the turns)"), w, body), "\n")
	}
	head := present.Fit(st.Title.Render(fmt.Sprintf("the windows of A's call %d and B's call %d", x.Call.Number, y.Call.Number))+
		st.Dim.Render(fmt.Sprintf(" · %d A only, %d B only, %d with other text (d: the turns)", len(p.AOnly), len(p.BOnly), len(p.Edited))), w)
	text := strings.Split(changed.MessagesDiff(st, changed.DiffSides{Gone: "A only", Come: "B only", A: fmt.Sprintf("A call %d", x.Call.Number), B: fmt.Sprintf("B call %d", y.Call.Number)},
		p.AOnly, p.BOnly, p.Edited, w), "\n")
	from := min(m.scroll, max(0, len(text)-(body-1)))
	text = text[from:]
	out := []string{head}
	for i := 0; i < body-1; i++ {
		l := ""
		if i < len(text) {
			l = text[i]
		}
		out = append(out, present.Pad(l, w))
	}
	return out
}

// sideLines are one side's heading and turns at its call of pair p.
func (m CompareModel) sideLines(s *session.Side, c *window.CallReplay, name string, p *session.Pair, isA bool, cw int) []string {
	st := m.st
	if c == nil {
		return []string{st.Title.Render(name) + st.Dim.Render(" · no call here"), st.Dim.Render(present.Fit("the other side made this call alone", cw))}
	}
	out := 0
	if isA {
		out = p.OutA
	} else {
		out = p.OutB
	}
	tok := "-"
	if c.Call.Ended && c.Recorded() != window.Differs {
		tok = present.Thousands(c.Call.Usage.Input)
	}
	head := st.Title.Render(fmt.Sprintf("%s · call %d", name, c.Call.Number)) +
		st.Dim.Render(fmt.Sprintf(" · %s, %s chars, %s tok · %d out", present.Plural(len(c.Window()), "msg"), present.Thousands(c.WindowChars()), tok, out))
	lines := []string{present.Fit(head, cw)}
	if provenance.Unjudged(c) {
		return append(lines, st.Unknown.Render(present.Fit("a composition's own call: its window is not in the log", cw)))
	}
	only, edited := map[*model.Message]bool{}, map[*model.Message]bool{}
	mine := p.BOnly
	if isA {
		mine = p.AOnly
	}
	for _, x := range mine {
		only[x] = true
	}
	for _, e := range p.Edited {
		if isA {
			edited[e[0]] = true
		} else {
			edited[e[1]] = true
		}
	}
	for _, r := range s.Replay.LedgerAt(c.Index).Own() {
		mark := " "
		for _, x := range r.Messages {
			switch {
			case edited[x]:
				mark = st.Changed.Render("~")
			case only[x] && mark == " ":
				mark = st.Changed.Render("+")
			}
		}
		fate := st.Fate(r.Fate).Render(fmt.Sprintf("%-7s", r.Fate))
		size := fmt.Sprintf(" %6s", present.Thousands(present.TurnChars(r.Messages)))
		room := max(0, cw-2-8-len(size))
		who := present.Fit(termtext.Line(turnlist.TurnWho(r.Messages)), room)
		rest := room - ansi.StringWidth(who) - 1
		text := ""
		if rest > 2 {
			text = " " + st.Dim.Render(present.Fit(termtext.Line(present.TurnText(r.Messages)), rest))
		}
		lines = append(lines, mark+" "+fate+" "+present.Pad(who+text, room)+st.Dim.Render(size))
	}
	return lines
}

// footer is the values whose verdict differs at p, and the keys.
func (m CompareModel) footer(p *session.Pair, w int) []string {
	st := m.st
	var vs []string
	for _, v := range p.Values {
		if v.In != provenance.InAnswer || v.A == v.B {
			continue
		}
		vs = append(vs, termtext.Line(v.Value)+" "+verdictWord(st, v.A)+"→"+verdictWord(st, v.B))
	}
	out := []string{}
	line := fmt.Sprintf("answer values out of view: A %d, B %d (this pair %d, %d)", m.c.A.OutOfView, m.c.B.OutOfView, p.OutA, p.OutB)
	if len(vs) > 0 {
		line += " · " + strings.Join(vs, ", ")
	}
	out = append(out, present.Fit(line, w))
	k := m.keys
	var help []string
	for _, b := range []key.Binding{k.Prev, k.Parted, k.NextChanged, k.Messages, k.First, k.Quit} {
		help = append(help, st.HelpKey.Render(b.Help().Key)+" "+st.HelpDesc.Render(b.Help().Desc))
	}
	out = append(out, present.Fit(strings.Join(help, st.HelpSep.Render(" • ")), w))
	return out
}

func verdictWord(st *theme.Styles, v string) string {
	if v == "" {
		return st.Dim.Render("-")
	}
	if (provenance.Entry{Verdict: v}).Flagged() {
		return st.Evicted.Render(v)
	}
	return st.Match.Render(v)
}
