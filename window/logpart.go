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
	return newLogBuildIn(nil, n, calls, lastID)
}

// newLogBuildIn is newLogBuild in room (nil: memory of its own), which
// must be made for at least calls calls (a split replay's: n == calls).
func newLogBuildIn(room *logRoom, n, calls, lastID int) *logBuild {
	if room == nil {
		room = &logRoom{nodes: make([]logNode, 0, n*5/3+1), keys: make([]byte, 0, n*14), wrote: make([]int32, calls)}
	}
	b := &logBuild{nodes: room.nodes[:1], one: make([]*model.Message, 0, n), keys: room.keys[:0], prev: -1, calls: calls, room: room}
	b.nodes[0].next = -1
	b.at.wrote = room.wrote[:calls]
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
//
// It also begins the log's ledger index (ledgerview.go) in the same
// pass, which reads each entry as it is written: the leaves of its tree
// and each call's last entry; built from the log after, the index read
// all of it twice more (buildLedgerIndex finishes it).
func (b *logBuild) finish() ([]logEntry, turnPlaces, *ledgerIndex) {
	n := len(b.nodes) - 1                          // every node but the head is linked in
	log, place := b.room.entries[:0], b.room.place // node → its place in log
	if cap(log) < n || cap(place) < n+1 {
		log, place = make([]logEntry, 0, n), make([]int32, n+1)
	}
	place = place[:n+1]
	ix := &ledgerIndex{size: treeSize(n)}
	if ix.upTo, ix.tree = b.room.upTo, b.room.tree; len(ix.upTo) < b.calls || len(ix.tree) < 2*ix.size {
		ix.upTo, ix.tree = make([]int32, b.calls), make([]int32, 2*ix.size)
	}
	ix.upTo, ix.tree = ix.upTo[:b.calls], ix.tree[:2*ix.size]
	b.room = nil
	all := string(b.keys) // one string for every key: each key is a part of it
	for i := b.nodes[0].next; i >= 0; i = b.nodes[i].next {
		nd := &b.nodes[i]
		li := len(log)
		place[i] = int32(li)
		log = append(log, logEntry{key: all[b.nodes[i-1].key:nd.key], msgs: nd.msgs, first: nd.first, left: nd.left, wroteAt: nd.wroteAt, placeholder: nd.placeholder})
		ix.add(li, &log[li])
	}
	b.at.renumber(place)
	ix.entries = len(log)
	return log, b.at, ix
}

// logRoom is the memory of a turn log being built: its nodes, the index
// of notices by the call that wrote them, its keys, and what finish
// makes of them. A long replay made for a screen takes one made while
// the screen was idle (PrepareRoom): zeroing 50,000 calls' log takes a
// knob key a few milliseconds after its replay, on one core.
type logRoom struct {
	nodes   []logNode
	keys    []byte
	wrote   []int32
	entries []logEntry // for finish: cap ≥ the nodes' cap - 1
	place   []int32    // for finish: cap ≥ the nodes' cap
	// the ledger index finish begins: each call's last entry, the tree
	upTo, tree []int32
	calls      int // made for a replay of up to this many calls
}

// makeLogRoom is room for the log of a replay of calls calls, zero.
func makeLogRoom(calls int) *logRoom {
	nodes := calls*5/3 + 1
	return &logRoom{nodes: make([]logNode, 0, nodes), keys: make([]byte, 0, calls*14), wrote: make([]int32, calls),
		entries: make([]logEntry, 0, nodes-1), place: make([]int32, 0, nodes),
		upTo: make([]int32, calls), tree: make([]int32, 2*treeSize(nodes-1)), calls: calls}
}
