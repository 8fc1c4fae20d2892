package loader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/afinspect/inspect/model"
)

// A log still being written (tail -f) is read once, then only what is
// appended: a load of a file keeps its builder, and Continue applies the
// lines appended since to it. The recording it gives is the one a load
// of the whole file as far as its last whole line gives (view.go), in
// the time the new lines take.

// Why a load cannot be continued: the file at the path is not the one
// that was read, or no longer holds what was read. A file that is gone
// fails with an error that is fs.ErrNotExist.
var (
	ErrReplaced  = errors.New("another file has its name now, or it was written over")
	ErrTruncated = errors.New("it is shorter than what was read: it was emptied or cut")
	// ErrNoContinue: the load cannot be continued at all (not a plain
	// NDJSON file, still loading, continued already, or it ended where
	// a line could not be read to its end); a load from the start can.
	ErrNoContinue = errors.New("this load cannot be continued")
)

// tailSize is how much of what was read is compared before going on: a
// file written over in place is not continued.
const tailSize = 4 << 10

// resumePoint is what a finished load of a file keeps to be continued.
type resumePoint struct {
	b    *builder
	path string
	info os.FileInfo // the file read, for os.SameFile
	tail []byte      // its last bytes before b.input.offset
}

// StartFollowing is StartLimited for a file still being written: a last
// line the file ends inside of is waited for (Continue reads it once its
// line end is written), not reported as cut off.
func StartFollowing(path string, maxLine int) *Loading {
	return start(path, options{maxLine: maxLine, follow: true}, func(l *Loading) (*model.Recording, error) { return l.loadFile(path) })
}

// keep makes l, a load of the regular file f at path that has ended,
// one that can be continued, when it can: an uncompressed NDJSON log
// whose lines were read to a line end, or to a last line still being
// written.
func (l *Loading) keep(b *builder, f *os.File, path string, info os.FileInfo) {
	if b.rec.Format != model.FormatNDJSON || l.compressed || !b.input.clean || !info.Mode().IsRegular() {
		return
	}
	rp := &resumePoint{b: b, path: path, info: info}
	if rp.tail = readTail(f, b.input.offset); rp.tail == nil {
		return
	}
	l.mu.Lock()
	l.resume = rp
	l.mu.Unlock()
}

// readTail is the last bytes of f before offset; nil when they cannot be
// read.
func readTail(f *os.File, offset int64) []byte {
	n := min(offset, tailSize)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, offset-n); err != nil {
		return nil
	}
	return tail
}

// Continue goes on with l, a load of a file that has ended, reading what
// was appended to the file since the last whole line l read and building
// it on what l built. A last line still being written is waited for, as
// StartFollowing's is. A load can be continued once: the Loading
// returned can be continued in turn. It fails, leaving l as it was, with
// an error that is fs.ErrNotExist when the file is gone, ErrReplaced
// when another file is at the path or it was written over, ErrTruncated
// when it is shorter than what was read, and ErrNoContinue when l cannot
// be continued.
func (l *Loading) Continue() (*Loading, error) {
	select {
	case <-l.done:
	default:
		return nil, ErrNoContinue
	}
	l.mu.Lock()
	rp := l.resume
	l.resume = nil
	l.mu.Unlock()
	if rp == nil {
		return nil, ErrNoContinue
	}
	f, err := rp.check()
	if err != nil {
		if !errors.Is(err, ErrNoContinue) {
			l.mu.Lock()
			l.resume = rp // the file may come back as it was
			l.mu.Unlock()
		}
		return nil, err
	}
	next := &Loading{name: l.name, opts: l.opts, done: make(chan struct{}), viewOnly: true}
	next.opts.follow = true
	if st, err := f.Stat(); err == nil {
		next.total.Store(st.Size() - rp.b.input.offset)
	}
	go func() {
		defer f.Close()
		next.rec, next.err = next.more(rp, f)
		close(next.done)
	}()
	return next, nil
}

// check opens the file and says whether it is the one that was read, as
// far as it was read; the file is returned at the offset to go on from.
func (rp *resumePoint) check() (*os.File, error) {
	f, err := os.Open(rp.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fail(rp.path, err, "no such file")
		}
		return nil, fail(rp.path, err, "cannot open: %v", errors.Unwrap(err))
	}
	st, err := f.Stat()
	offset := rp.b.input.offset
	switch {
	case err != nil:
		err = fail(rp.path, err, "cannot read: %v", err)
	case !os.SameFile(st, rp.info):
		err = ErrReplaced
	case st.Size() < offset:
		err = ErrTruncated
	case !bytes.Equal(readTail(f, offset), rp.tail):
		err = ErrReplaced
	}
	if err == nil && rp.b.input.unterminated && st.Size() > offset {
		// the last line read had no line end: what follows must be it
		var c [1]byte
		if _, rerr := f.ReadAt(c[:], offset); rerr != nil || c[0] != '\n' {
			err = ErrNoContinue
		}
	}
	if err == nil {
		_, err = f.Seek(offset, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// more reads the lines appended to f (at rp's offset) into rp's builder,
// and keeps the builder to be continued again.
func (l *Loading) more(rp *resumePoint, f *os.File) (*model.Recording, error) {
	b := rp.b
	b.loading = l
	br := bufio.NewReaderSize(counter{r: f, n: &l.read}, bufSize)
	if b.input.unterminated {
		if c, err := br.ReadByte(); err == nil && c == '\n' {
			b.input.offset++ // the line end of the line read last
			b.input.unterminated = false
		}
	}
	err := readNDJSON(b, br, b.input.lines, nil)
	rec := b.view(true)
	l.publishView(b, rec)
	if err == nil {
		if info, serr := f.Stat(); serr == nil {
			rp.info = info
		}
		l.keep(b, f, rp.path, rp.info)
	}
	return rec, err
}
