package provenance

import (
	"cmp"
	"slices"
	"sync/atomic"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// life is one message's time in the windows of one line of a replay (see
// lines.go). A message is one pointer from the moment the history gains
// it; the replay carries it.
type life struct {
	first, last int // replay call indexes of the first and last windows that held it
	pos         int // its position in the first window
	evictedAt   int // call index whose visit removed it; -1 while none has
	rule        string
	line        int   // the line of those windows
	other       *life // the same pointer's life on another line
	// unsent: a visit removed it before any call was sent it (a fold can
	// take a result appended since the last call); first is that visit's
	// call and pos its place among what left there, last is -1
	unsent bool
	owner  *lives // the layer that made it, the only one that changes it
}

// goneList is the messages the visits of a run chain removed, newest
// visit first; chains of follow-ups share their predecessors' tail.
type goneList struct {
	msgs []*model.Message
	next *goneList
}

// trackUpTo walks the replay's first n calls once: each message's
// life, and what left each chain (gone and preds are of every call). A
// call's predecessor on its run chain is the replay's
// (window.Replay.Preds): the calls before it in its run and in the runs
// it continues, never a sibling branch. It gives up (all nil) when quit
// is set.
func trackUpTo(r *window.Replay, n int, quit *atomic.Bool) (*lives, []*goneList, []int) {
	ls := newLives(len(r.Calls))
	gone := make([]*goneList, len(r.Calls))
	preds := r.Preds()
	for i := range max(n, 0) {
		if given(quit, i) {
			return nil, nil, nil
		}
		ls.step(r, i, preds, gone)
	}
	return ls, gone, preds
}

// step follows call i of r: each message that left at its visit and
// each of its window, and what left its chain (gone).
func (ls *lives) step(r *window.Replay, i int, preds []int, gone []*goneList) {
	c := &r.Calls[i]
	pred := preds[i]
	ls.lines.Join(i, pred, c.Conversation)
	var tail *goneList
	if pred >= 0 {
		tail = gone[pred]
	}
	gone[i] = tail
	if len(c.Visit.Evicted) > 0 {
		gone[i] = &goneList{msgs: c.Visit.Evicted, next: tail}
	}
	for pos, m := range c.Visit.Evicted {
		l := ls.at(m, i)
		if l == nil {
			l = ls.add(m, i, &life{first: i, pos: pos, last: -1, unsent: true})
		} else {
			l = ls.own(m, i, l)
		}
		l.evictedAt, l.rule = i, c.Visit.EvictionRule(m, r.PolicyOf(c))
	}
	for pos, m := range c.Window() {
		l := ls.at(m, i)
		if l == nil {
			l = ls.add(m, i, &life{first: i, pos: pos, evictedAt: -1})
		} else {
			l = ls.own(m, i, l)
		}
		l.last = i
	}
}

// goneAt is the messages gone at one call, as goneBefore lists them, and
// those of them the judger has not held yet.
type goneAt struct {
	call   int // -1: none kept
	msgs   []*model.Message
	keys   []uint64 // each message's place in their order (key), for searching
	unheld []*model.Message
	// unsent are the chain's tool results removed before they were ever
	// sent, in the order they were removed (all held with unheld)
	unsent []*model.Message
	// left indexes msgs for the flags (leftAt), nil until asked
	left *leftIndex
	near *nearIndex // the same for nearest (nearAt)
}

// key is a life's place in the order of messages gone: the first call it
// was sent on, then its position in that call's window.
func key(l *life) uint64 { return uint64(l.first)<<32 | uint64(uint32(l.pos)) }

// goneBefore is the messages sent on an earlier call of call i's chain and
// no longer in its window: extended from the predecessor's when that was
// the last call asked (a walk in call order is linear), else listed.
func (b *Book) goneBefore(i int) []*model.Message {
	if b.last.call != i {
		b.extendGone(i)
	}
	return b.last.msgs
}

// extendGone makes b.last the messages gone at call i.
func (b *Book) extendGone(i int) {
	pred := b.preds[i]
	if pred < 0 || b.last.call != pred {
		msgs, unsent := listGone(i, b.r.Calls[i].Window(), b.lives, b.gone[i])
		keys := make([]uint64, len(msgs))
		for k, m := range msgs {
			keys[k] = key(b.lives.at(m, i))
		}
		unheld := append(slices.Clone(msgs), unsent...) // msgs grows in place
		b.last = goneAt{call: i, msgs: msgs, keys: keys, unheld: unheld, unsent: unsent}
		b.keepAt(i)
		return
	}
	msgs, keys, unheld, unsent := b.last.msgs, b.last.keys, b.last.unheld, b.last.unsent
	for _, m := range b.r.Calls[i].Visit.Evicted {
		l := b.lives.at(m, i)
		switch {
		case l == nil:
			continue
		case l.unsent:
			if m.Role == model.RoleTool {
				unsent, unheld = append(unsent, m), append(unheld, m)
			}
			continue
		case l.first >= i:
			continue // never sent
		}
		k := key(l)
		if n := len(keys); n == 0 || keys[n-1] < k {
			msgs, keys = append(msgs, m), append(keys, k) // what leaves was mostly sent after what left
		} else {
			at, _ := slices.BinarySearch(keys, k)
			msgs, keys = slices.Insert(msgs, at, m), slices.Insert(keys, at, k)
		}
		unheld = append(unheld, m)
		b.addLeft(b.last.left, m)
		addNear(b.last.near, m)
	}
	b.last = goneAt{call: i, msgs: msgs, keys: keys, unheld: unheld, unsent: unsent, left: b.last.left, near: b.last.near}
	b.keepAt(i)
}

// keepAt keeps a copy of last when i, the call it is of, is the last
// before the calls that may change when the file grows (GrowOn).
func (b *Book) keepAt(i int) {
	if i == b.beforeAt-1 {
		l := b.last
		b.keep = goneAt{call: i, msgs: slices.Clone(l.msgs), keys: slices.Clone(l.keys), unheld: slices.Clone(l.unheld), unsent: slices.Clone(l.unsent)}
	}
}

// findGone is m's place among the messages gone at the last call asked,
// call i.
func (b *Book) findGone(m *model.Message, i int) (int, bool) {
	l := b.lives.at(m, i)
	if l == nil {
		return 0, false
	}
	k := key(l)
	at, found := slices.BinarySearch(b.last.keys, k)
	for ; found && at < len(b.last.keys) && b.last.keys[at] == k; at++ {
		if b.last.msgs[at] == m {
			return at, true
		}
	}
	return 0, false
}

// listGone lists the messages sent on an earlier call of call i's chain
// that are not in its window, ordered by the first call they were sent on
// and their position in that call's window; and the chain's tool results
// removed before they were ever sent, in the order they were removed.
func listGone(i int, window []*model.Message, lives *lives, list *goneList) (sent, unsent []*model.Message) {
	in := make(map[*model.Message]bool, len(window))
	for _, m := range window {
		in[m] = true
	}
	seen := map[*model.Message]bool{}
	for g := list; g != nil; g = g.next {
		for _, m := range g.msgs {
			l := lives.at(m, i)
			switch {
			case l == nil || in[m] || seen[m]:
			case l.unsent:
				if m.Role == model.RoleTool {
					seen[m] = true
					unsent = append(unsent, m)
				}
			case l.first < i:
				seen[m] = true
				sent = append(sent, m)
			}
		}
	}
	order := func(a, b *model.Message) int {
		la, lb := lives.at(a, i), lives.at(b, i)
		return cmp.Or(cmp.Compare(la.first, lb.first), cmp.Compare(la.pos, lb.pos))
	}
	slices.SortFunc(sent, order)
	slices.SortFunc(unsent, order)
	return sent, unsent
}
