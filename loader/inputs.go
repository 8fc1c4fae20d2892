package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
)

// One application's history often comes as several files: a rotated log
// (events.ndjson.1, then events.ndjson), the envelopes a file sink wrote
// one per run into a directory, the recordings of a bug-report archive.
// They are read as one recording, by one builder, in the order their
// events happened, so that a follow-up in one file continues its run in
// another; every line keeps its own file in problems and in the calls.

// input is one stream of a load of several: a file, or an entry of an
// archive.
type input struct {
	name string // as problems name it
	open func() (io.ReadCloser, error)
	size int64 // 0 if unknown
}

// StartFiles loads the files at paths as one recording (one
// application's history), each a log, an envelope, a bare recording, an
// archive or a directory of them; with one path it is StartLimited.
func StartFiles(paths []string, maxLine int) *Loading {
	if len(paths) == 1 {
		return StartLimited(paths[0], maxLine)
	}
	name := strings.Join(paths, ", ")
	return start(name, options{maxLine: maxLine}, func(l *Loading) (*model.Recording, error) {
		var ins []input
		var problems []string
		for _, p := range paths {
			got, msg := pathInputs(p)
			if msg != "" {
				problems = append(problems, msg)
			}
			ins = append(ins, got...)
		}
		return l.loadInputs(ins, problems)
	})
}

// loadDir loads every file of the directory at path as one recording.
func (l *Loading) loadDir(path string) (*model.Recording, error) {
	ins, msg := pathInputs(path)
	var problems []string
	if msg != "" {
		problems = append(problems, msg)
	}
	if len(ins) == 0 && msg == "" {
		return nil, fail(path, nil, "is a directory with no file in it")
	}
	return l.loadInputs(ins, problems)
}

// pathInputs are the inputs path names: itself, or a directory's files
// (by name; loadInputs puts them in time order). msg says what could not
// be listed.
func pathInputs(path string) ([]input, string) {
	st, err := os.Stat(path)
	if err != nil {
		return []input{fileInput(path, 0)}, "" // opening it says why
	}
	if !st.IsDir() {
		return []input{fileInput(path, st.Size())}, ""
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Sprintf("%s: cannot list the directory: %v", path, errors.Unwrap(err))
	}
	var ins []input
	var skipped []string
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		info, err := os.Stat(p) // a link is read as what it points at
		switch {
		case err != nil:
			skipped = append(skipped, e.Name())
		case info.IsDir():
			skipped = append(skipped, e.Name()+"/")
		case info.Mode().IsRegular() && info.Size() > 0:
			ins = append(ins, fileInput(p, info.Size()))
		}
	}
	msg := ""
	if len(skipped) > 0 {
		msg = fmt.Sprintf("%s: not read (a directory is read one level deep, its files only): %s", path, strings.Join(skipped, ", "))
	}
	return ins, msg
}

func fileInput(path string, size int64) input {
	return input{name: path, size: size, open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// loadInputs reads ins, in time order, into one recording; problems are
// said first.
func (l *Loading) loadInputs(ins []input, problems []string) (*model.Recording, error) {
	rec := &model.Recording{Source: l.name, Format: model.FormatNDJSON}
	b := newBuilder(rec, l.opts, l)
	for _, p := range problems {
		b.rawProblem(p)
	}
	var total int64
	for _, in := range ins {
		total += in.size
	}
	l.total.Store(total)
	l.readInputs(b, ins)
	b.file = ""
	rec, _, err := l.end(b, nil)
	return rec, err
}

// readInputs reads ins into b, one after another in time order; an input
// that cannot be read is a problem, and the rest still load.
func (l *Loading) readInputs(b *builder, ins []input) {
	ins, firsts := inTimeOrder(b, ins)
	seen := map[string]string{} // an input's first event → the input
	for i, in := range ins {
		if id := firsts[i]; id != "" {
			if was, ok := seen[id]; ok {
				b.rawProblem(fmt.Sprintf("%s: begins with the event %s begins with: the same runs recorded twice (a log and its envelope?); skipped", in.name, was))
				continue
			}
			seen[id] = in.name
		}
		l.readOne(b, in)
	}
}

// readOne reads one input of several into b.
func (l *Loading) readOne(b *builder, in input) {
	rc, err := in.open()
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			b.rawProblem(in.name + ": no such file")
		case errors.Is(err, fs.ErrPermission):
			b.rawProblem(in.name + ": permission denied")
		default:
			b.rawProblem(fmt.Sprintf("%s: cannot open: %v", in.name, err))
		}
		return
	}
	ok := isRecording(rc, in.name, b)
	rc.Close()
	if !ok {
		return
	}
	if rc, err = in.open(); err != nil {
		b.rawProblem(fmt.Sprintf("%s: cannot open again: %v", in.name, err))
		return
	}
	defer rc.Close()
	was, file := b.events, b.file
	b.file = in.name
	b.rec.Files = append(b.rec.Files, in.name)
	err = l.readInput(b, rc, in.name)
	var fatal *loadError
	switch {
	case errors.As(err, &fatal):
		b.rawProblem(err.Error() + "; the other files still load")
	case err != nil && b.events == was:
		b.rawProblem(readError(in.name, false, err).Error() + "; the other files still load")
	}
	b.endInput()
	b.file = file
}

// endInput says what is wrong with the last line an input of several
// ended inside of (nothing more will come for it), and forgets it.
func (b *builder) endInput() {
	p := viewProblems{list: b.rec.Problems, unlisted: b.unlisted, b: b}
	b.heldProblems(&p)
	b.rec.Problems, b.unlisted = p.list, p.unlisted
	b.input = inputRead{}
}

// rawProblem is a problem whose message names its place already.
func (b *builder) rawProblem(msg string) {
	if b.opts.each != nil {
		b.opts.each(model.Problem{Message: msg})
	}
	if len(b.rec.Problems) >= maxProblems {
		b.unlisted.add(0, msg)
		return
	}
	b.rec.Problems = append(b.rec.Problems, model.Problem{Message: msg})
}

// isRecording looks at the head of an input of several: a log, an
// envelope, a bare recording or an archive is read; anything else (a
// README beside the envelopes, a bundle's transcript) is said and
// skipped, never read line by line as a broken log.
func isRecording(r io.Reader, name string, b *builder) bool {
	h, err := headOf(r)
	switch {
	case err != nil:
		b.rawProblem(fmt.Sprintf("%s: cannot be read: %v; skipped", name, err))
		return false
	case isZip(h):
		return true
	}
	h = bytes.TrimLeft(bytes.TrimPrefix(h, utf8BOM), " \t\r\n")
	if len(h) == 0 {
		b.rawProblem(name + ": is empty; skipped")
		return false
	}
	switch h[0] {
	case '[':
		return true
	case '{':
		found, _ := firstKeys(h)
		if found || bytes.Contains(h, []byte(`"`+libraryPrefix)) {
			return true
		}
	}
	b.rawProblem(fmt.Sprintf("%s: not an agentfootprint log or recording; skipped", name))
	return false
}

// headOf is up to 64 KB of what r holds, decompressed when gzipped; an
// error when nothing could be read.
func headOf(r io.Reader) ([]byte, error) {
	br := bufio.NewReaderSize(r, envelopeHead)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip is damaged (%v)", err)
		}
		br = bufio.NewReaderSize(zr, envelopeHead)
	}
	h, err := br.Peek(envelopeHead)
	switch {
	case len(h) == 0 && err == io.EOF:
		return nil, errors.New("it is empty")
	case len(h) == 0 && err != nil:
		return nil, err
	}
	return h, nil
}

// inTimeOrder orders ins by the time of each one's first event (its
// meta.wallClockMs): a rotated log's older half first whatever order it
// was given in. An input that shows no time (a README beside the logs,
// most likely) goes after those that do, in the order given. A new order
// is said. firsts names each one's first event ("" when none was read).
func inTimeOrder(b *builder, ins []input) (_ []input, firsts []string) {
	if len(ins) < 2 {
		return ins, make([]string, len(ins))
	}
	type timed struct {
		in    input
		ms    float64
		first string
	}
	ts := make([]timed, len(ins))
	for i, in := range ins {
		ev, ok := firstEvent(in)
		ms := math.Inf(1)
		if ok {
			ms = *ev.Meta.WallClockMs
		}
		ts[i] = timed{in, ms, ev.id()}
	}
	slices.SortStableFunc(ts, func(x, y timed) int {
		switch {
		case x.ms < y.ms:
			return -1
		case x.ms > y.ms:
			return 1
		}
		return 0
	})
	out := make([]input, len(ts))
	firsts = make([]string, len(ts))
	moved := false
	for i, t := range ts {
		out[i], firsts[i] = t.in, t.first
		moved = moved || t.in.name != ins[i].name
	}
	if moved {
		names := make([]string, len(out))
		for i, in := range out {
			names[i] = in.name
		}
		b.rawProblem("read in the order their first events happened: " + strings.Join(names, ", "))
	}
	return out, firsts
}

// firstEvent is an input's first event that has a time (its
// meta.wallClockMs).
func firstEvent(in input) (eventHead, bool) {
	rc, err := in.open()
	if err != nil {
		return eventHead{}, false
	}
	defer rc.Close()
	br := bufio.NewReaderSize(io.LimitReader(rc, maxEntry), bufSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return eventHead{}, false
		}
		br = bufio.NewReaderSize(zr, bufSize)
	}
	if magic, _ := br.Peek(4); isZip(magic) {
		return eventHead{}, false // an archive's entries are ordered among themselves
	}
	if bom, _ := br.Peek(len(utf8BOM)); bytes.Equal(bom, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	if _, content, err := leadingSpace(br); err != nil || !content {
		return eventHead{}, false
	}
	if first, err := br.Peek(1); err != nil || !isEnvelope(br, first[0], false) {
		return lineTime(br)
	}
	return envelopeTime(newJSONStream(br))
}

// eventHead is what names an event: its type, run, stage and time.
type eventHead struct {
	Type string `json:"type"`
	Meta struct {
		WallClockMs    *float64 `json:"wallClockMs"`
		RunID          string   `json:"runId"`
		RuntimeStageID string   `json:"runtimeStageId"`
	} `json:"meta"`
}

// id is what two recordings of the same event share ("" for none).
func (e eventHead) id() string {
	if e.Meta.WallClockMs == nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%v", e.Type, e.Meta.RunID, e.Meta.RuntimeStageID, *e.Meta.WallClockMs)
}

// lineTime is the first of a log's first lines that has a time.
func lineTime(br *bufio.Reader) (eventHead, bool) {
	for range 64 {
		ln, err := br.ReadSlice('\n')
		var ev eventHead
		if json.Unmarshal(bytes.TrimSpace(ln), &ev) == nil && ev.Meta.WallClockMs != nil {
			return ev, true
		}
		if err != nil && err != bufio.ErrBufferFull {
			return eventHead{}, false
		}
		for err == bufio.ErrBufferFull { // a line longer than the buffer: on to the next
			_, err = br.ReadSlice('\n')
		}
	}
	return eventHead{}, false
}

// envelopeTime is the first event of an envelope, a bare recording or
// the first of an array of them, when it has a time.
func envelopeTime(s *jsonStream) (eventHead, bool) {
	stop := errors.New("found")
	var first eventHead
	found := false
	var find func() error
	find = func() error {
		c, err := s.peek()
		if err != nil {
			return err
		}
		switch c {
		case '[':
			return s.array(func(i int) error {
				if err := find(); err != nil || found {
					return cmpErr(err, stop)
				}
				return stop // the first envelope held no event
			})
		case '{':
			return s.object(func(key string) error {
				switch key {
				case "recording":
					return find()
				case "events":
					return s.array(func(int) error {
						raw, err := s.raw()
						if err != nil {
							return err
						}
						var ev eventHead
						if json.Unmarshal(raw, &ev) == nil && ev.Meta.WallClockMs != nil {
							first, found = ev, true
						}
						return stop
					})
				}
				return s.skip()
			})
		}
		return s.skip()
	}
	find()
	return first, found
}

func cmpErr(err, or error) error {
	if err != nil {
		return err
	}
	return or
}
