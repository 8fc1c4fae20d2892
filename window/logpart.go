package window

import "github.com/afinspect/inspect/model"

// The turn log (ledger.go) is built call by call, in order, and a call's
// part of it reads only that call and the one before. So a split replay
// (split.go) begins it on the first half's goroutine, over the calls
// that half wrote, while the second half still runs; the rest is built
// when the log is first read. The log is the one built from the start
// after the replay: the same steps, in the same order.

// newLogBuild is an empty log for n steps over a replay of calls calls;
// lastID is about the largest message ID the log will hold (0: unknown),
// to size the index once.
func newLogBuild(n, calls, lastID int) *logBuild {
	b := &logBuild{nodes: make([]logNode, 1, n*5/3+1), one: make([]*model.Message, 0, n), keys: make([]byte, 0, n*14), prev: -1, calls: calls}
	b.nodes[0].next = -1
	b.at.wrote = make([]int32, calls)
	if lastID > 0 {
		b.at.byID = make([]int32, lastID+64)
	}
	return b
}

// step adds call ci of calls to the log: the turns it adds, those that
// left, the notice or frame it wrote.
func (b *logBuild) step(calls []CallReplay, ci int) {
	c := &calls[ci]
	v := &c.Visit
	var last int32
	if c.notes != nil && !slowLog {
		last = b.noted(c, ci)
	} else {
		last = b.scanned(v, ci, known(calls, b.prev, ci))
	}
	b.prev = ci
	b.upTo++
	written := v.Notice
	if v.Frame != nil {
		written = v.Frame
	}
	if written != nil && last >= 0 {
		b.one = append(b.one, written)
		n := b.add(logEntry{msgs: b.one[len(b.one)-1 : len(b.one) : len(b.one)], first: int32(ci), left: -1, wroteAt: int32(ci), placeholder: written.Placeholder}, last, 0)
		b.written = append(b.written, n)
		b.at.wrote[ci] = n + 1
	}
}

// finish is the log, in conversation order, and where each turn is in it.
func (b *logBuild) finish() ([]logEntry, turnPlaces) {
	log := make([]logEntry, 0, len(b.nodes)-1)
	place := make([]int32, len(b.nodes)) // node → its place in log
	all := string(b.keys)                // one string for every key: each key is a part of it
	for i := b.nodes[0].next; i >= 0; i = b.nodes[i].next {
		n := &b.nodes[i]
		place[i] = int32(len(log))
		log = append(log, logEntry{key: all[b.nodes[i-1].key:n.key], msgs: n.msgs, first: n.first, left: n.left, wroteAt: n.wroteAt, placeholder: n.placeholder})
	}
	b.at.renumber(place)
	return log, b.at
}
