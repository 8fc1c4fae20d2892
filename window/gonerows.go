package window

import "sync"

// A gone row (a turn that left, as it is at every call after) is the
// same at every later call, and most rows of a long run's ledger are
// gone ones: a ledger shares them (ledgerview.go). They are made a
// chunk at a time, when a ledger first reads one: a screen reads the
// few it shows, not the run's 70,000.

// goneChunk is how many gone rows are made at once.
const goneChunk = 1024

// goneRows is every log entry as the gone row it is once it has left.
// Safe for use by several goroutines.
type goneRows struct {
	log    []logEntry
	chunks []goneRowChunk
}

type goneRowChunk struct {
	once sync.Once
	rows []Row
}

func newGoneRows(log []logEntry) goneRows {
	return goneRows{log: log, chunks: make([]goneRowChunk, (len(log)+goneChunk-1)/goneChunk)}
}

// goneRow is e's row once it has left.
func (e *logEntry) goneRow() Row {
	return Row{Key: e.key, Messages: e.msgs, Fate: FateGone, Turn: -1, LeftAt: int(e.left), First: int(e.first), WroteAt: int(e.wroteAt), Placeholder: e.placeholder}
}

// at is the gone row of log entry i, shared: do not change it.
func (g *goneRows) at(i int) *Row {
	c := &g.chunks[i/goneChunk]
	c.once.Do(func() {
		lo := i / goneChunk * goneChunk
		c.rows = make([]Row, min(goneChunk, len(g.log)-lo))
		for k := range c.rows {
			c.rows[k] = g.log[lo+k].goneRow()
		}
	})
	return &c.rows[i%goneChunk]
}

// appendRange appends the gone rows of entries lo..hi-1 to out.
func (g *goneRows) appendRange(out []Row, lo, hi int) []Row {
	for lo < hi {
		g.at(lo) // made, with its chunk
		c := &g.chunks[lo/goneChunk]
		k := lo % goneChunk
		n := min(hi-lo, len(c.rows)-k)
		out = append(out, c.rows[k:k+n]...)
		lo += n
	}
	return out
}
