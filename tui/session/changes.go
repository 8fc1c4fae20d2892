package session

import (
	"fmt"
	"sort"

	"github.com/afinspect/inspect/window"
)

// FateChanges says, for the turns on screen, how each one's fate under
// the user's policy differs from the recorded policy's at the same call.
// Only the turns the call has of its own are compared on every step
// (with what fateDiff knows of the rest); a turn's words are made when
// it is drawn or asked about.
type FateChanges struct {
	was, Now *window.Ledger // the recorded policy's and the user's, at the call
	n        int            // turns of the user's ledger that differ
	// onlyRecorded counts turns the recorded replay has at this call and
	// the user's has not (a notice the user's policy never wrote).
	OnlyRecorded int
	// byKey: the changes of every turn, when the two replays could not be
	// compared through fateDiff (compareRows)
	byKey map[string]fateChange
	// pending: the replays' fateDiff is being made; each turn is compared
	// when asked (of), and n and onlyRecorded are not known yet
	Pending bool
}

// fateChange is one turn's two fates: with was nil, the recorded
// policy's replay does not have the turn.
type fateChange struct {
	was, Now *window.Row
}

// Count is how many turns differ, as the policy bar reports it.
func (c FateChanges) Count() int { return c.n + c.OnlyRecorded }

// Of is what changed for the turn with key k, "" when nothing did.
func (c FateChanges) Of(k string) string {
	var ch fateChange
	switch {
	case c.byKey != nil:
		ch = c.byKey[k]
	case c.Now != nil:
		ch = fateChange{was: c.was.Row(k), Now: c.Now.Row(k)}
	}
	switch {
	case ch.Now == nil, !Differs(ch.was, ch.Now):
		return ""
	case ch.was == nil:
		return "not in the recorded policy's replay"
	case ch.was.Fate != ch.Now.Fate:
		return fmt.Sprintf("was %s, now %s", ch.was.Fate, ch.Now.Fate)
	}
	return fmt.Sprintf("left at call %d, was call %d", ch.Now.LeftAt+1, ch.was.LeftAt+1)
}

// Differs: a turn of the user's ledger (now) has another fate than in
// the recorded one (was, nil when it has none), or left at another call.
func Differs(was, now *window.Row) bool {
	return was == nil || was.Fate != now.Fate || now.Fate == window.FateGone && was.LeftAt != now.LeftAt
}

// FateDiff is made once per pair of replays of one recording (the
// recorded policy's and the user's): a turn that has left in both, or
// exists in one and has left there, is final — it differs at every
// later call or at none — so a step need not look at it.
type FateDiff struct {
	was, Now *window.Replay
	// final: for each final turn of the user's replay that differs, the
	// first call at which it is final (its last leaving + 1), ascending;
	// finalWas: the same for the turns of the recorded replay alone
	final, finalWas []int
	// exact is false when a turn starts at different calls in the two
	// replays, or the conversation branches (a whole replay's story tells
	// every branch at once); then every row is compared (compareRows)
	exact bool
}

func NewFateDiff(was, now *window.Replay) *FateDiff {
	d := &FateDiff{was: was, Now: now, exact: true}
	if was.Branches() || now.Branches() {
		d.exact = false
		return d
	}
	alone := func(to *[]int, left int) { // a turn of one replay only: final once it left
		if left >= 0 {
			*to = append(*to, left+1)
		}
	}
	// the turns of was alone, beside those of now (both logs are built:
	// each goroutine only reads them)
	done := make(chan struct{})
	go func() {
		defer close(done)
		was.StoryBeside(now, func(_, left, _, _ int, ok bool) {
			if !ok {
				alone(&d.finalWas, left)
			}
		})
		sort.Ints(d.finalWas)
	}()
	now.StoryBeside(was, func(first, left, oFirst, oLeft int, ok bool) {
		switch {
		case !ok:
			alone(&d.final, left)
		case oFirst != first:
			d.exact = false
		case oLeft >= 0 && left >= 0 && oLeft != left:
			d.final = append(d.final, max(oLeft, left)+1)
		}
	})
	sort.Ints(d.final)
	<-done
	return d
}

// CompareAt compares the two ledgers of one call: the rows either has of
// its own one by one, the rest as d knows them.
func (d *FateDiff) CompareAt(was, now *window.Ledger) FateChanges {
	if !d.exact {
		return CompareRows(was.Rows(), now.Rows())
	}
	c := FateChanges{was: was, Now: now}
	seen := map[string]bool{}
	for _, l := range []*window.Ledger{now, was} {
		for _, r := range l.Own() {
			if seen[r.Key] {
				continue
			}
			seen[r.Key] = true
			w, n := was.Row(r.Key), now.Row(r.Key)
			switch {
			case n == nil:
				c.OnlyRecorded++
			case Differs(w, n):
				c.n++
			}
		}
	}
	// final at this call, and different
	c.n += sort.SearchInts(d.final, now.Call()+1)
	c.OnlyRecorded += sort.SearchInts(d.finalWas, now.Call()+1)
	return c
}

// CompareRows matches the two ledgers of one call by Row.Key, row by row.
func CompareRows(was, now []window.Row) FateChanges {
	c := FateChanges{byKey: map[string]fateChange{}}
	old := make(map[string]int, len(was))
	for i := range was {
		old[was[i].Key] = i
	}
	seen := 0
	for i := range now {
		r := &now[i]
		oi, ok := old[r.Key]
		if !ok {
			c.byKey[r.Key] = fateChange{Now: r}
			continue
		}
		if o := &was[oi]; Differs(o, r) {
			c.byKey[r.Key] = fateChange{was: o, Now: r}
		}
		seen++
	}
	c.n = len(c.byKey)
	c.OnlyRecorded = len(was) - seen
	return c
}
