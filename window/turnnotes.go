package window

import (
	"math"

	"github.com/afinspect/inspect/model"
)

// A long replay's turn log (ledger.go) is built after the replay, from
// every call's window; read then, each message of 50,000 windows is a
// trip to memory. So the replay notes, while a call's messages are fresh
// (on its own goroutine, split.go), what the call adds to the log: the
// turns of its window the call before it in its run had not (known),
// the turns that left, each by its first message's ID. Building the log
// then reads the notes, not the messages. A first message with no ID (a
// notice, a frame, one built by hand) is noted as 0, and kept in the
// call's made, in order (split.go's remap replaces it there too).
//
// The notes of a call: from, the count of turns starting at from or
// later, each as start, end (in Before) and its first message's ID; then
// the count of turns that left, each as its first message's ID.

// noteRoom is the room made for a call's notes: most add one turn and
// see one leave (7).
const noteRoom = 8

// notes is where one goroutine's calls keep their notes: each call's
// are a part of these, so a call costs no allocation of its own.
type notes struct {
	ints []int32
	made []*model.Message
}

func newNotes(calls int) *notes {
	return &notes{ints: make([]int32, 0, noteRoom*calls), made: make([]*model.Message, 0, calls)}
}

// note notes what call c, whose run's call before it is prev (nil:
// none), adds to the turn log; c.notes and c.made are its parts.
func (ns *notes) note(prev, c *CallReplay) {
	v := &c.Visit
	from := 0
	if prev != nil {
		from = knownAfter(prev, v)
	}
	k, km := len(ns.ints), len(ns.made)
	ns.ints = append(ns.ints, int32(from), 0)
	w := v.Before
	start := -1
	for i := from; i <= len(w); i++ {
		if i < len(w) && w[i].Role == model.RoleTool && (i > from || i > 0) {
			continue // a tool message at from continues the turn before it
		}
		if start >= 0 {
			ns.turn(w[start], int32(start), int32(i))
			ns.ints[k+1]++
		}
		start = i
	}
	ev := len(ns.ints)
	ns.ints = append(ns.ints, 0)
	for i, m := range v.Evicted {
		if m.Role != model.RoleTool || i == 0 {
			ns.ints = append(ns.ints, ns.id(m))
			ns.ints[ev]++
		}
	}
	c.notes, c.made = ns.ints[k:len(ns.ints):len(ns.ints)], ns.made[km:len(ns.made):len(ns.made)]
}

// turn notes a turn of Before, w[start:end], whose first message is h.
func (ns *notes) turn(h *model.Message, start, end int32) {
	ns.ints = append(ns.ints, start, end, ns.id(h))
}

// id is m's ID as noted; 0, m kept in made, when it has none.
func (ns *notes) id(m *model.Message) int32 {
	id := noteID(m)
	if id == 0 {
		ns.made = append(ns.made, m)
	}
	return id
}

// noteID is m's ID as noted: 0 when the log must read m itself.
func noteID(m *model.Message) int32 {
	if m.ID <= 0 || m.ID > math.MaxInt32 || m.Placeholder {
		return 0
	}
	return int32(m.ID)
}

// noted is logBuild.scanned by call ci's notes (c.notes).
func (b *logBuild) noted(c *CallReplay, ci int) int32 {
	v, ns, made := &c.Visit, c.notes, c.made
	i := 2
	for range ns[1] {
		start, end, id := int(ns[i]), int(ns[i+1]), int(ns[i+2])
		i += 3
		if id == 0 {
			h := b.aliased(made[0])
			made = made[1:]
			if b.find(h) < 0 {
				b.at.set(h, int(b.add(logEntry{msgs: v.Before[start:end], first: int32(ci), left: -1, wroteAt: -1, placeholder: h.Placeholder}, -1, h.ID)))
			}
			continue
		}
		if _, ok := b.at.ofID(id); !ok { // its first message is not read: no trip to memory
			b.at.setID(id, int(b.add(logEntry{msgs: v.Before[start:end], first: int32(ci), left: -1, wroteAt: -1}, -1, id)))
		}
	}
	last := int32(-1)
	for _, id := range ns[i+1 : i+1+int(ns[i])] {
		if id == 0 {
			last = b.find(b.aliased(made[0]))
			made = made[1:]
		} else if at, ok := b.at.ofID(int(id)); ok {
			last = int32(at)
		} else {
			last = -1
		}
		b.nodes[last].left = int32(ci)
	}
	return last
}

// aliased is m, or the message it reads as while b.alias is set.
func (b *logBuild) aliased(m *model.Message) *model.Message {
	if to, ok := b.alias[m]; ok {
		return to
	}
	return m
}

// noteAt notes out[at], call ci of the run, the call before it (when
// ci > 0) at out[at-1].
func (ns *notes) noteAt(out []CallReplay, at, ci int) {
	var prev *CallReplay
	if ci > 0 {
		prev = &out[at-1]
	}
	ns.note(prev, &out[at])
}
