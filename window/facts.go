package window

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// A visit reads every message of its window to cut it into turns, size
// them, find the anchor and number the tool names. The window of a
// chain's next visit is this visit's window, what left replaced by a
// notice, with the call's messages after it: so the arena keeps what the
// last visit read, moved to the window it sent (arena.after), and the
// next visit reads only the messages after that (segmentFacts). What is
// kept is trusted only for a window that starts with exactly the same
// messages (the same pointers, in order), for the same request; the
// tests judge every visit against the full pass (judgeFacts).

// readFacts are what one pass over window w reads of its messages.
type readFacts struct {
	w        []*model.Message
	request  string
	anchored bool
	named    bool         // ids were read (pins on)
	turns    []model.Turn // Segment(w)
	tc       []int        // each turn's size in characters
	total    int          // the window's size: the sum of tc
	ids      []int32      // each message's tool name number (pinning.Names.Of), when named
	tf       []turnFact   // what each turn holds that the refusal engine asks (factOf)
	exact    int          // the last person-said message that is the request, -1 for none
	last     int          // the last person-said message, -1 for none
	byCall   bool         // a tool result named by its call: its name depends on the window
	ok       bool         // they are of w
	reused   int          // how many of w's first messages were not read again
}

// judgeFacts, when set (by tests), sees what every visit read.
var judgeFacts func(f *readFacts, names *pinning.Names)

func (f *readFacts) anchor() int {
	if f.exact >= 0 {
		return f.exact
	}
	return f.last
}

// segmentFacts is segmentAnchor (the anchor written to *at) and
// turnChars in one pass over w, and when named the number of each
// message's tool name (pinning.Names.Of, -1 for none), in memory reused
// by every visit. The messages of the window the last visit sent, when
// w starts with them, are not read again.
func (a *arena) segmentFacts(w []*model.Message, request string, anchored, named bool, at *int) ([]model.Turn, []int, []int32) {
	k := 0
	if p := a.prevFacts(); p.ok && !p.byCall && p.request == request && p.anchored == anchored && p.named == named && samePrefix(p.w, w) {
		// the last visit's facts, moved to its window, are this window's
		// first: taken as they are, not copied
		k = len(p.w)
		a.cur ^= 1
		a.prevFacts().ok = false
	} else {
		f := a.facts()
		f.turns, f.tc, f.ids, f.tf = f.turns[:0], f.tc[:0], f.ids[:0], f.tf[:0]
		f.exact, f.last, f.byCall, f.total = -1, -1, false, 0
	}
	f := a.facts()
	f.w, f.request, f.anchored, f.named, f.ok = w, request, anchored, named, true
	f.reused = k
	// the turns read in this pass: the new ones, and the last one kept
	// when a tool result joins it
	read := len(f.turns)
	if k < len(w) && read > 0 && w[k].Role == model.RoleTool {
		read--
	}
	namer := pinning.NewNamer(w)
	for i := k; i < len(w); i++ {
		m := w[i]
		if named {
			if m.Role == model.RoleTool && m.ToolName == "" && m.ToolCallID != "" {
				f.byCall = true
			}
			f.ids = append(f.ids, a.toolNames.Of(namer, m))
		}
		if m.Role == model.RoleTool {
			if len(f.turns) > 0 {
				f.turns[len(f.turns)-1].Length++
				f.tc[len(f.tc)-1] += m.Chars()
				f.total += m.Chars()
				continue
			}
		} else if anchored && m.IsPersonSaid() {
			f.last = i
			if m.Content == request {
				f.exact = i
			}
		}
		f.turns = append(f.turns, model.Turn{Index: len(f.turns), Start: i, Length: 1})
		f.tc = append(f.tc, m.Chars())
		f.total += m.Chars()
	}
	f.tf = f.tf[:read]
	for _, t := range f.turns[read:] {
		var ids []int32
		if named {
			ids = f.ids[t.Start : t.Start+t.Length]
		}
		f.tf = append(f.tf, factOf(w[t.Start:t.Start+t.Length], ids))
	}
	*at = f.anchor()
	if judgeFacts != nil {
		judgeFacts(f, &a.toolNames)
	}
	if !named {
		return f.turns, f.tc, nil
	}
	return f.turns, f.tc, f.ids
}

// samePrefix: w starts with the messages of p (the same pointers), as
// it does at once when it is p extended in place (one memory).
func samePrefix(p, w []*model.Message) bool {
	if len(p) == 0 || len(p) > len(w) {
		return false
	}
	if &p[0] == &w[0] {
		return true
	}
	for i, m := range p {
		if w[i] != m {
			return false
		}
	}
	return true
}

// after moves the facts of v's window (v.Before, read by segmentFacts)
// to the window it sent, v.After before deliveries: kept as they were
// when nothing left, else without the span and with the notice in its
// place (edited where they are: the visit is over); not kept (the next
// visit reads its window whole) when the visit folded a span into a
// frame, or the span held the anchor's candidates.
func (a *arena) after(v *Visit) {
	f := a.facts()
	a.prevFacts().ok = false
	if !f.ok || !sameSlice(f.w, v.Before) || v.Frame != nil {
		return
	}
	f.ok = false
	if len(v.Evicted) == 0 {
		if sameSlice(v.After, v.Before) {
			a.cur ^= 1
			a.prevFacts().ok = true
		}
		return
	}
	from, to := int(v.from), int(v.to)
	if from < 0 || to >= len(f.turns) || from > to {
		return
	}
	s, e := f.turns[from].Start, f.turns[to].Start+f.turns[to].Length
	notice := 0
	if v.Notice != nil {
		notice = 1
	}
	if len(v.After) != len(v.Before)-(e-s)+notice || f.exact >= s && f.exact < e || f.last >= s && f.last < e {
		return
	}
	dm, dt := e-s-notice, to-from+1-notice
	f.w, f.exact, f.last = v.After, shifted(f.exact, e, dm), shifted(f.last, e, dm)
	f.total -= sum(f.tc[from : to+1])
	// the turns after the span move down over it (each is read before
	// it is written over: the place it moves to is never after it)
	k := from
	if notice == 1 {
		f.turns[k] = model.Turn{Index: from, Start: s, Length: 1}
		f.tc[k] = v.Notice.Chars()
		f.total += f.tc[k]
		k++
	}
	for _, t := range f.turns[to+1:] {
		f.turns[k] = model.Turn{Index: t.Index - dt, Start: t.Start - dm, Length: t.Length}
		k++
	}
	f.turns = f.turns[:k]
	f.tc = f.tc[:from+notice+copy(f.tc[from+notice:], f.tc[to+1:])]
	f.tf = f.tf[:from+notice+copy(f.tf[from+notice:], f.tf[to+1:])]
	var ids []int32
	if f.named {
		if notice == 1 {
			f.ids[s] = -1
		}
		f.ids = f.ids[:s+notice+copy(f.ids[s+notice:], f.ids[e:])]
		ids = f.ids[s : s+notice]
	}
	if notice == 1 {
		f.tf[from] = factOf(v.After[s:s+1], ids)
	}
	a.cur ^= 1
	a.prevFacts().ok = true
}

// shifted is message index i of a window that lost dm messages before
// end (i is not among them).
func shifted(i, end, dm int) int {
	if i >= end {
		return i - dm
	}
	return i
}

// sameSlice: a and b are the same slice of the same memory.
func sameSlice(a, b []*model.Message) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// turnFacts are the turnFacts of the window segmentFacts read last.
func (a *arena) turnFacts() []turnFact { return a.facts().tf }

// windowChars is the size of the window segmentFacts read last.
func (a *arena) windowChars() int { return a.facts().total }

// facts is what the visit read of its window; prevFacts what the last
// visit read, moved to the window it sent.
func (a *arena) facts() *readFacts     { return &a.read[a.cur&1] }
func (a *arena) prevFacts() *readFacts { return &a.read[a.cur&1^1] }

// turnFact is what the refusal engine asks of a turn's own messages,
// read once when the turn is read: the number of the tool name its
// results carry (-1 none, or the facts were read without names; -2 more
// than one), whether it holds a system message, and whether a tool call
// of it may be unanswered (it is not answered by a result in the turn,
// or the turn is too long to look).
type turnFact struct {
	tid  int32
	sys  bool
	open bool
}

// factLook is the longest turn whose calls factOf matches with its
// results (a look along the turn for each call).
const factLook = 16

// factOf reads the turnFact of the messages of one turn, ids their tool
// name numbers (nil: not read).
func factOf(msgs []*model.Message, ids []int32) turnFact {
	tf := turnFact{tid: -1}
	for i, m := range msgs {
		if m.Role == model.RoleSystem {
			tf.sys = true
		}
		if ids != nil {
			switch id := ids[i]; {
			case id < 0:
			case tf.tid == -1:
				tf.tid = id
			case tf.tid != id:
				tf.tid = -2
			}
		}
		for j := range m.ToolCalls {
			if len(msgs) > factLook || !answeredIn(msgs, m.ToolCalls[j].ID) {
				tf.open = true
			}
		}
	}
	return tf
}
