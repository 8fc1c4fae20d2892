package tui

import (
	"fmt"

	"github.com/afinspect/inspect/window"
)

// fateChanges says, for the turns on screen, how each one's fate under
// the user's policy differs from the recorded policy's at the same call.
// The comparison runs on every step; its words are made only for the
// turn asked about.
type fateChanges struct {
	byKey map[string]fateChange // by Row.Key
	// onlyRecorded counts turns the recorded replay has at this call and
	// the user's has not (a notice the user's policy never wrote).
	onlyRecorded int
}

// fateChange is one turn's two fates: with was nil, the recorded
// policy's replay does not have the turn.
type fateChange struct {
	was, now *window.Row
}

// count is how many turns differ, as the policy bar reports it.
func (c fateChanges) count() int { return len(c.byKey) + c.onlyRecorded }

// of is what changed for the turn with key k, "" when nothing did.
func (c fateChanges) of(k string) string {
	ch, ok := c.byKey[k]
	switch {
	case !ok:
		return ""
	case ch.was == nil:
		return "not in the recorded policy's replay"
	case ch.was.Fate != ch.now.Fate:
		return fmt.Sprintf("was %s, now %s", ch.was.Fate, ch.now.Fate)
	}
	return fmt.Sprintf("left at call %d, was call %d", ch.now.LeftAt+1, ch.was.LeftAt+1)
}

// compareFates matches the two ledgers of one call by Row.Key.
func compareFates(was, now []window.Row) fateChanges {
	c := fateChanges{byKey: map[string]fateChange{}}
	old := make(map[string]int, len(was))
	for i := range was {
		old[was[i].Key] = i
	}
	seen := 0
	for i := range now {
		r := &now[i]
		oi, ok := old[r.Key]
		if !ok {
			c.byKey[r.Key] = fateChange{now: r}
			continue
		}
		if o := &was[oi]; o.Fate != r.Fate || r.Fate == window.FateGone && o.LeftAt != r.LeftAt {
			c.byKey[r.Key] = fateChange{was: o, now: r}
		}
		seen++
	}
	c.onlyRecorded = len(was) - seen
	return c
}
