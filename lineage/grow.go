package lineage

import (
	"slices"
	"sync/atomic"

	"github.com/afinspect/inspect/model"
)

// A log followed as it is written is linked again on every longer part of
// it: the runs its new lines bring are linked by the decider that linked
// the last part, which goes on where it stood, and a run the new lines
// changed at its end (a run still being written) is queued again with its
// new end. Where a change could alter a link already made — a run's first
// window or request changed, a run changed that another run of its agent
// came after — the part is decided from the start: the answer is always
// Decide's.

// grower is what Grow goes on from: the decider that made a lineage,
// as it stood after the last run of rec, its recording. A decider goes on
// once (taken): the next lineage has its own.
type grower struct {
	d     *decider
	rec   *model.Recording
	taken atomic.Bool
}

// Grow is Decide of rec, a longer part of the file prev was decided for
// (the loader's next view of it, whose runs keep their places), linking
// only what the new lines change. prev is left as it was.
func Grow(prev *Lineage, rec *model.Recording) *Lineage {
	if prev == nil || prev.grow == nil || !prev.grow.taken.CompareAndSwap(false, true) {
		return Decide(rec)
	}
	g := prev.grow
	requeue, relink, ok := g.changes(prev, rec) // (a run with no call yet is queued again too: its request)
	if !ok {
		return Decide(rec)
	}
	d := g.d
	old := g.rec
	d.rec = rec
	d.out = &Lineage{Links: append(slices.Clone(prev.Links), make([]Link, len(rec.Runs)-len(old.Runs))...),
		Conversations: slices.Clone(prev.Conversations), Problems: slices.Clip(prev.Problems)}
	d.request = append(d.request, make([]string, len(rec.Runs)-len(old.Runs))...)
	for _, i := range requeue {
		d.requeue(i, old.Runs[i], rec.Runs[i])
	}
	if relink >= 0 {
		d.next(relink, rec.Runs[relink])
	}
	for i := len(old.Runs); i < len(rec.Runs); i++ {
		d.next(i, rec.Runs[i])
	}
	d.number()
	d.out.grow = &grower{d: d, rec: rec}
	return d.out
}

// changes says what of prev's recording rec changed: the runs to queue
// again with their new end, and the last run, when it had no call and
// now has (-1: none), to link now; false when a change may alter a link
// already made.
func (g *grower) changes(prev *Lineage, rec *model.Recording) (requeue []int, relink int, ok bool) {
	old := g.rec
	relink = -1
	if len(rec.Runs) < len(old.Runs) {
		return nil, -1, false
	}
	later := map[*model.Agent]int{} // each agent's last run in old that was linked
	for i, r := range old.Runs {
		if prev.Links[i].Kind != None {
			later[r.Agent] = i
		}
	}
	for i, was := range old.Runs {
		now := rec.Runs[i]
		if now.RunID != was.RunID || now.Step != was.Step || now.Pass != was.Pass || now.Agent != was.Agent || now.First != was.First ||
			now.Composition != was.Composition {
			return nil, -1, false
		}
		if now == was {
			continue
		}
		switch {
		case len(now.Calls) == 0:
			requeue = append(requeue, i) // no link, no end: its request only
		case len(was.Calls) == 0:
			if i != len(old.Runs)-1 {
				return nil, -1, false // runs after it were linked without it
			}
			relink = i
		case later[was.Agent] != i || prev.Links[i].Kind == None || !sameStart(was, now):
			return nil, -1, false
		default:
			requeue = append(requeue, i)
		}
	}
	return requeue, relink, true
}

// sameStart: what a run's link is read from is the same in was and now:
// its first window, its request, and, with no turn_start, the tool call
// its first tool_end answers (§10.7 rule 1).
func sameStart(was, now *model.Run) bool {
	w, n := FirstWindow(was), FirstWindow(now)
	return (w == nil) == (n == nil) && len(w) == len(n) && (len(w) == 0 || &w[0] == &n[0]) && was.HasTurnStart == now.HasTurnStart &&
		was.Request == now.Request && was.RequestMessage == now.RequestMessage &&
		(now.HasTurnStart || was.FirstToolEnd == now.FirstToolEnd && was.FirstOpened == now.FirstOpened)
}

// requeue queues run i again, now its end changed (was, as queued).
func (d *decider) requeue(i int, was, now *model.Run) {
	for _, id := range was.Unanswered {
		k := textKey{was.Agent, id}
		d.x.paused[k] = slices.DeleteFunc(d.x.paused[k], func(j int) bool { return j == i })
	}
	a := was.Agent
	d.unfiled[a] = slices.DeleteFunc(d.unfiled[a], func(j int) bool { return j == i })
	delete(d.x.waiting, i)
	d.queue(i, now)
}
