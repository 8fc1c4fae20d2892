package loader

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	le "encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

// A bug report is a zip archive (the library's exportBugReport, bundle
// layout 2): manifest.json says what the reporter kept and left out;
// envelope.json or recording.json, or conversations/<id>.json one per
// conversation, hold the runs; conversation.json, narrative.txt and
// environment.json are for people. An archive is untrusted like any
// recording: it is read in memory only, never extracted (no name in it
// is ever a path on this machine), each entry is read up to maxEntry
// bytes, and a damaged archive loads what it can, each problem naming
// the entry.

// maxEntry bounds what is read of one entry of an archive (and of an
// archive that must be held in memory to be read): a zip bomb is a
// problem, not an out-of-memory. A var so that tests can lower it.
var maxEntry int64 = 1 << 30

// maxArchive bounds an archive that must be held in memory to be read (a
// gzipped one, or one from a pipe).
var maxArchive int64 = 256 << 20

// maxEntries bounds how many entries of an archive are read (an archive
// of a million empty entries is a bomb too).
const maxEntries = 10000

// maxManifest bounds manifest.json.
const maxManifest = 16 << 20

// zipMagic: a local file header, or the end of an empty archive.
func isZip(h []byte) bool {
	return len(h) >= 4 && h[0] == 'P' && h[1] == 'K' && (h[2] == 3 && h[3] == 4 || h[2] == 5 && h[3] == 6)
}

// entry is one file of an archive.
type entry struct {
	name   string
	size   uint64 // as declared
	method uint16
	open   func() (io.ReadCloser, error)
}

// readArchive reads the archive r holds (br is r read so far, possibly
// decompressed) into b: its manifest said, its recordings read as one
// application's history.
func (l *Loading) readArchive(b *builder, r io.Reader, br *bufio.Reader, compressed bool, name string) error {
	if b.inArchive {
		return fail(name, nil, "is an archive inside an archive, which inspect does not read")
	}
	b.inArchive = true
	defer func() { b.inArchive = false }()
	ra, n, err := readerAt(r, br, compressed)
	if err != nil {
		return fail(name, err, "is a zip archive that cannot be read: %v", err)
	}
	ents, damage := archiveEntries(ra, n)
	if damage != "" && len(ents) == 0 {
		return fail(name, nil, "is a damaged zip archive (%s) with no entry that can be read", damage)
	}
	if damage != "" {
		b.rawProblem(fmt.Sprintf("%s: the archive is damaged (%s); its entries are read from their own headers, as far as they go", name, damage))
	}
	if len(ents) > maxEntries {
		b.rawProblem(fmt.Sprintf("%s: holds %d entries; only the first %d are read", name, len(ents), maxEntries))
		ents = ents[:maxEntries]
	}
	extras := map[string]bool{"conversation.json": true, "narrative.txt": true, "environment.json": true}
	var ins []input
	seen := map[string]bool{}
	var man *manifest
	for _, e := range ents {
		where := name + ":" + e.name
		switch {
		case strings.HasSuffix(e.name, "/") && e.size == 0:
			continue // a directory
		case !safeName(e.name):
			b.rawProblem(fmt.Sprintf("%s: entry %q is not a plain name inside the archive (absolute, \"..\" or a backslash); not read", name, e.name))
			continue
		case seen[e.name]:
			b.rawProblem(fmt.Sprintf("%s: a second entry named %q; not read", name, e.name))
			continue
		case e.method != zip.Store && e.method != zip.Deflate:
			b.rawProblem(fmt.Sprintf("%s: compressed with method %d, which inspect does not read; not read", where, e.method))
			continue
		case e.size > uint64(maxEntry):
			b.rawProblem(fmt.Sprintf("%s: declares %s, over the %s an entry may hold; not read", where, size64(e.size), size(maxEntry)))
			continue
		}
		seen[e.name] = true
		if e.name == "manifest.json" {
			man = readManifest(b, e, where)
			continue
		}
		ins = append(ins, input{name: where, size: int64(e.size), open: boundedOpen(e, where)})
	}
	if man != nil {
		man.report(b, name, seen)
		for _, u := range man.Units {
			if u.Kind == "file" {
				for _, f := range u.Files {
					extras[f] = true
				}
			}
		}
	}
	ins = slices.DeleteFunc(ins, func(in input) bool { return extras[strings.TrimPrefix(in.name, name+":")] })
	if len(ins) == 0 {
		return fail(name, nil, "is a zip archive with no recording in it")
	}
	was := b.events
	l.readInputs(b, ins)
	if b.events == was {
		return fail(name, nil, "is a zip archive whose entries hold no agentfootprint event")
	}
	return nil
}

// readerAt is the archive as random access: the file itself when it is
// one, else its bytes held in memory (up to maxArchive).
func readerAt(r io.Reader, br *bufio.Reader, compressed bool) (io.ReaderAt, int64, error) {
	if f, ok := r.(*os.File); ok && !compressed {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return f, st.Size(), nil
		}
	}
	data, err := io.ReadAll(io.LimitReader(br, maxArchive+1))
	if err != nil && len(data) == 0 {
		return nil, 0, err
	}
	if int64(len(data)) > maxArchive {
		return nil, 0, fmt.Errorf("over the %s an archive read in memory may hold", size(maxArchive))
	}
	return bytes.NewReader(data), int64(len(data)), nil
}

// archiveEntries lists an archive's entries from its central directory,
// else (damaged, cut short) from the local headers as far as they go;
// damage says what was wrong.
func archiveEntries(ra io.ReaderAt, size int64) ([]entry, string) {
	zr, err := zip.NewReader(ra, size)
	if err == nil {
		ents := make([]entry, 0, len(zr.File))
		for _, f := range zr.File {
			ents = append(ents, entry{name: f.Name, size: f.UncompressedSize64, method: f.Method, open: f.Open})
		}
		return ents, ""
	}
	return localEntries(ra, size, err.Error())
}

// localEntries walks the local file headers from the start: what a zip
// cut short still holds.
func localEntries(ra io.ReaderAt, size int64, why string) ([]entry, string) {
	var ents []entry
	off := int64(0)
	for off+30 <= size {
		var h [30]byte
		if _, err := ra.ReadAt(h[:], off); err != nil {
			break
		}
		if le.LittleEndian.Uint32(h[0:]) != 0x04034b50 {
			break
		}
		flags, method := le.LittleEndian.Uint16(h[6:]), le.LittleEndian.Uint16(h[8:])
		csize, usize := int64(le.LittleEndian.Uint32(h[18:])), uint64(le.LittleEndian.Uint32(h[22:]))
		nlen, xlen := int64(le.LittleEndian.Uint16(h[26:])), int64(le.LittleEndian.Uint16(h[28:]))
		nm := make([]byte, nlen)
		if _, err := ra.ReadAt(nm, off+30); err != nil {
			why += "; the last entry's header is cut short"
			break
		}
		data := off + 30 + nlen + xlen
		if data > size {
			why += fmt.Sprintf("; entry %q is cut short before its data", nm)
			break
		}
		unknown := flags&8 != 0 || csize == 0xFFFFFFFF
		avail := csize
		if unknown || data+csize > size {
			avail = size - data
		}
		e := entry{name: string(nm), size: usize, method: method}
		if unknown && method == zip.Store {
			why += fmt.Sprintf("; entry %q does not say its size", nm)
			break
		}
		if unknown {
			e.size = 0
		}
		cut := !unknown && avail < csize
		e.open = func() (io.ReadCloser, error) {
			var r io.Reader = io.NewSectionReader(ra, data, avail)
			if cut {
				r = io.MultiReader(r, errReader{io.ErrUnexpectedEOF})
			}
			if method == zip.Deflate {
				return flate.NewReader(r), nil
			}
			return io.NopCloser(r), nil
		}
		if cut {
			why += fmt.Sprintf("; entry %q is cut short after %d of its %d bytes", nm, avail, csize)
		}
		ents = append(ents, e)
		if unknown || cut {
			break
		}
		off = data + csize
	}
	return ents, why
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// safeName: a relative name that stays inside the archive.
func safeName(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00") || path.IsAbs(name) || len(name) > 1 && name[1] == ':' {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// boundedOpen opens an entry read up to maxEntry bytes: past it the read
// fails, and the load says so with the entry's name.
func boundedOpen(e entry, where string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		rc, err := e.open()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		return &bounded{rc: rc, left: maxEntry}, nil
	}
}

// bounded reads at most left bytes of rc; more is an error.
type bounded struct {
	rc   io.ReadCloser
	left int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("the entry holds more than the %s an entry may hold (a zip bomb?); the rest is not read", size(maxEntry))
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
		err = fmt.Errorf("the entry is damaged (%v)", err)
	}
	return n, err
}

func (b *bounded) Close() error { return b.rc.Close() }

func size64(n uint64) string {
	if n > 1<<62 {
		return fmt.Sprintf("%d bytes", n)
	}
	return size(int64(n))
}

// manifest is what inspect reads of a bug report's manifest.json.
type manifest struct {
	Version int `json:"manifestVersion"`
	Units   []struct {
		ID        string   `json:"id"`
		Kind      string   `json:"kind"`
		Label     string   `json:"label"`
		Files     []string `json:"files"`
		Enveloped *bool    `json:"enveloped"`
	} `json:"units"`
	Selected []string `json:"selected"`
	Excluded struct {
		Conversations int      `json:"conversations"`
		Files         int      `json:"files"`
		Events        int      `json:"events"`
		Turns         int      `json:"turns"`
		UnitIDs       []string `json:"unitIds"`
	} `json:"excluded"`
	Files []struct {
		Name string `json:"name"`
	} `json:"files"`
	Notes       []string `json:"notes"`
	Warnings    []string `json:"warnings"`
	Environment struct {
		Agentfootprint string `json:"agentfootprint"`
	} `json:"environment"`
}

func readManifest(b *builder, e entry, where string) *manifest {
	rc, err := e.open()
	if err != nil {
		b.rawProblem(fmt.Sprintf("%s: cannot be read: %v", where, err))
		return nil
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxManifest+1))
	switch {
	case err != nil:
		b.rawProblem(fmt.Sprintf("%s: cannot be read: %v", where, err))
		return nil
	case len(data) > maxManifest:
		b.rawProblem(fmt.Sprintf("%s: over %s; not read", where, size(maxManifest)))
		return nil
	}
	var m manifest
	if err := unmarshal(data, &m); err != nil {
		b.rawProblem(fmt.Sprintf("%s: not a bug-report manifest (%v); the recordings are read without it", where, describe(err)))
		return nil
	}
	return &m
}

// report says what the reporter kept and left out, the manifest's notes
// and warnings, and the files it names that the archive lacks.
func (m *manifest) report(b *builder, name string, held map[string]bool) {
	label := map[string]string{}
	for _, u := range m.Units {
		switch {
		case u.Kind == "file" && len(u.Files) > 0:
			label[u.ID] = strings.Join(u.Files, ", ") // its label says what such a file is for
		case u.Label != "":
			label[u.ID] = u.Label
		default:
			label[u.ID] = u.ID
		}
	}
	say := func(what string, ids []string) string {
		var out []string
		for _, id := range ids {
			if l, ok := label[id]; ok {
				out = append(out, l)
			} else {
				out = append(out, id)
			}
		}
		return what + strings.Join(out, "; ")
	}
	kept := "the reporter kept nothing"
	if len(m.Selected) > 0 {
		kept = say("the reporter kept ", m.Selected)
	}
	b.rawProblem(fmt.Sprintf("%s: manifest.json (bundle layout %d): %s", name, m.Version, kept))
	x := m.Excluded
	if len(x.UnitIDs) > 0 || x.Conversations+x.Files+x.Events+x.Turns > 0 {
		b.rawProblem(fmt.Sprintf("%s: manifest.json: the reporter left out %d conversation(s), %d file(s), %d event(s), %d turn(s): %s",
			name, x.Conversations, x.Files, x.Events, x.Turns, say("", x.UnitIDs)))
	}
	for _, u := range m.Units {
		if u.Kind != "conversation" || u.Enveloped == nil || *u.Enveloped {
			continue
		}
		msg := fmt.Sprintf("%s: manifest.json: %s is a bare recording (%s), without the envelope's facts: no library version, no run facts", name, u.ID, strings.Join(u.Files, ", "))
		if v := m.Environment.Agentfootprint; v != "" {
			msg += fmt.Sprintf("; the manifest's environment names agentfootprint %s (--library-version %s replays under its rules)", v, v)
		}
		b.rawProblem(msg)
	}
	for _, n := range m.Notes {
		b.rawProblem(fmt.Sprintf("%s: manifest.json note: %s", name, n))
	}
	for _, w := range m.Warnings {
		b.rawProblem(fmt.Sprintf("%s: manifest.json warning: %s", name, w))
	}
	for _, f := range m.Files {
		if f.Name != "" && !held[f.Name] {
			b.rawProblem(fmt.Sprintf("%s: manifest.json names %q, which the archive does not hold", name, f.Name))
		}
	}
}
