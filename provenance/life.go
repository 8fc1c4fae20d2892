package provenance

import (
	"cmp"
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// life is one message's time in the windows of one conversation of a
// replay. A message is one pointer from the moment the history gains it;
// the replay carries it. The loader keeps a recorded message once per text
// (a delivery, an orphan's first window), so one pointer may be delivered
// to two conversations: there it is two messages (EVIDENCE-SEMANTICS §6
// "A message across calls"), each with its own life, chained by other.
type life struct {
	first, last int // replay call indexes of the first and last windows that held it
	pos         int // its position in the first window
	evictedAt   int // call index whose visit removed it; -1 while none has
	rule        string
	conv        int   // the conversation of those windows
	other       *life // the same pointer's life in another conversation
}

// lifeOf is m's life in conversation conv; nil when no window of it held m.
func lifeOf(lives map[*model.Message]*life, m *model.Message, conv int) *life {
	l := lives[m]
	for l != nil && l.conv != conv {
		l = l.other
	}
	return l
}

// goneList is the messages the visits of a run chain removed, newest
// visit first; chains of follow-ups share their predecessors' tail.
type goneList struct {
	msgs []*model.Message
	next *goneList
}

// track walks the replay once: each message's life, each call's
// predecessor on its run chain (the latest earlier call whose window or
// additions its history carries; -1 for none), and what left each chain.
func track(r *window.Replay) (map[*model.Message]*life, []*goneList, []int) {
	lives := map[*model.Message]*life{}
	lastSeen := map[*model.Message]int{}
	gone := make([]*goneList, len(r.Calls))
	preds := make([]int, len(r.Calls))
	for i := range r.Calls {
		c := &r.Calls[i]
		// (a message the replay shares between conversations, such as a
		// recorded delivery, does not make one continue the other)
		pred := -1
		for _, m := range c.Visit.Before {
			if j, ok := lastSeen[m]; ok && j < i && j > pred && r.Calls[j].Conversation == c.Conversation {
				pred = j
			}
		}
		preds[i] = pred
		var tail *goneList
		if pred >= 0 {
			tail = gone[pred]
		}
		gone[i] = tail
		if len(c.Visit.Evicted) > 0 {
			gone[i] = &goneList{msgs: c.Visit.Evicted, next: tail}
		}
		for _, m := range c.Visit.Evicted {
			if l := lifeOf(lives, m, c.Conversation); l != nil {
				l.evictedAt, l.rule = i, c.Visit.EvictionRule(m, r.PolicyOf(c))
			}
		}
		for pos, m := range c.Window() {
			head := lives[m]
			l := head
			for l != nil && l.conv != c.Conversation {
				l = l.other
			}
			if l == nil {
				l = &life{first: i, pos: pos, evictedAt: -1, conv: c.Conversation, other: head}
				lives[m] = l
			}
			l.last = i
			lastSeen[m] = i
		}
		for _, m := range c.Call.Appended {
			lastSeen[m] = i
		}
	}
	return lives, gone, preds
}

// goneAt is the messages gone at one call, as goneBefore lists them, and
// those of them the judger has not held yet.
type goneAt struct {
	call   int // -1: none kept
	msgs   []*model.Message
	unheld []*model.Message
}

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
	pred, conv := b.preds[i], b.r.Calls[i].Conversation
	if pred < 0 || b.last.call != pred {
		msgs := listGone(i, b.r.Calls[i].Window(), b.lives, conv, b.gone[i])
		b.last = goneAt{call: i, msgs: msgs, unheld: slices.Clone(msgs)} // msgs grows in place
		return
	}
	msgs, unheld := b.last.msgs, b.last.unheld
	for _, m := range b.r.Calls[i].Visit.Evicted {
		l := lifeOf(b.lives, m, conv)
		if l == nil || l.first >= i {
			continue // never sent
		}
		if n := len(msgs); n == 0 || before(lifeOf(b.lives, msgs[n-1], conv), l) {
			msgs = append(msgs, m) // what leaves was mostly sent after what left
		} else {
			at, _ := slices.BinarySearchFunc(msgs, m, b.order(conv))
			msgs = slices.Insert(msgs, at, m)
		}
		unheld = append(unheld, m)
	}
	b.last = goneAt{call: i, msgs: msgs, unheld: unheld}
}

// before: x was first sent before y (see order).
func before(x, y *life) bool {
	return x.first < y.first || x.first == y.first && x.pos < y.pos
}

// findGone is m's place among the messages gone at the last call asked,
// of conversation conv.
func (b *Book) findGone(m *model.Message, conv int) (int, bool) {
	if lifeOf(b.lives, m, conv) == nil {
		return 0, false
	}
	msgs, order := b.last.msgs, b.order(conv)
	at, found := slices.BinarySearchFunc(msgs, m, order)
	for ; found && at < len(msgs) && order(msgs[at], m) == 0; at++ {
		if msgs[at] == m {
			return at, true
		}
	}
	return 0, false
}

// order sorts messages of conversation conv by the first call they were
// sent on, then their position in that call's window.
func (b *Book) order(conv int) func(x, y *model.Message) int {
	return func(x, y *model.Message) int {
		lx, ly := lifeOf(b.lives, x, conv), lifeOf(b.lives, y, conv)
		return cmp.Or(cmp.Compare(lx.first, ly.first), cmp.Compare(lx.pos, ly.pos))
	}
}

// listGone lists the messages sent on an earlier call of call i's chain
// (of conversation conv) that are not in its window, ordered by the first
// call they were sent on and their position in that call's window.
func listGone(i int, window []*model.Message, lives map[*model.Message]*life, conv int, list *goneList) []*model.Message {
	in := make(map[*model.Message]bool, len(window))
	for _, m := range window {
		in[m] = true
	}
	var out []*model.Message
	seen := map[*model.Message]bool{}
	for g := list; g != nil; g = g.next {
		for _, m := range g.msgs {
			if l := lifeOf(lives, m, conv); l != nil && l.first < i && !in[m] && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(a, b *model.Message) int {
		la, lb := lifeOf(lives, a, conv), lifeOf(lives, b, conv)
		return cmp.Or(cmp.Compare(la.first, lb.first), cmp.Compare(la.pos, lb.pos))
	})
	return out
}
