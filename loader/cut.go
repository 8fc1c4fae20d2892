package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/afinspect/inspect/model"
)

// DefaultMaxLine is the longest line a load reads (256 MB): a longer one
// is skipped and reported, so that memory stays bounded by it whatever
// the input (an endless writer, /dev/zero-like input, a cut-off
// multi-gigabyte line).
const DefaultMaxLine = 256 << 20

// bigLine is the size past which a line's buffer, when it grows, is
// given back at once: without it a 256 MB line peaks at three times that.
const bigLine = 32 << 20

// cutter reads the input into blocks that end at a line end. Each byte
// is looked at for a line end once, however short the reads (a pipe, a
// gzip stream) and however long the line.
type cutter struct {
	r       io.Reader
	limit   int // largest block
	maxLine int // longest line kept
	// ready is how many bytes r holds that a Read returns without
	// waiting for the source; nil when the source never keeps a reader
	// waiting (a regular file). A pipe's writer may fall quiet for
	// minutes: the lines that came before must not wait with it.
	ready func() int
	// waiting is set while a Read waits on a source that has nothing
	// more for now, every whole line before it handed on (Progress)
	waiting *atomic.Bool
	handed  *atomic.Int64 // counts the blocks handed on, when not nil
	end     cutEnd        // how the input ended, read once order is closed
	// ends is the number of line ends in the block being filled, counted
	// as each read brings them (see fill)
	ends int
}

// cutEnd is how far the cutter read: the bytes of the lines it handed
// on, and the last line it kept back because the input ends inside it
// (held: a writer may still be writing it). unterminated: the last line
// handed on has no line end (a whole event; a line end may follow it).
// clean is false when the lines handed on do not end where a load of
// more of the input could go on: a read error, a line cut off over the
// length limit.
type cutEnd struct {
	consumed     int64
	held         []byte
	unterminated bool
	clean        bool
}

// run hands each block to the workers and, in order, to the builder. A
// line longer than a block grows the buffer, up to maxLine. The input's
// end (io.EOF or an error) rides on the last block.
func (c *cutter) run(free <-chan *block, work, order chan<- *block) {
	defer close(work)
	defer close(order)
	if c.limit <= 0 {
		c.limit = maxBlock
	}
	if c.maxLine <= 0 {
		c.maxLine = DefaultMaxLine
	}
	size := min(minBlock, c.limit)
	cur := <-free
	cur.buf = cur.buf[:0]
	scanned := 0 // cur.buf[:scanned] holds no line end
	send := func(blk *block) {
		if c.handed != nil {
			c.handed.Add(1)
		}
		blk.done = make(chan struct{})
		work <- blk
		order <- blk
	}
	for {
		err := c.fill(cur, size)
		data := cur.buf
		i := bytes.LastIndexByte(data[scanned:], '\n')
		if i >= 0 {
			i += scanned
		}
		if err == nil && i < 0 {
			scanned = len(data)
			if len(data) > c.maxLine {
				rest, err := c.skip(cur)
				c.end.consumed += cur.long + 1
				send(cur)
				if err != nil {
					return
				}
				cur = <-free
				cur.buf = append(cur.buf[:0], rest...)
				c.ends = bytes.Count(rest, newline)
				scanned, size = 0, min(minBlock, c.limit)
				continue
			}
			// a long line: keep reading it, never past the limit. Past a
			// block, the buffer is made as long as the limit at once: only
			// what is read into it takes memory, and a line over the limit
			// is refused with the limit in memory, not twice it while the
			// buffer doubles (a 1 GB line: 540 MB)
			size = min(max(size, 2*len(data)), c.maxLine+1)
			if len(data) >= maxBlock {
				size = c.maxLine + 1
			}
			continue
		}
		// a block holds at most maxBlockLines lines: each decodes to an
		// event of some hundred bytes whatever its length, and a file of
		// short bad lines ("{}", "x") must cost no more than a long one
		cut := false
		if c.ends > maxBlockLines {
			if j := nthLineEnd(data[:i+1], maxBlockLines); j >= 0 && j < i {
				i, err, cut = j, nil, true
			}
		}
		var next *block
		if err == nil {
			next = <-free
			next.buf = append(next.buf[:0], data[i+1:]...)
			data = data[:i+1]
		} else {
			data = c.last(data, i, err)
		}
		c.end.consumed += int64(len(data))
		cur.data, cur.err = data, err
		cur.long, cur.cutOff = 0, false
		send(cur)
		if err != nil {
			return
		}
		if cut {
			// the lines are short: read about as much as the next block
			// holds, not the rest of a block each time
			size = max(min(2*len(data), c.limit), minBlock)
		} else {
			size = min(2*size, c.limit)
		}
		cur = next
		scanned, c.ends = 0, c.ends-maxBlockLines // the rest may hold whole lines: looked at again
		if !cut {
			scanned, c.ends = len(cur.buf), 0 // the rest of a line, after the last line end
		}
	}
}

// maxBlockLines bounds the lines of a block (and so its events): an
// event decodes to 480 bytes, and six blocks are in flight. At 8192 a
// log of short lines (20,000 runs of 2,000 agents, 111 MB) held 24 MB of
// decoded events while it loaded, the most of what the load held beside
// the recording; at 2048 a block of lines of 2 KB or more is still cut
// by its size alone.
const maxBlockLines = 2048

// nthLineEnd is the index of the n-th line end in data, -1 when data
// holds fewer.
func nthLineEnd(data []byte, n int) int {
	if n <= 0 || len(data) < n || bytes.Count(data, newline) < n {
		// most blocks hold fewer: counted at the speed of a count, not
		// found one line end at a time
		return -1
	}
	off := 0
	for range n {
		k := bytes.IndexByte(data[off:], '\n')
		if k < 0 {
			return -1
		}
		off += k + 1
	}
	return off - 1
}

// last is data, what the input ends with, less a last line the input
// ends inside of (i is the last line end in data, -1 for none) that is
// no whole JSON value: a writer may still be writing it, and it is kept
// back (held) for a view to say or a load of more to read. An input that
// ended with a read error (a gzip cut short) ends there for good.
func (c *cutter) last(data []byte, i int, err error) []byte {
	c.end.clean = err == io.EOF
	tail := data[i+1:]
	if len(tail) == 0 || !c.end.clean {
		return data
	}
	if json.Valid(bytes.TrimRight(tail, "\r")) {
		c.end.unterminated = true
		return data
	}
	c.end.held = append([]byte(nil), tail...)
	return data[:i+1]
}

// skip reads past the rest of a line over the limit, keeping none of it,
// and makes blk that line alone. It returns what was read after the
// line's end, and the read error if the input ended inside the line.
func (c *cutter) skip(blk *block) ([]byte, error) {
	n := int64(len(blk.buf))
	buf := make([]byte, maxBlock)
	blk.buf = nil // let the long line's memory go
	debug.FreeOSMemory()
	var rest []byte
	var err error
	for {
		var k int
		k, err = c.r.Read(buf)
		if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
			n += int64(i)
			rest = append([]byte(nil), buf[i+1:k]...)
			err = nil
			break
		}
		n += int64(k)
		if err != nil {
			break
		}
	}
	blk.data, blk.long, blk.cutOff = nil, n, err != nil
	blk.events = blk.events[:0]
	blk.err = err
	return rest, err
}

// tooLong reports a line skipped for its length.
func (b *builder) tooLong(blk *block) {
	at := loc{line: blk.line + 1}
	if blk.cutOff {
		b.problem(at, "cut off or too long: %s with no line end, over the %s line limit (--max-line-mb raises it); skipped", size(blk.long), size(int64(b.maxLine())))
		return
	}
	b.problem(at, "too long: %s, over the %s line limit (--max-line-mb raises it); skipped", size(blk.long), size(int64(b.maxLine())))
}

// longError is a file that holds no event but a line too long to read.
func (b *builder) longError(blk *block) *loadError {
	how := fmt.Sprintf("too long: %s", size(blk.long))
	if blk.cutOff {
		how = fmt.Sprintf("cut off or too long: %s with no line end", size(blk.long))
	}
	return fail(b.rec.Source, nil, "line %d is %s, over the %s line limit (--max-line-mb raises it)",
		blk.line+1, how, size(int64(b.maxLine())))
}

func (b *builder) maxLine() int {
	if b.opts.maxLine > 0 {
		return b.opts.maxLine
	}
	return DefaultMaxLine
}

// size is a byte count as a person reads it.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readChunk is the most one Read brings into a block: the line ends of
// what it read are counted at once, while those bytes are still in the
// processor's cache (a count of the whole block after its last read would
// fetch it all from memory once more).
const readChunk = 256 << 10

// fill reads into blk.buf until it holds size bytes, or the source is slow
// and what was read already holds a line end: slow when a Read would wait
// for the source (ready), or reads have taken blockWait. It counts the
// line ends it reads in c.ends. It
// returns the read error, io.EOF at the end of input.
func (c *cutter) fill(blk *block, size int) error {
	if cap(blk.buf) < size {
		old := cap(blk.buf)
		blk.buf = append(make([]byte, 0, size), blk.buf...)
		if old >= bigLine {
			debug.FreeOSMemory() // the old copy of a long line goes now, not at twice the heap
		}
	}
	start := time.Now()
	for len(blk.buf) < size {
		end := c.ends > 0 // a line end is in blk.buf[scanned:]
		quiet := c.ready != nil && c.ready() == 0
		if end && quiet {
			return nil // the lines held go on now, not when the writer next writes
		}
		if quiet && c.waiting != nil {
			c.waiting.Store(true)
		}
		n, err := c.r.Read(blk.buf[len(blk.buf):min(size, len(blk.buf)+readChunk)])
		if quiet && c.waiting != nil {
			c.waiting.Store(false)
		}
		from := len(blk.buf)
		blk.buf = blk.buf[:from+n]
		c.ends += bytes.Count(blk.buf[from:], newline)
		if err != nil {
			return err
		}
		if c.ends > 0 && len(blk.buf) < size && time.Since(start) > blockWait {
			return nil
		}
	}
	return nil
}

// StartLimited is Start with the longest line read set to maxLine bytes
// (0: DefaultMaxLine).
func StartLimited(path string, maxLine int) *Loading {
	return start(path, options{maxLine: maxLine}, func(l *Loading) (*model.Recording, error) { return l.loadFile(path) })
}

// StartListing is StartLimited (path "-": standard input) that tells
// each every problem of a line as it is met, in file order, on the
// loader's goroutine: all of them, where the recording lists the first
// maxProblems and counts the rest.
func StartListing(path string, maxLine int, each func(model.Problem)) *Loading {
	o := options{maxLine: maxLine, each: each}
	if path == "-" {
		return startReader(os.Stdin, "stdin", 0, o)
	}
	return start(path, o, func(l *Loading) (*model.Recording, error) { return l.loadFile(path) })
}

// StartReaderLimited is StartReader with the longest line read set to
// maxLine bytes (0: DefaultMaxLine).
func StartReaderLimited(r io.Reader, name string, total int64, maxLine int) *Loading {
	return startReader(r, name, total, options{maxLine: maxLine})
}
