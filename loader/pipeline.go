package loader

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/afinspect/inspect/model"
)

// An NDJSON log is read in blocks of whole lines: one goroutine cuts the
// input at line boundaries, workers decode the blocks' lines, and the
// builder takes the blocks back in file order. A fixed set of buffers
// goes round, so memory stays bounded whatever the file's size.

// options tune a load; the zero value is what Load uses.
type options struct {
	follow    bool // the input is followed as it grows: a cut-off last line is waited for
	reference bool // decode every event with the reference decoder
	blockSize int  // largest block; 0 is maxBlock
	workers   int  // 0 is two
	maxLine   int  // longest line read; 0 is DefaultMaxLine
	// each, when not nil, is told every problem of a line as it is met,
	// those past the list's bound too (StartListing)
	each func(model.Problem)
}

const (
	minBlock  = 64 << 10
	maxBlock  = 4 << 20
	blockWait = 50 * time.Millisecond // longest a block waits for a slow source
)

// block is a run of whole lines of the log and what they decoded to.
type block struct {
	buf  []byte
	data []byte // whole lines (the last may lack its newline at the end of input)
	// line is the number of the line before data's first, which only the
	// builder knows (it takes the blocks in order); lines is how many lines
	// the block holds, counted as they are decoded. The events' line
	// numbers count from the block's start until the builder adds line.
	line, lines int
	err         error    // the read error after data, if the input ended with one
	events      []parsed // decoded, in order
	// long is the length of a line over the limit, skipped unread: the
	// block is that line alone (data is empty). cutOff: it had no end.
	long   int64
	cutOff bool
	done   chan struct{}
}

var newline = []byte{'\n'}

// decode decodes every non-blank line of the block into blk.events,
// with the fast decoder or, where it cannot read one, the reference
// decoder, and counts the lines in blk.lines. A line of the usual shape
// (an event, then its line end) is read in place, its end found by the
// read (lineIn): the line's bytes are looked at once, not once for the
// newline and again for the event. Any other line is cut at its
// newline, its carriage returns trimmed; a blank one is counted only.
func (blk *block) decode(f *fastDecoder, reference bool) {
	evs := blk.events[:0]
	next := func() *parsed {
		if len(evs) < cap(evs) {
			evs = evs[:len(evs)+1]
		} else {
			evs = append(evs, parsed{})
		}
		return &evs[len(evs)-1]
	}
	data, n := blk.data, 0
	for len(data) > 0 {
		n++
		at := loc{line: n}
		// a line lineIn refuses, line refuses too (it reads the same
		// bytes the same way): it goes straight to the reference
		tried := !reference && data[0] == '{'
		if tried {
			if end, ok := f.lineIn(data, at, next()); ok {
				data = data[min(end+1, len(data)):]
				continue
			}
			evs = evs[:len(evs)-1]
		}
		ln, found := data, false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data, found = data[:i], data[i+1:], true
		} else {
			data = nil
		}
		for len(ln) > 0 && ln[len(ln)-1] == '\r' {
			ln = ln[:len(ln)-1]
		}
		if len(ln) == 0 || ln[0] != '{' && len(bytes.TrimSpace(ln)) == 0 {
			continue // blank: counted, not decoded
		}
		p := next()
		if reference || tried || !f.line(ln, at, p) {
			decodeReference(ln, at, !found, p)
		}
	}
	blk.lines = n
	blk.events = evs
}

// endLine is the number of the block's last line, once the builder has
// its first.
func (blk *block) endLine() int {
	if blk.long > 0 {
		return blk.line + 1
	}
	return blk.line + blk.lines
}

// readNDJSON reads the log; a line longer than the limit is skipped and
// said, blank lines are skipped but counted. A read error ends the log:
// what was read stays, and the error is returned only if no event was.
// ready, when not nil, is what r holds that a Read returns without
// waiting on the source (cutter.ready).
func readNDJSON(b *builder, r io.Reader, line int, ready func() int) error {
	workers := b.opts.workers
	if workers <= 0 {
		workers = 2
	}
	free := make(chan *block, 2*workers+2)
	for range cap(free) {
		free <- &block{}
	}
	work := make(chan *block, cap(free))
	order := make(chan *block, cap(free))
	c := cutter{r: r, limit: b.opts.blockSize, maxLine: b.opts.maxLine, ready: ready}
	if b.loading != nil {
		c.waiting, c.handed = &b.loading.waiting, &b.loading.handed
	}
	go c.run(free, work, order)
	reference := b.opts.reference
	for range workers {
		go func() {
			var f fastDecoder
			for blk := range work {
				blk.decode(&f, reference)
				close(blk.done)
			}
		}()
	}
	var err error
	var long *loadError // the first line skipped for its length
	defer func() { b.input.read(c.end, line) }()
	for blk := range order {
		<-blk.done
		blk.line = line
		line = blk.endLine()
		if blk.long > 0 && long == nil {
			long = b.longError(blk)
		}
		if e := b.build(blk); e != nil {
			err = e
		}
		if b.loading != nil {
			b.loading.built.Add(1) // after build published it
		}
		free <- blk
	}
	if !b.sawEvent && long != nil {
		return long // say why nothing loaded: not "no event type"
	}
	return err
}

// build applies a decoded block, then what ended the input after it.
func (b *builder) build(blk *block) error {
	if blk.long > 0 {
		b.tooLong(blk)
	}
	for i := range blk.events {
		p := &blk.events[i]
		p.at.line += blk.line
		p.at.file = b.file
		b.apply(p)
	}
	var err error
	if blk.err != nil {
		err = readEnd(b, blk.err, blk.endLine())
	}
	b.progress()
	return err
}

// readEnd says what a read error means once the blocks before it are built.
func readEnd(b *builder, err error, line int) error {
	switch {
	case err == io.EOF:
		return nil
	case b.sawEvent && errors.Is(err, io.ErrUnexpectedEOF):
		b.problem(loc{}, "the compressed stream is cut short after line %d", line)
		return nil
	case b.sawEvent:
		b.problem(loc{}, "reading stopped after line %d: %v", line, err)
		return nil
	}
	return err
}
