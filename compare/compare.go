// Package compare lines two recordings up call by call: the conversations
// of each paired, the calls of each pair aligned, where the runs part
// ways, and what one window held that the other did not. diff and the
// UI's compare mode both read a Comparison, so they say the same.
package compare

import (
	"bytes"
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/afinspect/inspect/study"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// The states of an aligned pair of calls.
const (
	Same    = "same"    // the same request and answer, the same window by content, the same verdicts
	Changed = "changed" // both sides made the call; its answer, window or verdicts differ
	AOnly   = "a-only"  // only the first recording made it
	BOnly   = "b-only"  // only the second
)

// Comparison is two recordings lined up call by call: each side's study
// and replay (the file-wide one, as export replays it), the
// conversations paired, and every pair of calls with what differs.
// Every front end (diff, compare) reads it, so they say the same.
type Comparison struct {
	A, B   *Side
	Convs  []ConvPair
	Pairs  []Pair
	Parted int // the first pair where the runs part ways (another request, tool call, argument or answer; a call one side only), -1 for none
	// FirstChanged is the first pair that is not Same (-1: all are), the
	// place to look when the runs never part but their windows differ.
	FirstChanged int
	// SameTask: every conversation has a partner whose first request is
	// the same text; two runs of different tasks line up, but say so.
	SameTask bool
	Totals   Totals
}

// Side is one recording of a comparison, as replayed under its settled
// policies, with every call's values judged as the export judges them.
type Side struct {
	Study  *study.Study
	Replay *window.Replay
	Values [][]Value // by call index: each value of the response, its own verdict
	// InputTokens and OutputTokens sum the usage of the calls that ended.
	Calls, InputTokens, OutputTokens, OutOfView int
}

// Value is one value of a response and inspect's own verdict of it
// (provenance.Entry.Own: a `:NNNN` read's when it has one).
type Value struct {
	Value, In, Verdict string
}

// OutOfView reports whether an answer's value was not in view for the
// answer check: the verdicts evidence flags (left, in-view-text,
// never-read, summary-unsupported) of a value typed in the answer.
func (v Value) OutOfView() bool {
	return v.In == provenance.InAnswer && provenance.Entry{Verdict: v.Verdict}.Judged()
}

// ConvPair is a conversation of each side lined up: by agent key and the
// conversation's place among that agent's, or, when the two files share
// no agent key, by place alone. A conversation with no partner is paired
// with none (Number 0 on that side).
type ConvPair struct {
	ANumber, BNumber   int    // the conversations' numbers (§10.8); 0: none on that side; below 0: a composition's calls
	AAgent, BAgent     string // agent keys
	ARequest, BRequest string // the first run's request on each side
	SameTask           bool   // both sides have it and their first requests are one text
	From, To           int    // its pairs: Pairs[From:To]
}

// Pair is one call of each side lined up, or of one side alone.
type Pair struct {
	A, B  int // call index in each side's replay (Replay.Calls), -1 for none
	Conv  int // index in Comparison.Convs
	State string
	// Parts: the two calls were made on another request, or answered
	// differently (content, tool calls or arguments), or one side made it
	// alone.
	Parts bool
	// Window: the windows differ by content (role and text), whatever the
	// order; AOnly and BOnly are the messages one side had and the other
	// did not, Edited those that stand for the same message (the same tool
	// result, the drop notice, the compaction frame) with other text.
	Window       bool
	AOnly, BOnly []*model.Message
	Edited       [][2]*model.Message
	// Values pairs each value of the two responses (by where it was typed
	// and its text); Verdicts is whether any verdict differs.
	Values   []ValuePair
	Verdicts bool
	// OutA and OutB count each side's answer values out of view.
	OutA, OutB int
}

// ValuePair is one value and its verdict on each side ("" where that
// side's response did not have it).
type ValuePair struct {
	Value, In string
	A, B      string
}

// Totals sum a comparison.
type Totals struct {
	Same, Changed, AOnly, BOnly int
}

// Differing is how many pairs are not Same.
func (t Totals) Differing() int { return t.Changed + t.AOnly + t.BOnly }

// CallA is pair p's call on side A, nil when A has none.
func (c *Comparison) CallA(p *Pair) *window.CallReplay { return c.A.call(p.A) }

// CallB is pair p's call on side B, nil when B has none.
func (c *Comparison) CallB(p *Pair) *window.CallReplay { return c.B.call(p.B) }

func (s *Side) call(i int) *window.CallReplay {
	if i < 0 {
		return nil
	}
	return &s.Replay.Calls[i]
}

// Only names the conversation of each side to compare (§10.8's
// numbers, a composition's calls below 0, as Conversations numbers
// them); 0 compares every one.
type Only struct{ A, B int }

// Runs lines a and b up: every conversation of each (Only{}), one
// conversation of each side, or of one side with every conversation of
// the other; a number not there leaves that side with no call (Has says
// whether it is there). The two sides are replayed and judged at once,
// each on its own goroutine.
func Runs(a, b *study.Study, only Only) *Comparison {
	var sa, sb *Side
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa = side(a) }()
	go func() { defer wg.Done(); sb = side(b) }()
	wg.Wait()
	return alignOnly(sa, sb, only)
}

// Has reports whether s has conversation number (as Only names them).
func (s *Side) Has(number int) bool {
	for _, g := range groups(s.Study, s.Replay) {
		if g.number == number {
			return true
		}
	}
	return false
}

// Numbers are s's conversations' numbers, in order of their first call.
func (s *Side) Numbers() []int {
	var out []int
	for _, g := range groups(s.Study, s.Replay) {
		out = append(out, g.number)
	}
	return out
}

// only is gs with conversation number alone (all of them for 0).
func only(gs []group, number int) []group {
	if number == 0 {
		return gs
	}
	for _, g := range gs {
		if g.number == number {
			return []group{g}
		}
	}
	return nil
}

// side replays s and judges every call's values in call order (the
// export's walk).
func side(s *study.Study) *Side {
	r := s.Replay()
	book := provenance.Walk(s.Rec, r)
	defer book.Stop()
	out := &Side{Study: s, Replay: r, Values: make([][]Value, len(r.Calls)), Calls: len(r.Calls)}
	for i := range r.Calls {
		c := &r.Calls[i]
		if c.Call.Ended {
			out.InputTokens += c.Call.Usage.Input
			out.OutputTokens += c.Call.Usage.Output
		}
		ce := book.Call(i)
		if len(ce.Values) == 0 {
			continue
		}
		vs := make([]Value, 0, len(ce.Values))
		for _, e := range ce.Values {
			if e.Own() == "" { // a JSON number's read that is no value (evidence counts none)
				continue
			}
			v := Value{Value: e.Value, In: e.In, Verdict: e.Own()}
			if v.OutOfView() {
				out.OutOfView++
			}
			vs = append(vs, v)
		}
		out.Values[i] = vs
	}
	return out
}

// group is one conversation of a side: its calls' indexes in order.
type group struct {
	agent  string
	number int
	calls  []int
}

// groups are r's conversations in order of their first call, a
// composition's own calls one group of their own.
func groups(s *study.Study, r *window.Replay) []group {
	type key struct {
		agent  *model.Agent
		number int
	}
	at := map[key]int{}
	var out []group
	comps := map[*model.Agent]int{}
	for i := range r.Calls {
		c := &r.Calls[i]
		k := key{c.Run.Agent, c.Conversation}
		if c.Run.Composition {
			n, ok := comps[c.Run.Agent]
			if !ok {
				n = -(len(comps) + 1)
				comps[c.Run.Agent] = n
			}
			k.number = n
		}
		g, ok := at[k]
		if !ok {
			g = len(out)
			at[k] = g
			name := ""
			if c.Run.Agent != nil {
				name = c.Run.Agent.Key
			}
			out = append(out, group{agent: name, number: k.number})
		}
		out[g].calls = append(out[g].calls, i)
	}
	return out
}

// pairGroups pairs the conversations of a and b: the k-th of an agent
// with the k-th of the agent of the same key; when no key is shared, the
// k-th with the k-th. -1 for no partner.
func pairGroups(ga, gb []group) [][2]int {
	ord := func(gs []group) map[string][]int {
		m := map[string][]int{}
		for i, g := range gs {
			m[g.agent] = append(m[g.agent], i)
		}
		return m
	}
	oa, ob := ord(ga), ord(gb)
	partner := make([]int, len(ga))
	taken := make([]bool, len(gb))
	shared := false
	for i := range partner {
		partner[i] = -1
	}
	for agent, as := range oa {
		for k, i := range as {
			if k < len(ob[agent]) {
				partner[i], taken[ob[agent][k]], shared = ob[agent][k], true, true
			}
		}
	}
	if !shared {
		for i := range partner {
			if i < len(gb) {
				partner[i], taken[i] = i, true
			}
		}
	}
	var out [][2]int
	for i, j := range partner {
		out = append(out, [2]int{i, j})
	}
	for j, t := range taken {
		if !t {
			out = append(out, [2]int{-1, j})
		}
	}
	return out
}

// align lines the two sides up.
func alignOnly(a, b *Side, o Only) *Comparison {
	c := &Comparison{A: a, B: b, Parted: -1, FirstChanged: -1, SameTask: true}
	ga, gb := only(groups(a.Study, a.Replay), o.A), only(groups(b.Study, b.Replay), o.B)
	sig := signer{seed: maphash.MakeSeed(), ids: map[uint64]rune{}}
	for _, gp := range pairGroups(ga, gb) {
		cp := ConvPair{From: len(c.Pairs)}
		var ca, cb []int
		if gp[0] >= 0 {
			g := ga[gp[0]]
			cp.ANumber, cp.AAgent, ca = g.number, g.agent, g.calls
			cp.ARequest = a.Replay.Calls[g.calls[0]].Run.Request
		}
		if gp[1] >= 0 {
			g := gb[gp[1]]
			cp.BNumber, cp.BAgent, cb = g.number, g.agent, g.calls
			cp.BRequest = b.Replay.Calls[g.calls[0]].Run.Request
		}
		cp.SameTask = gp[0] >= 0 && gp[1] >= 0 && cp.ARequest == cp.BRequest
		c.SameTask = c.SameTask && cp.SameTask
		conv := len(c.Convs)
		for _, ij := range sig.align(a.Replay, b.Replay, ca, cb) {
			c.Pairs = append(c.Pairs, c.pair(conv, ij[0], ij[1]))
		}
		cp.To = len(c.Pairs)
		c.Convs = append(c.Convs, cp)
	}
	if len(c.Convs) == 0 {
		c.SameTask = true // two files with no call: nothing tells them apart
	}
	for i := range c.Pairs {
		p := &c.Pairs[i]
		switch p.State {
		case Same:
			c.Totals.Same++
		case Changed:
			c.Totals.Changed++
		case AOnly:
			c.Totals.AOnly++
		case BOnly:
			c.Totals.BOnly++
		}
		if p.State != Same && c.FirstChanged < 0 {
			c.FirstChanged = i
		}
		if p.Parts && c.Parted < 0 {
			c.Parted = i
		}
	}
	return c
}

// signer names each call by what it was asked and what it asked for: the
// run's request on a run's first call, then each tool call's name and
// arguments (an answer with none is an answer); a name is a rune, so
// that two conversations are aligned as two rune strings are diffed.
type signer struct {
	seed maphash.Seed
	ids  map[uint64]rune
}

func (s *signer) of(c *window.CallReplay) rune {
	var h maphash.Hash
	h.SetSeed(s.seed)
	if first(c) {
		h.WriteString("request\x00")
		h.WriteString(c.Run.Request)
		h.WriteByte(0)
	}
	for _, t := range c.Call.Facts.Response.ToolCalls {
		h.WriteString(t.Name)
		h.WriteByte(0)
		h.Write(t.Args)
		h.WriteByte(0)
	}
	if len(c.Call.Facts.Response.ToolCalls) == 0 {
		h.WriteString("answer")
	}
	k := h.Sum64()
	id, ok := s.ids[k]
	if !ok {
		id = rune(len(s.ids))
		s.ids[k] = id
	}
	return id
}

// first reports whether c is its run's first call, the one its request
// is asked on.
func first(c *window.CallReplay) bool {
	return len(c.Run.Calls) > 0 && c.Run.Calls[0] == c.Call
}

// align pairs calls ca of a with calls cb of b: the calls of the same
// name matched one to one, in order (matches: a patience diff anchored on
// the names each side has once, go-udiff's lcs between; memory linear in
// the calls), and within each stretch between two matched calls the calls
// taken in turn, one of each side as one pair while both have one, the
// rest one side only.
func (s *signer) align(a, b *window.Replay, ca, cb []int) [][2]int {
	ra := make([]rune, len(ca))
	for k, i := range ca {
		ra[k] = s.of(&a.Calls[i])
	}
	rb := make([]rune, len(cb))
	for k, i := range cb {
		rb[k] = s.of(&b.Calls[i])
	}
	out := make([][2]int, 0, max(len(ca), len(cb)))
	x, y := 0, 0
	// between two matched calls, the calls of each side taken in turn
	gap := func(toX, toY int) {
		for x < toX || y < toY {
			i, j := -1, -1
			if x < toX {
				i, x = ca[x], x+1
			}
			if y < toY {
				j, y = cb[y], y+1
			}
			out = append(out, [2]int{i, j})
		}
	}
	for _, m := range matches(ra, rb) {
		gap(m[0], m[1])
		out = append(out, [2]int{ca[x], cb[y]})
		x, y = x+1, y+1
	}
	gap(len(ca), len(cb))
	return out
}

// pair is calls i of A and j of B (-1: none) compared.
func (c *Comparison) pair(conv, i, j int) Pair {
	p := Pair{A: i, B: j, Conv: conv}
	var va, vb []Value
	if i >= 0 {
		va = c.A.Values[i]
	}
	if j >= 0 {
		vb = c.B.Values[j]
	}
	p.Values, p.Verdicts = pairValues(va, vb)
	for _, v := range va {
		if v.OutOfView() {
			p.OutA++
		}
	}
	for _, v := range vb {
		if v.OutOfView() {
			p.OutB++
		}
	}
	switch {
	case j < 0:
		p.State, p.Parts = AOnly, true
		return p
	case i < 0:
		p.State, p.Parts = BOnly, true
		return p
	}
	x, y := &c.A.Replay.Calls[i], &c.B.Replay.Calls[j]
	p.Parts = !sameAsk(x, y)
	p.AOnly, p.BOnly, p.Edited = WindowDiff(x.Window(), y.Window())
	p.Window = len(p.AOnly)+len(p.BOnly)+len(p.Edited) > 0
	p.State = Same
	if p.Parts || p.Window || p.Verdicts {
		p.State = Changed
	}
	return p
}

// sameAsk reports whether two calls were made on the same request (a
// run's first call) and answered the same: content, tool calls and their
// arguments byte for byte. The usage is not compared: a window of
// another size is counted in other tokens.
func sameAsk(x, y *window.CallReplay) bool {
	if first(x) != first(y) || first(x) && x.Run.Request != y.Run.Request {
		return false
	}
	rx, ry := &x.Call.Facts.Response, &y.Call.Facts.Response
	if rx.Content != ry.Content || len(rx.ToolCalls) != len(ry.ToolCalls) {
		return false
	}
	for k := range rx.ToolCalls {
		tx, ty := rx.ToolCalls[k], ry.ToolCalls[k]
		if tx.Name != ty.Name || !bytes.Equal(tx.Args, ty.Args) {
			return false
		}
	}
	return true
}

// pairValues pairs the values of two responses by where they were typed
// and their text, in order; differ is whether a verdict differs or a
// value is on one side only.
func pairValues(va, vb []Value) (out []ValuePair, differ bool) {
	type key struct{ in, value string }
	left := map[key][]int{}
	for k, v := range vb {
		left[key{v.In, v.Value}] = append(left[key{v.In, v.Value}], k)
	}
	used := make([]bool, len(vb))
	for _, v := range va {
		vp := ValuePair{Value: v.Value, In: v.In, A: v.Verdict}
		k := key{v.In, v.Value}
		if q := left[k]; len(q) > 0 {
			vp.B, used[q[0]] = vb[q[0]].Verdict, true
			left[k] = q[1:]
		}
		differ = differ || vp.A != vp.B
		out = append(out, vp)
	}
	for k, v := range vb {
		if !used[k] {
			out = append(out, ValuePair{Value: v.Value, In: v.In, B: v.Verdict})
			differ = true
		}
	}
	return out, differ
}

// unmatched are the messages of a that b has no copy of (role and text),
// a copy matched once.
func unmatched(a, b []*model.Message) []*model.Message {
	type text struct{ role, content string }
	count := map[text]int{}
	for _, m := range b {
		count[text{m.Role, m.Content}]++
	}
	var rest []*model.Message
	for _, m := range a {
		k := text{m.Role, m.Content}
		if count[k] > 0 {
			count[k]--
			continue
		}
		rest = append(rest, m)
	}
	return rest
}

// WindowDiff compares two windows by content, whatever the order: the
// messages (role and text) only a has, only b has, and of those the ones
// that stand for one message with other text on each side — a tool
// result of the same call, the drop notice, the compaction frame, a
// correction, an assistant turn calling the same tools, or the k-th other
// message of a role — as edited pairs.
func WindowDiff(a, b []*model.Message) (aOnly, bOnly []*model.Message, edited [][2]*model.Message) {
	restA := unmatched(a, b)
	if len(restA) == 0 && len(a) == len(b) {
		return nil, nil, nil
	}
	restB := unmatched(b, a)
	byStand := map[string][]int{}
	ord := map[string]int{}
	for k, m := range restB {
		s := standsFor(m, ord)
		byStand[s] = append(byStand[s], k)
	}
	used := make([]bool, len(restB))
	ord = map[string]int{}
	for _, m := range restA {
		s := standsFor(m, ord)
		if q := byStand[s]; len(q) > 0 {
			edited = append(edited, [2]*model.Message{m, restB[q[0]]})
			used[q[0]] = true
			byStand[s] = q[1:]
			continue
		}
		aOnly = append(aOnly, m)
	}
	for k, m := range restB {
		if !used[k] {
			bOnly = append(bOnly, m)
		}
	}
	return aOnly, bOnly, edited
}

// standsFor names the message m stands for, across two windows; ord
// numbers the messages of a role that nothing else names.
func standsFor(m *model.Message, ord map[string]int) string {
	switch {
	case m.Role == model.RoleTool:
		return "tool\x00" + m.ToolCallID + "\x00" + m.ToolName
	case m.IsNotice():
		return "notice"
	case m.IsFrame():
		return "frame"
	case m.IsCorrection():
		return "correction"
	case m.Role == model.RoleAssistant && len(m.ToolCalls) > 0:
		s := "calls"
		for _, t := range m.ToolCalls {
			s += "\x00" + t.ID
		}
		return s
	}
	n := ord[m.Role]
	ord[m.Role] = n + 1
	return m.Role + "\x00" + strconv.Itoa(n)
}

// Why says in a few words how the runs part ways at p ("" when they do
// not): the first of another request, other tool calls or arguments,
// another answer, or a call of one side only.
func (c *Comparison) Why(p *Pair) string {
	switch {
	case !p.Parts:
		return ""
	case p.A < 0:
		return "a call B alone made"
	case p.B < 0:
		return "a call A alone made"
	}
	x, y := c.CallA(p), c.CallB(p)
	if first(x) != first(y) || first(x) && x.Run.Request != y.Run.Request {
		return "another request"
	}
	rx, ry := &x.Call.Facts.Response, &y.Call.Facts.Response
	if len(rx.ToolCalls) != len(ry.ToolCalls) {
		return "other tool calls"
	}
	for k := range rx.ToolCalls {
		if rx.ToolCalls[k].Name != ry.ToolCalls[k].Name {
			return "another tool called"
		}
		if !bytes.Equal(rx.ToolCalls[k].Args, ry.ToolCalls[k].Args) {
			return "other arguments to " + rx.ToolCalls[k].Name
		}
	}
	return "another answer"
}
