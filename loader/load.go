// Package loader reads a recorded agentfootprint run from disk: the
// library's NDJSON event log, its recording envelope
// (agentfootprint.recording.v1, one object or an array of them), a bare
// recording ({snapshot, events, structure}), a bug-report archive, a
// directory of them or several files of one application (inputs.go,
// archive.go), any of them possibly gzipped. It rebuilds the segments (one runId and step,
// docs/rules/runs-and-conversations.md §10.3) and their agents (§10.5), their calls, what each
// call added, and what §10.6–§10.7 read of each: the window each call sent
// (as interned messages: a text repeated in every call is decoded and held
// once), its deliveries, the tool calls a run was paused on, and the
// records of an envelope (a Sequence's from subflowResults).
//
// Logs run to gigabytes, most of it the window repeated in every call, so
// the loader streams (memory stays a fraction of the file), decodes only
// what the replay uses, and checks every line as it goes. A log is cut into
// blocks of whole lines that two workers decode while the builder takes
// them back in order; Start shows what has loaded while the rest loads.
// Lines of the usual shape are read by a hand-written one-pass scanner;
// any other line by encoding/json, which defines what a line means.
//
// It knows file formats and nothing else: it decides nothing about
// windows. A file it cannot use at all is an error; a line it cannot use
// is a model.Problem, and the rest still loads.
package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// bufSize is the read buffer. Lines longer than it still load.
const bufSize = 256 << 10

// loadError is a file that cannot be loaded at all. Its text names the
// file; it unwraps to the cause (fs.ErrNotExist for a missing file).
type loadError struct {
	Name string
	Msg  string
	Err  error // the cause underneath, if any (for errors.Is)
}

func (e *loadError) Error() string { return e.Name + ": " + e.Msg }
func (e *loadError) Unwrap() error { return e.Err }

func fail(name string, cause error, format string, args ...any) *loadError {
	return &loadError{Name: name, Msg: fmt.Sprintf(format, args...), Err: cause}
}

func (l *Loading) loadFile(path string) (*model.Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fail(path, err, "no such file")
		case errors.Is(err, fs.ErrPermission):
			return nil, fail(path, err, "permission denied")
		}
		return nil, fail(path, err, "cannot open: %v", errors.Unwrap(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fail(path, err, "cannot read: %v", err)
	}
	if st.IsDir() {
		return l.loadDir(path)
	}
	l.total.Store(st.Size())
	rec, b, err := l.readAll(f)
	if err == nil && b.rec.Files == nil { // an archive is not a log that grows
		l.keep(b, f, path, st)
	}
	return rec, err
}

// readAll reads one recording from r, publishing its progress; b is
// what built it.
func (l *Loading) readAll(r io.Reader) (*model.Recording, *builder, error) {
	name := l.name
	if r == nil {
		return nil, nil, fail(name, nil, "nothing to read")
	}
	rec := &model.Recording{Source: name, Format: model.FormatNDJSON}
	b := newBuilder(rec, l.opts, l)
	return l.end(b, l.readInput(b, r, name))
}

// end makes the recording of what b built once the input ended with err.
func (l *Loading) end(b *builder, err error) (*model.Recording, *builder, error) {
	name := l.name
	rec := b.view(l.opts.follow)
	l.publishView(b, rec)
	var fatal *loadError
	switch {
	case errors.As(err, &fatal):
		return nil, nil, err
	case !b.sawEvent && err != nil:
		return nil, nil, readError(name, l.compressed, err)
	case !b.sawEvent:
		return nil, nil, fail(name, nil, "is not an agentfootprint log: no event type starts with %q", libraryPrefix)
	}
	return rec, b, nil
}

// readInput reads one input, r, named name, into b: a log, an envelope
// or a bare recording, gzipped or not, or an archive of them.
func (l *Loading) readInput(b *builder, r io.Reader, name string) error {
	slow := mayWait(r)
	br := bufio.NewReaderSize(counter{r: r, n: &l.read}, bufSize)
	compressed := false
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fail(name, err, "gzip is damaged or cut short before any event could be read (%v)", err)
		}
		br = bufio.NewReaderSize(zr, bufSize)
		compressed = true
		l.compressed = true
	}
	if magic, _ := br.Peek(4); isZip(magic) {
		return l.readArchive(b, r, br, compressed, name)
	}
	if bom, _ := br.Peek(len(utf8BOM)); bytes.Equal(bom, utf8BOM) {
		br.Discard(len(utf8BOM)) // an editor's mark, not content
	}
	blank, content, err := leadingSpace(br)
	if err != nil {
		return readError(name, compressed, err)
	}
	if !content {
		return fail(name, nil, "is empty")
	}
	first, err := br.Peek(1)
	if err != nil {
		return readError(name, compressed, err)
	}
	if binary(br, first[0], slow) {
		return fail(name, nil, "is a binary file, not an agentfootprint log")
	}
	if isEnvelope(br, first[0], slow) {
		if b.events == 0 {
			b.rec.Format = model.FormatEnvelope
		}
		return readEnvelopes(b, newJSONStream(br))
	}
	var ready func() int
	if slow {
		ready = br.Buffered
	}
	b.input.offset = l.read.Load() - int64(br.Buffered()) // a mark, white space before the first line
	return readNDJSON(b, br, blank, ready)
}

func readError(name string, compressed bool, err error) error {
	if compressed && errors.Is(err, io.ErrUnexpectedEOF) {
		return fail(name, err, "gzip is cut short before any event could be read")
	}
	var se *streamError
	if errors.As(err, &se) {
		return fail(name, err, "is not a readable recording envelope: %v", err)
	}
	return fail(name, err, "read error: %v", err)
}

// leadingSpace consumes white space before the first byte of content and
// returns the number of line breaks in it (they count as lines), and
// whether any content follows.
func leadingSpace(br *bufio.Reader) (lines int, content bool, err error) {
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return lines, false, nil
		}
		if err != nil {
			return lines, false, err
		}
		switch c {
		case '\n':
			lines++
		case ' ', '\t', '\r':
		default:
			return lines, true, br.UnreadByte()
		}
	}
}

// utf8BOM is the byte order mark some editors put before line 1.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// mayWait reports whether reading r may wait on a writer (a pipe, a FIFO,
// a terminal, a reader the loader does not know): what has arrived is
// then looked at as it is, never waited on to reach a size.
func mayWait(r io.Reader) bool {
	switch r := r.(type) {
	case *bytes.Reader, *strings.Reader:
		return false
	case *os.File:
		st, err := r.Stat()
		return err != nil || !st.Mode().IsRegular()
	}
	return true
}

// head is up to n bytes of what br holds next; from a source that may
// wait (slow), what has arrived so far (at least one byte is buffered).
func head(br *bufio.Reader, n int, slow bool) []byte {
	if slow {
		n = min(n, br.Buffered())
	}
	h, _ := br.Peek(n)
	return h
}

// binary reports whether the head of the content is not text: a NUL byte,
// or bytes that are not UTF-8 when the file does not even start like JSON.
// A head with a later line that starts like an event is text with a bad
// first line: that line is reported like any other, the rest loads.
func binary(br *bufio.Reader, first byte, slow bool) bool {
	head := head(br, 8<<10, slow)
	if bytes.Contains(head, []byte("\n{")) {
		return false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if first == '{' || first == '[' {
		return false
	}
	for len(head) > 0 {
		r, size := utf8.DecodeRune(head)
		if r == utf8.RuneError && size == 1 && len(head) >= utf8.UTFMax {
			return true
		}
		head = head[size:]
	}
	return false
}

// envelopeHead is how far into the first value isEnvelope looks.
const envelopeHead = 64 << 10

// isEnvelope looks at the first value's top-level keys: "format" makes an
// envelope, "snapshot", "events" or "structure" a bare recording (read as
// an envelope without its facts), "type" an event. An array is taken for an array of envelopes.
// From a source that may wait it reads only as far as it must: a first
// event followed by a quiet writer is not waited on to reach 64 KB.
func isEnvelope(br *bufio.Reader, first byte, slow bool) bool {
	switch first {
	case '[':
		return true
	case '{':
	default:
		return false
	}
	n := envelopeHead
	if slow {
		n = br.Buffered()
	}
	for {
		h, err := br.Peek(n)
		found, decided := firstKeys(h)
		if decided || err != nil || len(h) >= envelopeHead {
			return found
		}
		n = min(len(h)+1, envelopeHead) // what arrives next, at least a byte
	}
}

// firstKeys reads the top-level keys of the object head starts with:
// found when "format" comes before "type"; decided is false when head
// ends before either key or the object's end.
func firstKeys(head []byte) (found, decided bool) {
	s := newJSONStream(bufio.NewReader(bytes.NewReader(head)))
	stop := errors.New("decided")
	err := s.object(func(key string) error {
		switch key {
		case "format", "snapshot", "events", "structure": // an envelope, or a bare recording
			found = true
			return stop
		case "type":
			return stop
		}
		return s.skip()
	})
	var se *streamError
	return found, err == nil || err == stop || !errors.As(err, &se) || !errors.Is(se.err, io.ErrUnexpectedEOF)
}
