package window

import (
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// chain is the state a run chain carries from call to call (§7, §10.9).
type chain struct {
	history    []*model.Message // what the next visit sees
	window     []*model.Message // the last call's window (after its visit and deliveries)
	last       *model.Call
	records    [2]*model.Record // the last two records filed (oldest first), as the visits filed them
	nrecords   int
	reading    model.Usage
	readIter   int
	hasReading bool
	request    string
	// unfinished is the window of the last call of a run that did not
	// end, for a followUp() of it; reentry its history as of its last
	// iteration_end, for a resumeOnError() (§14.5); nil otherwise
	unfinished, reentry []*model.Message
}

// chains are the state each replayed run ended in, by index in rec.Runs:
// a slice when every run is replayed, a map when only one agent's are
// (a slice as long as the file's runs, for each of an agent's candidate
// replays, would make inference read every run of the file again).
type chains struct {
	all  []*chain
	some map[int]*chain
}

func newChains(n int, few bool) chains {
	if few {
		return chains{some: map[int]*chain{}}
	}
	return chains{all: make([]*chain, n)}
}

func (c chains) get(i int) *chain {
	switch {
	case i < 0:
		return nil
	case c.some != nil:
		return c.some[i]
	case i < len(c.all):
		return c.all[i]
	}
	return nil
}

func (c chains) set(i int, ch *chain) {
	if c.some != nil {
		c.some[i] = ch
	} else {
		c.all[i] = ch
	}
}

// seed is the state segment i starts from (§10.9, §14.5); pred is the
// state its predecessor ended in, nil for none.
//
// What it adds to pred's history is added in mem (arena.extend): a
// conversation's history that a run extends is most often the arena's
// last window, extended in place, so that a follow-up does not copy
// every message before it.
func seed(rec *model.Recording, pred *chain, i int, link lineage.Link, mem *arena) *chain {
	run := rec.Runs[i]
	switch link.Kind {
	case lineage.FollowUp:
		switch {
		case pred == nil:
		case link.Form == lineage.Unfinished: // the failed call's window, no answer
			return &chain{history: withRequest(pred.unfinished, run, mem), request: run.Request}
		case link.Form == lineage.Reentered: // nothing appended: the request is the last user turn already
			return &chain{history: pred.reentry, request: run.Request}
		default:
			return &chain{history: withRequest(pred.history, run, mem), request: run.Request}
		}
	case lineage.Resume:
		if pred != nil {
			ch := *pred
			ch.history = pred.window
			if run.LeadHistory != nil && pred.last != nil && pred.last.MessagesCount <= len(run.LeadHistory) {
				ch.history = mem.extend(ch.history, run.LeadHistory[pred.last.MessagesCount:])
			} else if pred.last != nil {
				ch.history = mem.extend(ch.history, pred.last.Appended)
			}
			return &ch
		}
	case lineage.Orphan:
		return &chain{history: lineage.FirstWindow(run), request: run.Request}
	}
	return &chain{history: withRequest(nil, run, mem), request: run.Request}
}

// withRequest is history followed by run's request message, if any.
func withRequest(history []*model.Message, run *model.Run, mem *arena) []*model.Message {
	if run.RequestMessage == nil {
		return history
	}
	return mem.extendOne(history, run.RequestMessage)
}

// visit runs the window stage of x's run before one call, with the
// chain's records and reading (§7): a reading is current only if taken at
// iteration I−1 or later, by an agent with a meter (metered: all but a
// Sequence step). over: the log shows the reading was over budget, its
// number not recorded (§16.4).
func (ch *chain) visit(v *Visit, x *runner, call *model.Call, over bool, mem *arena) {
	current := ch.hasReading && ch.readIter >= call.Iteration-1 && metered(x.run.Agent)
	visitWindow(v, ch.history, &VisitInput{
		Policy: x.p, Request: ch.request, Iteration: call.Iteration,
		FirstCall: !current, PrevUsage: ch.reading, ReadingAt: ch.readIter, filed: ch.records[:ch.nrecords:ch.nrecords],
		Summaries: x.sums, Call: call, Rules: x.rules, OverUnmeasured: over, mem: mem,
	})
	if v.Record != nil {
		ch.file(v.Record)
	}
}

// file keeps r as the last record filed (stand-down reads only the last
// two). Records are never changed once filed: the chain keeps pointers.
func (ch *chain) file(r *model.Record) {
	if ch.nrecords == 2 {
		ch.records[0], ch.nrecords = ch.records[1], 1
	}
	ch.records[ch.nrecords] = r
	ch.nrecords++
}

// after moves the chain past a call: its window, what it added, its reading.
func (ch *chain) after(call *model.Call, window []*model.Message, mem *arena) {
	ch.window, ch.last = window, call
	ch.history = mem.extend(window, call.Appended)
	if call.Measured { // a call with no numeric usage leaves the older reading, which expires (§7)
		ch.reading, ch.readIter, ch.hasReading = call.Usage, call.Iteration, true
	}
}

// lastHistoryCall is the last call of run that an iteration_end with a
// history completed (reentry's), nil for none.
func lastHistoryCall(run *model.Run) *model.Call {
	for k := len(run.Calls) - 1; k >= 0; k-- {
		if run.Calls[k].History {
			return run.Calls[k]
		}
	}
	return nil
}

// reentry is the replay's history as of the last iteration_end of a run
// that did not end: the window of its last call an iteration_end
// completed, then what that call added (§14.5). calls are the run's
// replayed calls, in its order.
func reentry(run *model.Run, calls []CallReplay) []*model.Message {
	for k := min(len(run.Calls), len(calls)) - 1; k >= 0; k-- {
		if c := run.Calls[k]; c.History {
			w := calls[k].Visit.After
			return append(w[:len(w):len(w)], c.Appended...)
		}
	}
	return nil
}
