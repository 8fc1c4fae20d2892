package advise

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// walker judges the values of one agent's calls in one replay after
// another: which are `left` (docs/rules/evidence.md §5) — no message of the
// window, nor the request or system prompt, holds them, and a message
// sent on an earlier call of the chain that is no longer in view does.
// What each message holds was read once (adviseBase); per replay only
// membership changes, and it is followed by what changes: a visit's
// window is its chain predecessor's, plus what the history gained since,
// less the span it evicted, plus its notice or frame and its deliveries
// (window.Visit). The chains are walked depth first, a call's changes
// undone when it is left, so that each call sees its own chain's past
// and never a sibling branch's. Not safe for concurrent use: one per
// goroutine.
type walker struct {
	b *adviseBase
	// by holder id (the known ones, then this replay's own):
	byID      []*held
	seen      []bool  // in a window of the chain so far: sent
	gone      []bool  // sent, then evicted, and not back in view since
	in        []int32 // copies in the current window
	evictedAt []int32 // the step at which it was evicted before it was ever in a window
	// by value id:
	goneCount []int32 // holders gone that hold it (Holding.Gone)
	inCount   []int32 // holders in the current window that hold it (Holding.In)
	// the current window's forms, at most (Holding.Bound, Own): while
	// below FormLimit the library's sets are their messages' union
	tools, owns, exempt int

	step  int32
	undo  []undoOp
	marks []mark
	local map[*model.Message]localHeld // this replay's own messages (notices, frames)
	slab  [][]held                     // what the tool messages among them hold, in blocks reused by the next replay
	texts map[textKey]*held            // what the others hold, by text (writtenText)
	used  int
	room  []window.CallReplay // the calls of the replay last tallied, written over by the next
}

// localHeld is what a message the replay wrote holds, and its holder id
// in this replay (-1: none).
type localHeld struct {
	h  *held
	id int32
}

type undoOp struct {
	op uint8
	id int32
}

// mark is what leaving a call restores.
type mark struct {
	undo                int
	tools, owns, exempt int
}

const (
	opSeen = iota // seen was set
	opGone        // gone was set
	opBack        // gone was cleared: the message came back into view
	opIn          // a copy entered the window
	opOut         // a copy left the window
)

func newWalker(b *adviseBase) *walker {
	w := &walker{b: b, byID: make([]*held, b.holders), goneCount: make([]int32, len(b.values)), inCount: make([]int32, len(b.values))}
	w.grow(int(b.holders))
	for _, h := range b.known {
		if h.id >= 0 {
			w.byID[h.id] = h
		}
	}
	return w
}

// grow makes room for n holders' states.
func (w *walker) grow(n int) {
	for len(w.seen) < n {
		w.seen, w.gone, w.in, w.evictedAt = append(w.seen, false), append(w.gone, false), append(w.in, 0), append(w.evictedAt, -1)
	}
}

// walk tallies replay r (of the base's file, the agent under some policy).
func (w *walker) walk(r *window.Replay, t *sweepTally) {
	b := w.b
	if w.local == nil {
		w.local = map[*model.Message]localHeld{}
	}
	clear(w.local)
	w.used = 0
	w.byID = w.byID[:b.holders]
	at := b.align(r)
	var stack []int // the chain of calls entered
	for _, st := range b.steps {
		if st.leave {
			w.leave()
			stack = stack[:len(stack)-1]
			continue
		}
		var parent []*model.Message
		if n := len(stack); n > 0 {
			parent = r.Calls[at(stack[n-1])].Window()
		}
		stack = append(stack, int(st.call))
		c := &r.Calls[at(int(st.call))]
		w.enter(c, parent)
		if k := st.own; k >= 0 {
			t.add(c)
			w.judge(c, &b.calls[k], int(k), t)
		}
	}
}

// enter moves the window from parent (the chain predecessor's, nil for
// none) to call c's. The history before the visit is the parent's
// window and what was added since (Before); the visit removes one span
// of it (Evicted), may put a notice or a frame in its place, and the
// deliveries come last. A message evicted before it was ever in a window
// was never sent, and does not count as gone.
func (w *walker) enter(c *window.CallReplay, parent []*model.Message) {
	w.step++
	w.marks = append(w.marks, mark{len(w.undo), w.tools, w.owns, w.exempt})
	v := &c.Visit
	before, win := v.Before, c.Window()
	var made []*model.Message
	for _, m := range []*model.Message{v.Notice, v.Frame} {
		if m != nil {
			made = append(made, m)
		}
	}
	kept := len(before) - len(v.Evicted) + len(made)
	if !prefix(before, parent) || kept > len(win) {
		w.rebuild(parent, win, v.Evicted)
		return
	}
	for _, m := range v.Evicted {
		h, id := w.lookup(m)
		w.count(h, -1)
		switch {
		case id < 0:
		case w.in[id] > 0:
			w.out(id)
		default:
			w.evictedAt[id] = w.step // added since the parent and gone at once: never sent
		}
	}
	for _, m := range before[len(parent):] {
		h, id := w.lookup(m)
		w.count(h, 1)
		if id >= 0 && w.evictedAt[id] == w.step {
			w.evictedAt[id] = -1
			continue
		}
		w.enterID(id)
	}
	for _, m := range append(made, win[kept:]...) { // deliveries last
		h, id := w.lookup(m)
		w.count(h, 1)
		w.enterID(id)
	}
}

// rebuild is enter where the history is not the parent's window and what
// was added since (a run that starts again from an earlier call's): every
// message of the parent's window leaves it, those evicted as gone, and
// the call's window enters whole.
func (w *walker) rebuild(parent, win, evicted []*model.Message) {
	for _, m := range parent {
		h, id := w.lookup(m)
		w.count(h, -1)
		if id >= 0 && w.in[id] > 0 {
			if slices.Contains(evicted, m) {
				w.out(id)
			} else {
				w.in[id]--
				w.undo = append(w.undo, undoOp{opOut, id})
				w.moveIn(id, -1)
			}
		}
	}
	for _, m := range win {
		h, id := w.lookup(m)
		w.count(h, 1)
		w.enterID(id)
	}
}

// prefix reports whether the history starts with the parent's window:
// the same memory, most often (the replay extends a window in place).
func prefix(before, parent []*model.Message) bool {
	switch {
	case len(parent) == 0:
		return true
	case len(before) < len(parent):
		return false
	case &before[0] == &parent[0]:
		return true
	}
	return slices.Equal(before[:len(parent)], parent)
}

// count adds or takes a message's forms to or from the window's.
func (w *walker) count(h *held, d int) {
	if h.tool {
		w.tools, w.owns = w.tools+d*h.bound, w.owns+d*h.own
	} else {
		w.exempt += d * h.bound
	}
}

// enterID puts a copy of holder id in the window (nothing for -1): it
// is sent, and no longer gone.
func (w *walker) enterID(id int32) {
	if id < 0 {
		return
	}
	w.in[id]++
	w.undo = append(w.undo, undoOp{opIn, id})
	if w.in[id] == 1 {
		w.moveIn(id, 1)
	}
	if w.gone[id] {
		w.setGone(id, false, opBack)
	}
	if !w.seen[id] {
		w.seen[id] = true
		w.undo = append(w.undo, undoOp{opSeen, id})
	}
}

// out takes a copy of holder id out of the window at an eviction: when
// none is left, a message sent is gone.
func (w *walker) out(id int32) {
	w.in[id]--
	w.undo = append(w.undo, undoOp{opOut, id})
	if w.in[id] == 0 {
		w.moveIn(id, -1)
		if w.seen[id] && !w.gone[id] {
			w.setGone(id, true, opGone)
		}
	}
}

// moveIn counts holder id's values in or out of the window.
func (w *walker) moveIn(id int32, d int32) {
	for _, v := range w.byID[id].in {
		w.inCount[v] += d
	}
}

// setGone marks holder id gone (or back in view), counting its values.
func (w *walker) setGone(id int32, on bool, op uint8) {
	w.gone[id] = on
	d := int32(1)
	if !on {
		d = -1
	}
	for _, v := range w.byID[id].gone {
		w.goneCount[v] += d
	}
	w.undo = append(w.undo, undoOp{op, id})
}

// leave undoes what entering the last call entered did.
func (w *walker) leave() {
	m := w.marks[len(w.marks)-1]
	w.marks = w.marks[:len(w.marks)-1]
	for i := len(w.undo) - 1; i >= m.undo; i-- {
		u := w.undo[i]
		switch u.op {
		case opSeen:
			w.seen[u.id] = false
		case opGone:
			w.gone[u.id] = false
			w.addGone(u.id, -1)
		case opBack:
			w.gone[u.id] = true
			w.addGone(u.id, 1)
		case opIn:
			if w.in[u.id]--; w.in[u.id] == 0 {
				w.moveIn(u.id, -1)
			}
		case opOut:
			if w.in[u.id]++; w.in[u.id] == 1 {
				w.moveIn(u.id, 1)
			}
		}
	}
	w.undo = w.undo[:m.undo]
	w.tools, w.owns, w.exempt = m.tools, m.owns, m.exempt
}

func (w *walker) addGone(id int32, d int32) {
	for _, v := range w.byID[id].gone {
		w.goneCount[v] += d
	}
}
