package window

import "strings"

// A replay's turns as a whole (every call, every branch): when each turn
// was first sent and when it left, for the views that tell a turn's story
// rather than one call's ledger (LedgerAt, TurnAt).

// Story is each turn's first call and the call it left at (-1: never),
// by Row.Key, over the whole replay, with its place in the replay's list
// of turns (0..Turns()-1).
func (r *Replay) Story(fn func(at int, key string, first, left int)) {
	for i, e := range r.turnLog() {
		fn(i, e.key, int(e.first), int(e.left))
	}
}

// Turns is how many turns the conversation ever had in the replay.
func (r *Replay) Turns() int { return len(r.turnLog()) }

// StoryOf is the turn with key k as Story tells it; ok is false when the
// replay has no such turn.
func (r *Replay) StoryOf(k string) (at, first, left int, ok bool) {
	r.turnLog()
	i, ok := r.keyed(k)
	if !ok {
		return -1, 0, 0, false
	}
	e := &r.log[i]
	return i, int(e.first), int(e.left), true
}

// TurnOf is the turn with key k over the whole replay (TurnAt: over one
// call's chain, where the conversation branches): the row it has
// once its story is told (First, LeftAt (-1: it never left), WroteAt,
// Placeholder), shared; ok is false when the replay has no such turn.
func (r *Replay) TurnOf(k string) (row *Row, ok bool) {
	ix := r.ledgerIndex()
	i, ok := r.keyed(k)
	if !ok {
		return nil, false
	}
	return ix.gone.at(i), true
}

// keyed is the place in the log of the turn whose Row.Key is k, read
// back from the key: "m<ID>" by the message ID, "notice@<call>" by the
// notice that call wrote; a key of a message built by hand is looked
// for.
func (r *Replay) keyed(k string) (int, bool) {
	i, ok := -1, false
	switch {
	case strings.HasPrefix(k, "m"):
		if id, isNum := keyNumber(k[1:]); isNum {
			i, ok = r.places.ofID(id)
		}
	case strings.HasPrefix(k, "notice@"):
		if c, isNum := keyNumber(k[len("notice@"):]); isNum && c < len(r.Calls) {
			if i, ok = r.places.ofCall(c); !ok {
				v := &r.Calls[c].Visit
				written := v.Notice
				if v.Frame != nil {
					written = v.Frame
				}
				i, ok = r.placeOf(written)
			}
		}
	default:
		for j := range r.log {
			if r.log[j].key == k {
				return j, true
			}
		}
	}
	return i, ok && r.log[i].key == k
}

// keyNumber reads the number a key ends with: decimal digits only, as
// name writes them. (A key written otherwise is no key of the log:
// whatever number is read from it, the turn found has another key.)
func keyNumber(s string) (int, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int(d)
	}
	return n, true
}

// StoryBeside is Story told beside o's: every turn of r in order, with
// its first call and the call it left at (-1: never), and the same of
// the turn of o with its Row.Key (ok false when o has none).
func (r *Replay) StoryBeside(o *Replay, fn func(first, left, oFirst, oLeft int, ok bool)) {
	r.turnLog()
	o.turnLog()
	for i := range r.log {
		e := &r.log[i]
		if j, ok := o.keyed(e.key); ok {
			f := &o.log[j]
			fn(int(e.first), int(e.left), int(f.first), int(f.left), true)
			continue
		}
		fn(int(e.first), int(e.left), 0, 0, false)
	}
}
