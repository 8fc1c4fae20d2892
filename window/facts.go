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
	ids      []int32      // each message's tool name number (pinning.Names.Of), when named
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
	f, p := &a.facts, &a.prev
	f.w, f.request, f.anchored, f.named, f.ok = w, request, anchored, named, true
	f.turns, f.tc, f.ids = f.turns[:0], f.tc[:0], f.ids[:0]
	f.exact, f.last, f.byCall = -1, -1, false
	k := 0
	if p.ok && !p.byCall && p.request == request && p.anchored == anchored && p.named == named && samePrefix(p.w, w) {
		k = len(p.w)
		f.turns, f.tc, f.ids = append(f.turns, p.turns...), append(f.tc, p.tc...), append(f.ids, p.ids...)
		f.exact, f.last = p.exact, p.last
	}
	f.reused = k
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
	}
	if named && k > 0 {
		f.byCall = f.byCall || p.byCall
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

// samePrefix: w starts with the messages of p (the same pointers).
func samePrefix(p, w []*model.Message) bool {
	if len(p) == 0 || len(p) > len(w) {
		return false
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
// place; not kept (the next visit reads its window whole) when the visit
// folded a span into a frame, or the span held the anchor's candidates.
func (a *arena) after(v *Visit) {
	f, p := &a.facts, &a.prev
	p.ok = false
	if !f.ok || !sameSlice(f.w, v.Before) || v.Frame != nil {
		return
	}
	f.ok = false
	if len(v.Evicted) == 0 {
		if sameSlice(v.After, v.Before) {
			a.facts, a.prev = a.prev, a.facts
			a.prev.ok = true
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
	p.w, p.request, p.anchored, p.named, p.byCall = v.After, f.request, f.anchored, f.named, f.byCall
	p.exact, p.last = shifted(f.exact, e, dm), shifted(f.last, e, dm)
	p.turns = append(p.turns[:0], f.turns[:from]...)
	p.tc = append(p.tc[:0], f.tc[:from]...)
	p.ids = p.ids[:0]
	if f.named {
		p.ids = append(p.ids, f.ids[:s]...)
	}
	if notice == 1 {
		p.turns = append(p.turns, model.Turn{Index: from, Start: s, Length: 1})
		p.tc = append(p.tc, v.Notice.Chars())
		if f.named {
			p.ids = append(p.ids, -1)
		}
	}
	for _, t := range f.turns[to+1:] {
		p.turns = append(p.turns, model.Turn{Index: t.Index - dt, Start: t.Start - dm, Length: t.Length})
	}
	p.tc = append(p.tc, f.tc[to+1:]...)
	if f.named {
		p.ids = append(p.ids, f.ids[e:]...)
	}
	p.ok = true
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
