package window

import (
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// replayer is one replay under way: the calls so far, and what carries
// from run to run.
type replayer struct {
	rec     *model.Recording
	lin     *lineage.Lineage
	o       replayOptions
	out     *Replay
	seen    map[string]bool // the problems listed
	mem     *arena
	states  chains
	sums    map[int]*Summaries // by conversation: the latch is kept per conversation (§11.9)
	stopped bool
	runs    int
	ordered bool
	part    *logBuild // of the first run's calls, begun by split
	grow    *growth   // what is kept to go on with (o.keep), nil otherwise
	x       runner    // the runner of the run being replayed
}

func newReplayer(rec *model.Recording, lin *lineage.Lineage, o replayOptions) *replayer {
	mem := o.mem
	if mem == nil {
		mem = &arena{}
	}
	mem.prevFacts().ok = false // what the last visit read is of another replay
	rp := &replayer{rec: rec, lin: lin, o: o, out: &Replay{Lineage: lin, Rules: RulesOf(rec)}, seen: map[string]bool{}, mem: mem,
		states: newChains(len(rec.Runs), o.runs != nil), sums: map[int]*Summaries{}, ordered: true}
	if o.keep {
		rp.grow = newGrowth(rec, lin, o)
	}
	return rp
}

// one replays run i, when its agent is replayed and it has calls.
func (rp *replayer) one(i int) {
	run, out := rp.rec.Runs[i], rp.out
	p, ok := rp.o.policy(run.Agent)
	link := rp.lin.Links[i]
	if !ok || link.Kind == lineage.None || rp.stopped {
		return
	}
	if link.Kind == lineage.Composition {
		from := len(out.Calls)
		out.Calls = compositionCalls(out.Calls, run)
		rp.runs++
		rp.ordered = rp.ordered && (from == 0 || out.Calls[from].Call.Number >= out.Calls[from-1].Call.Number)
		rp.grow.composition(i, out.Calls[from:])
		rp.let()
		return
	}
	x := rp.runner(i, p)
	ch := seed(rp.rec, rp.states.get(link.Pred), i, link, rp.mem)
	seeded := *ch
	from := len(out.Calls)
	x.base = from
	if rp.o.canSplit(p, run) && x.unmeasured == nil {
		out.Calls, ch, rp.stopped = x.split(ch, rp.mem, rp.o.near, rp.o.stop, out.Calls)
		if from == 0 {
			rp.part = x.part
		}
	} else {
		out.Calls, rp.stopped = x.all(ch, rp.mem, rp.o.stop, out.Calls)
	}
	rp.ended(i, x, ch, &seeded, from)
}

// runner is the runner of run i under p.
func (rp *replayer) runner(i int, p model.Policy) *runner {
	run, link := rp.rec.Runs[i], rp.lin.Links[i]
	if rp.sums[link.Conversation] == nil && p.Strategy == model.SummarizeOldest { // (no other strategy reads them)
		rp.sums[link.Conversation] = NewSummaries(rp.o.book)
		rp.sums[link.Conversation].learn = rp.o.learn
	}
	x := &rp.x // one run at a time: nothing keeps a runner once its run is done
	*x = runner{p: p, rules: rp.out.Rules, run: run, link: link, sums: rp.sums[link.Conversation], note: rp.o.note, quit: rp.o.quit,
		unmeasured: newUnmeasured(rp.rec, rp.lin, i, p)}
	if link.Pred >= 0 && link.Pred < len(rp.rec.Runs) {
		x.pred = rp.rec.Runs[link.Pred]
		if link.Kind == lineage.FollowUp && link.Form == lineage.Reentered {
			x.resumes = lastHistoryCall(x.pred)
		}
	}
	return x
}

// ended notes run i, whose calls are out.Calls[from:] and whose chain is
// ch after them (seeded: as it started), and keeps the state it ended
// in for the runs that continue it.
func (rp *replayer) ended(i int, x *runner, ch, seeded *chain, from int) {
	out, run := rp.out, rp.rec.Runs[i]
	if len(out.Calls) > from {
		rp.runs++
		rp.ordered = rp.ordered && !x.unordered.Load() && (from == 0 || out.Calls[from].Call.Number >= out.Calls[from-1].Call.Number)
	}
	var tally callTally
	if x.tally != nil && len(out.Calls)-from == len(run.Calls) {
		tally = *x.tally
	} else {
		tally = tallyCalls(out.Calls[from:], 0)
	}
	for _, pr := range tally.problems {
		if !rp.seen[pr.text] {
			rp.seen[pr.text] = true
			out.Problems = append(out.Problems, pr.text)
		}
	}
	out.Problems = append(out.Problems, x.unmeasured.problems(run, x.p)...)
	last := *ch
	if run.Complete && run.FinalMessage != nil {
		ch.history = rp.mem.extendOne(ch.history, run.FinalMessage)
	} else if !rp.stopped && len(out.Calls) > from {
		ch.unfinished = out.Calls[len(out.Calls)-1].Visit.After
		ch.reentry = reentry(run, out.Calls[from:])
	}
	rp.states.set(i, ch)
	rp.grow.ran(i, seeded, &last, ch, out.Calls[from:], run, rp.stopped, &tally)
	rp.let()
}

// let lets the calls made go, when the replay keeps none (strip).
func (rp *replayer) let() {
	if rp.o.strip {
		clear(rp.out.Calls)
		rp.out.Calls = rp.out.Calls[:0]
	}
}

// finish puts the calls in file order.
func (rp *replayer) finish() *Replay {
	out := rp.out
	if rp.o.strip {
		if rp.o.mem != nil {
			clear(out.Calls)
			rp.o.mem.calls = out.Calls[:0]
		}
		out.Calls = nil
		rp.grow.strip()
	}
	moved := false
	if !rp.ordered { // else each call's Index is its place already (callInto)
		moved = sortCalls(out.Calls)
	}
	out.oneRun = rp.runs <= 1
	if rp.runs == 1 && !moved { // the calls are the run's, in its order
		out.part = rp.part
	}
	out.growth = rp.grow
	return out
}
