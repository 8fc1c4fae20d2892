package window

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

// LedgerOf is a ledger of the given rows, for a screen drawn from rows
// made by hand.
func LedgerOf(rows []Row) *Ledger {
	l := &Ledger{own: map[int]*Row{}}
	for i := range rows {
		r := &rows[i]
		l.own[i] = r
		l.parts = append(l.parts, part{start: i, own: r})
		if r.Sent {
			l.sent++
		}
		if r.Fate == FateGone {
			l.gone++
		}
	}
	l.n = len(rows)
	return l
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
