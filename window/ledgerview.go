package window

import (
	"math"
	"slices"
	"sort"

	"github.com/afinspect/inspect/model"
)

// A Ledger is the ledger at one call (Replay.Ledger's rows) without a
// row per turn. Most turns of a long run left long ago, and a gone turn's
// row is the same at every later call: those rows are made once per
// replay and shared; a call has rows of its own only for the turns it
// holds, the notice it wrote, and the few turns whose story is still
// open at it. Making one costs what the call's window costs, not what
// the run's length costs. It is read-only.
type Ledger struct {
	r     *Replay
	call  int
	own   map[int]*Row // log index → the call's own row
	parts []part
	n     int
	sent  int // rows whose turn the model was sent at call
	gone  int // rows with FateGone
}

// part is a stretch of the ledger: either rows lo..hi-1 of the replay's
// shared gone rows, or one row of the call's own.
type part struct {
	start  int // the ledger index of its first row
	lo, hi int
	own    *Row
}

func (p part) len() int {
	if p.own != nil {
		return 1
	}
	return p.hi - p.lo
}

// ledgerIndex is built once per replay, with its turn log.
type ledgerIndex struct {
	gone goneRows // every log entry as the gone row it is once it has left (gonerows.go)
	// upTo[c] is one past the last log entry first listed at call c or before
	upTo []int32
	// tree: a max segment tree over each entry's open, the call after which
	// its row no longer changes (openNever while it never left)
	tree []int32
	size int
	// entries is how many log entries finish made it for, before it is
	// built (buildLedgerIndex)
	entries int
}

// openNever is never, as the tree keeps it.
const openNever = math.MaxInt32

const never = int(^uint(0) >> 1)

// open is the last call at which e's row may differ from its gone row.
func (e *logEntry) open() int {
	if e.left < 0 {
		return never
	}
	return int(e.left)
}

// ledgerIndex is what a ledger view reads, built once per replay.
func (r *Replay) ledgerIndex() *ledgerIndex {
	r.indexOnce.Do(r.buildLedgerIndex)
	return r.index
}

func (r *Replay) buildLedgerIndex() {
	log := r.turnLog()
	ix := r.begun
	r.begun = nil
	if ix == nil || ix.entries != len(log) || len(ix.upTo) != len(r.Calls) || indexFromLog {
		ix = &ledgerIndex{upTo: make([]int32, len(r.Calls)), size: treeSize(len(log))}
		ix.tree = make([]int32, 2*ix.size)
		for i := range log {
			ix.add(i, &log[i])
		}
	}
	ix.gone = newGoneRows(log)
	for c := 1; c < len(ix.upTo); c++ {
		ix.upTo[c] = max(ix.upTo[c], ix.upTo[c-1])
	}
	ix.buildTree(len(log))
	r.index = ix
}

// add enters log entry e, at li in the log, in the index being begun:
// its leaf of the tree, and as the last entry of its first call so far.
func (ix *ledgerIndex) add(li int, e *logEntry) {
	ix.tree[ix.size+li] = int32(min(e.open(), openNever))
	if f := int(e.first); f < len(ix.upTo) {
		ix.upTo[f] = max(ix.upTo[f], int32(li+1))
	}
}

// indexFromLog makes buildLedgerIndex build the index from the log,
// not from what finish began (for the tests, which compare the two).
var indexFromLog = false

// treeSize is the number of leaves of the tree over a log of n entries.
func treeSize(n int) int {
	size := 1
	for size < n {
		size *= 2
	}
	return size
}

// buildTree makes the tree (see ledgerIndex) over a log of n entries
// from its leaves.
func (ix *ledgerIndex) buildTree(n int) {
	for i := range ix.tree[ix.size+n:] {
		ix.tree[ix.size+n+i] = -1
	}
	for i := ix.size - 1; i >= 1; i-- {
		ix.tree[i] = max(ix.tree[2*i], ix.tree[2*i+1])
	}
}

// openAt appends to out every log index below end whose open is past
// call, in order.
func (ix *ledgerIndex) openAt(node, lo, hi, end, call int, out []int) []int {
	if lo >= end || int(ix.tree[node]) <= call {
		return out
	}
	if hi-lo == 1 {
		return append(out, lo)
	}
	mid := (lo + hi) / 2
	out = ix.openAt(2*node, lo, mid, end, call, out)
	return ix.openAt(2*node+1, mid, hi, end, call, out)
}

// maxLeft is the largest open of log entries lo..hi-1.
func (ix *ledgerIndex) maxLeft(lo, hi int) int {
	m := int32(-1)
	for lo, hi = lo+ix.size, hi+ix.size; lo < hi; lo, hi = lo/2, hi/2 {
		if lo&1 == 1 {
			m = max(m, ix.tree[lo])
			lo++
		}
		if hi&1 == 1 {
			hi--
			m = max(m, ix.tree[hi])
		}
	}
	if m == openNever {
		return never
	}
	return int(m)
}

// LedgerAt is the ledger at call (0-based) as a view; the zero Ledger
// when call is out of range. Where the conversation branches, it lists
// the turns of call's chain only (lines.go).
func (r *Replay) LedgerAt(call int) *Ledger {
	l := &Ledger{r: r, call: call}
	if call < 0 || call >= len(r.Calls) {
		return l
	}
	if v := r.on(call); v != r {
		return v.LedgerAt(call)
	}
	ix := r.ledgerIndex()
	log := r.log
	v := &r.Calls[call].Visit
	end := int(ix.upTo[call])
	own := ix.openAt(1, 0, ix.size, end, call-1, nil) // the turns that leave at call are its own too
	written := v.Notice
	if v.Frame != nil {
		written = v.Frame
	}
	li, ok := r.places.ofCall(call)
	if !ok && written != nil {
		li, ok = r.places.get(written) // a notice no span left for
	}
	if ok && li < end && !slices.Contains(own, li) {
		own = append(own, li)
		sort.Ints(own)
	}
	rows := make([]Row, 0, len(own))
	at := map[int]int{} // log index → index into rows
	for _, li := range own {
		e := &log[li]
		if int(e.first) > call {
			continue
		}
		row := e.goneRow()
		if int(e.left) > call {
			row.LeftAt = -1
		}
		if int(e.wroteAt) == call {
			row.Fate, row.Sent = FateNotice, !row.Placeholder
			if e.head().IsFrame() {
				row.Fate = FateSummary
			}
		}
		at[li] = len(rows)
		rows = append(rows, row)
	}
	fates := v.Turns()
	for ti, t := range fates {
		li, ok := r.places.get(v.Before[t.Start])
		if h := v.Before[t.Start]; !ok && h.ID == 0 {
			li, ok = r.openNotice(own, h)
		}
		if !ok || li >= end {
			continue
		}
		ri, ok := at[li]
		if !ok {
			continue // not open at call: cannot be in its window
		}
		row := &rows[ri]
		row.Fate, row.Sent, row.Turn = "", false, ti
		r.fateAt(call, fates, ti, row)
	}
	l.build(own, rows, at, end)
	return l
}

// build lays the parts: shared gone rows between the call's own rows.
func (l *Ledger) build(own []int, rows []Row, at map[int]int, end int) {
	prev := 0
	l.own = make(map[int]*Row, len(rows))
	add := func(p part) {
		p.start = l.n
		l.n += p.len()
		l.parts = append(l.parts, p)
	}
	for _, li := range own {
		if li > prev {
			add(part{lo: prev, hi: li})
			l.gone += li - prev
		}
		prev = li + 1
		ri, ok := at[li]
		if !ok {
			continue
		}
		row := &rows[ri]
		l.own[li] = row
		add(part{own: row})
		if row.Sent {
			l.sent++
		}
		if row.Fate == FateGone {
			l.gone++
		}
	}
	if end > prev {
		add(part{lo: prev, hi: end})
		l.gone += end - prev
	}
}

// Call is the call the ledger is at.
func (l *Ledger) Call() int { return l.call }

// Len is the number of rows: every turn the conversation made up to the call.
func (l *Ledger) Len() int { return l.n }

// Sent counts the rows the model was sent at the call; Gone those that
// left at earlier calls.
func (l *Ledger) Sent() int { return l.sent }
func (l *Ledger) Gone() int { return l.gone }

// partOf is the index of the part holding row i.
func (l *Ledger) partOf(i int) int {
	return sort.Search(len(l.parts), func(p int) bool { return l.parts[p].start+l.parts[p].len() > i })
}

// At is row i (0 ≤ i < Len). The row is shared: do not change it.
func (l *Ledger) At(i int) *Row {
	p := l.parts[l.partOf(i)]
	if p.own != nil {
		return p.own
	}
	return l.r.index.gone.at(p.lo + i - p.start)
}

// GoneUntil is one past the last row of the stretch of gone rows that
// starts at row i (i itself when row i is not gone).
func (l *Ledger) GoneUntil(i int) int {
	for pi := l.partOf(i); pi < len(l.parts); pi++ {
		p := l.parts[pi]
		if p.own != nil && p.own.Fate != FateGone {
			return max(i, p.start)
		}
	}
	return l.n
}

// LastLeft is the latest call at which rows i..j-1 left (-1 when none did).
func (l *Ledger) LastLeft(i, j int) int {
	m := -1
	for pi := l.partOf(i); pi < len(l.parts) && l.parts[pi].start < j; pi++ {
		p := l.parts[pi]
		if p.own != nil {
			m = max(m, p.own.LeftAt)
			continue
		}
		lo, hi := p.lo+max(0, i-p.start), p.lo+min(p.len(), j-p.start)
		m = max(m, l.r.index.maxLeft(lo, hi))
	}
	return m
}

// IndexOf is the row whose turn starts with message m, -1 when none at the call.
func (l *Ledger) IndexOf(m *model.Message) int {
	if l.r == nil { // made by hand
		for _, p := range l.parts {
			if len(p.own.Messages) > 0 && p.own.Messages[0] == m {
				return p.start
			}
		}
		return -1
	}
	li, ok := l.r.placeOf(m)
	if !ok {
		return -1
	}
	for _, p := range l.parts {
		switch {
		case p.own != nil && p.own.Messages[0] == m:
			return p.start
		case p.own == nil && li >= p.lo && li < p.hi:
			return p.start + li - p.lo
		}
	}
	return -1
}

// Rows is every row, made one by one (as Replay.Ledger lists them).
func (l *Ledger) Rows() []Row {
	out := make([]Row, 0, l.n)
	for _, p := range l.parts {
		if p.own != nil {
			out = append(out, *p.own)
			continue
		}
		out = l.r.index.gone.appendRange(out, p.lo, p.hi)
	}
	return out
}

// Own is the rows the call has of its own: every turn still open at it
// (in its window, leaving at it, or written by it). Every other row is a
// turn that left at an earlier call, as it was when it left.
func (l *Ledger) Own() []*Row {
	out := make([]*Row, 0, len(l.own))
	for _, p := range l.parts {
		if p.own != nil {
			out = append(out, p.own)
		}
	}
	return out
}

// Row is the row with key k at the call, nil when the call lists none.
func (l *Ledger) Row(k string) *Row {
	if l.r == nil || l.r.index == nil {
		return nil
	}
	li, ok := l.r.keyed(k)
	if !ok {
		return nil
	}
	if row, ok := l.own[li]; ok {
		return row
	}
	if e := &l.r.log[li]; int(e.first) <= l.call && e.left >= 0 && int(e.left) < l.call {
		return l.r.index.gone.at(li)
	}
	return nil
}

// Each calls fn with every row in order, until fn returns false.
func (l *Ledger) Each(fn func(r *Row) bool) {
	for _, p := range l.parts {
		if p.own != nil {
			if !fn(p.own) {
				return
			}
			continue
		}
		for i := p.lo; i < p.hi; i++ {
			if !fn(l.r.index.gone.at(i)) {
				return
			}
		}
	}
}

// placeOf is the place in the log of the turn m starts; false for nil.
// A notice or a frame is looked for in the whole log: where the call
// that wrote it is known, turnPlaces.ofCall is quicker.
func (r *Replay) placeOf(m *model.Message) (int, bool) {
	if m == nil {
		return -1, false
	}
	if i, ok := r.places.get(m); ok || m.ID > 0 {
		return i, ok
	}
	for i := range r.log {
		if r.log[i].head() == m {
			return i, true
		}
	}
	return -1, false
}

// openNotice is the place of notice m among the open turns own.
func (r *Replay) openNotice(own []int, m *model.Message) (int, bool) {
	for _, li := range own {
		if r.log[li].head() == m {
			return li, true
		}
	}
	return -1, false
}
