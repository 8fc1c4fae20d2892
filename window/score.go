package window

import "github.com/afinspect/inspect/model"

// Tally is how many recorded windows a replay reproduces (matched), of
// those it was compared with.
type Tally struct{ Matched, Compared int }

// Add counts c.
func (t *Tally) Add(c *CallReplay) {
	switch c.Recorded() {
	case Match:
		t.Matched++
		t.Compared++
	case Differs:
		t.Compared++
	}
}

// ByRun is r's tallies by run.
func (r *Replay) ByRun() map[*model.Run]Tally {
	out := map[*model.Run]Tally{}
	for i := range r.Calls {
		c := &r.Calls[i]
		t := out[c.Run]
		t.Add(c)
		out[c.Run] = t
	}
	return out
}

// Score counts the calls of r whose recorded window it reproduces
// (matched), of those that have one (compared).
func (r *Replay) Score() (matched, compared int) {
	var t Tally
	for i := range r.Calls {
		t.Add(&r.Calls[i])
	}
	return t.Matched, t.Compared
}
