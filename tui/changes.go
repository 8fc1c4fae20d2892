package tui

import (
	"fmt"

	"github.com/afinspect/inspect/window"
)

// fateChanges says, for the turns on screen, how each one's fate under
// the user's policy differs from the recorded policy's at the same call.
type fateChanges struct {
	byKey map[string]string // Row.Key -> "was evicted, now pinned"
	// onlyRecorded counts turns the recorded replay has at this call and
	// the user's has not (a notice the user's policy never wrote).
	onlyRecorded int
}

// count is how many turns differ, as the policy bar reports it.
func (c fateChanges) count() int { return len(c.byKey) + c.onlyRecorded }

// of is what changed for the turn with key k, "" when nothing did.
func (c fateChanges) of(k string) string { return c.byKey[k] }

// compareFates matches the two ledgers of one call by Row.Key.
func compareFates(was, now []window.Row) fateChanges {
	c := fateChanges{byKey: map[string]string{}}
	old := make(map[string]window.Row, len(was))
	for _, r := range was {
		old[r.Key] = r
	}
	seen := 0
	for _, r := range now {
		o, ok := old[r.Key]
		switch {
		case !ok:
			c.byKey[r.Key] = "not in the recorded policy's replay"
			continue
		case o.Fate != r.Fate:
			c.byKey[r.Key] = fmt.Sprintf("was %s, now %s", o.Fate, r.Fate)
		case r.Fate == window.FateGone && o.LeftAt != r.LeftAt:
			c.byKey[r.Key] = fmt.Sprintf("left at call %d, was call %d", r.LeftAt+1, o.LeftAt+1)
		}
		seen++
	}
	c.onlyRecorded = len(was) - seen
	return c
}
