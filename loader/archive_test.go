package loader

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// bugReportEntries are the entries of the library's bug-report archive
// (testdata/formats/b01…, kept gzipped), in its order.
func bugReportEntries(t testing.TB) (names []string, data map[string][]byte, raw []byte) {
	t.Helper()
	gz, err := os.ReadFile(filepath.Join(testdata, "formats", "b01-windfarm-bug-report-one-conversation", "bug-report.zip.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err = io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	data = map[string][]byte{}
	for _, f := range ar.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, f.Name)
		data[f.Name] = b
	}
	return names, data, raw
}

// archiveEntry is one entry a test archive holds: its bytes, or a raw
// header (declared sizes that need not be true) and raw bytes.
type archiveEntry struct {
	name   string
	data   []byte
	method uint16
	raw    *zip.FileHeader
}

func makeArchive(t testing.TB, entries []archiveEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		var w io.Writer
		var err error
		if e.raw != nil {
			w, err = zw.CreateRaw(e.raw)
		} else {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func loadBytes(t testing.TB, name string, data []byte) (*model.Recording, error) {
	t.Helper()
	return StartReader(bytes.NewReader(data), name, int64(len(data))).Wait()
}

func callCount(rec *model.Recording) int {
	n := 0
	for _, r := range rec.Runs {
		n += len(r.Calls)
	}
	return n
}

func problemWith(rec *model.Recording, parts ...string) bool {
	for _, p := range rec.Problems {
		all := true
		for _, s := range parts {
			all = all && strings.Contains(p.Message, s)
		}
		if all {
			return true
		}
	}
	return false
}

// The library's bug report loads its one run (5 calls, README.txt), read
// from the file and from memory alike.
func TestBugReportArchive(t *testing.T) {
	_, _, raw := bugReportEntries(t)
	path := filepath.Join(t.TempDir(), "report.zip")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	fromMemory, err := loadBytes(t, "report.zip", raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []*model.Recording{fromFile, fromMemory} {
		if n := callCount(rec); n != 5 || len(rec.Runs) != 1 || !rec.Runs[0].HasRecords {
			t.Errorf("%s: %d calls in %d runs (records %v); want 5 in 1 with the envelope's records", rec.Source, n, len(rec.Runs), len(rec.Runs) > 0 && rec.Runs[0].HasRecords)
		}
		if len(rec.Library.Producers) != 1 || rec.Library.Producers[0] != "9.62.0" {
			t.Errorf("producers %v", rec.Library.Producers)
		}
		if !problemWith(rec, "manifest.json (bundle layout 2): the reporter kept conv-1") {
			t.Errorf("the manifest is not said: %v", rec.Problems)
		}
		if len(rec.Files) != 1 || !strings.HasSuffix(rec.Files[0], ".zip:envelope.json") {
			t.Errorf("files %v", rec.Files)
		}
	}
}

// A hostile or damaged archive is a problem line naming the entry, and
// the rest of it still loads: a zip bomb, a name that climbs out of the
// archive, an entry declaring 2 GB, an archive cut short, a deselected
// conversation and a file the manifest names that is not there.
func TestHostileArchives(t *testing.T) {
	_, data, raw := bugReportEntries(t)
	envelope, manifest := data["envelope.json"], data["manifest.json"]
	was := maxEntry
	maxEntry = 2 << 20 // the bomb need not be a gigabyte to be one
	t.Cleanup(func() { maxEntry = was })

	bomb := bytes.Repeat([]byte(" "), 8<<20) // deflates to a few KB
	var squeezed bytes.Buffer
	fw, _ := flate.NewWriter(&squeezed, flate.BestCompression)
	fw.Write(append([]byte(`{"format":"agentfootprint.recording.v1","recording":{"events":[`), bomb...))
	fw.Close()
	// a bomb that says it is small: it inflates past what it declared
	liar := &zip.FileHeader{Name: "small.json", Method: zip.Deflate, CompressedSize64: uint64(squeezed.Len()), UncompressedSize64: 100}
	lying := &zip.FileHeader{Name: "huge.json", Method: zip.Store, CompressedSize64: 2, UncompressedSize64: 2 << 30, CRC32: 0}
	cases := []struct {
		name    string
		archive []byte
		problem []string
	}{
		{"zip bomb", makeArchive(t, []archiveEntry{{name: "manifest.json", data: manifest}, {name: "bomb.json", data: append([]byte(`{"format":"agentfootprint.recording.v1","recording":{"events":[`), bomb...), method: zip.Deflate}, {name: "envelope.json", data: envelope}}),
			[]string{"bomb.json: declares 8 MB, over the 2 MB an entry may hold; not read"}},
		{"zip bomb that lies", makeArchive(t, []archiveEntry{{raw: liar, data: squeezed.Bytes()}, {name: "envelope.json", data: envelope}}),
			[]string{"report.zip:small.json", "the entry is damaged"}},
		{"climbing name", makeArchive(t, []archiveEntry{{name: "../../etc/envelope.json", data: envelope}, {name: "envelope.json", data: envelope}}),
			[]string{`entry "../../etc/envelope.json" is not a plain name`, "not read"}},
		{"absolute name", makeArchive(t, []archiveEntry{{name: "/tmp/x.json", data: envelope}, {name: "envelope.json", data: envelope}}),
			[]string{`entry "/tmp/x.json" is not a plain name`}},
		{"2 GB entry", makeArchive(t, []archiveEntry{{raw: lying, data: []byte("{}")}, {name: "envelope.json", data: envelope}}),
			[]string{"huge.json: declares 2.0 GB, over the 2 MB an entry may hold; not read"}},
	}
	// the library's archive cut short after the envelope (in
	// conversation.json): no central directory, the envelope still there
	at := localHeader(raw, "conversation.json") + 30 + len("conversation.json") + 100
	cases = append(cases, struct {
		name    string
		archive []byte
		problem []string
	}{"cut short", raw[:at+40], []string{"the archive is damaged", `entry "conversation.json" is cut short`}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := loadBytes(t, "report.zip", c.archive)
			if err != nil {
				t.Fatalf("not loaded: %v", err)
			}
			if !problemWith(rec, c.problem...) {
				t.Errorf("no problem saying %q:", c.problem)
				for _, p := range rec.Problems {
					t.Log(p.Message)
				}
			}
			if n := callCount(rec); n != 5 || len(rec.Runs) != 1 {
				t.Errorf("%d calls in %d runs; want the envelope's 5 in 1", n, len(rec.Runs))
			}
		})
	}

	// cut inside the envelope: what came before the cut loads, and the
	// problem names the entry
	at = bytes.Index(raw, []byte(`"agentfootprint.stream.llm_start"`))
	at = bytes.Index(raw[at+1:], []byte(`"agentfootprint.stream.llm_end"`)) + at + 1
	at = bytes.Index(raw[at+1:], []byte(`"agentfootprint.stream.llm_start"`)) + at + 1000
	rec, err := loadBytes(t, "report.zip", raw[:at])
	if err != nil {
		t.Fatalf("cut inside the envelope: %v", err)
	}
	if n := callCount(rec); n < 1 || n >= 5 || !problemWith(rec, "report.zip:envelope.json", "cut short") {
		t.Errorf("cut inside the envelope: %d calls, problems %v", n, rec.Problems)
	}

	// a conversation the reporter left out, a file named but missing
	left := bytes.Replace(manifest, []byte(`"unitIds": []`), []byte(`"unitIds": ["conv-2"]`), 1)
	left = bytes.Replace(left, []byte(`"conversations": 0`), []byte(`"conversations": 1`), 1)
	rec, err = loadBytes(t, "report.zip", makeArchive(t, []archiveEntry{{name: "manifest.json", data: left}, {name: "envelope.json", data: envelope}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]string{
		{"the reporter left out 1 conversation(s)", "conv-2"},
		{`manifest.json names "conversation.json", which the archive does not hold`},
	} {
		if !problemWith(rec, want...) {
			t.Errorf("no problem saying %q: %v", want, rec.Problems)
		}
	}
}

// localHeader is the offset of the local header of the entry name.
func localHeader(raw []byte, name string) int {
	for off := 0; ; {
		i := bytes.Index(raw[off:], []byte("PK\x03\x04"))
		if i < 0 {
			panic("no local header for " + name)
		}
		off += i
		if bytes.HasPrefix(raw[off+30:], []byte(name)) {
			return off
		}
		off += 4
	}
}

// A directory inside an archive is nothing, an archive inside one is not
// read, and an archive with no recording is an error.
func TestArchiveWithoutRecordings(t *testing.T) {
	_, data, _ := bugReportEntries(t)
	inner := makeArchive(t, []archiveEntry{{name: "envelope.json", data: data["envelope.json"]}})
	_, err := loadBytes(t, "outer.zip", makeArchive(t, []archiveEntry{{name: "nested.zip", data: inner}}))
	if err == nil || !strings.Contains(err.Error(), "no agentfootprint event") {
		t.Errorf("an archive holding only an archive: %v", err)
	}
	_, err = loadBytes(t, "empty.zip", makeArchive(t, []archiveEntry{{name: "notes.txt", data: []byte("hello")}}))
	if err == nil {
		t.Error("an archive of a text file loaded")
	}
}

// The archive reader never panics and never reads past its bounds,
// whatever the bytes: seeds are archives of a real log's first lines,
// whole and cut.
func FuzzArchive(f *testing.F) {
	log, err := os.ReadFile(filepath.Join(testdata, "s01-basic-loop", "run.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	head := log[:bytes.IndexByte(log[4000:], '\n')+4001]
	for _, method := range []uint16{zip.Store, zip.Deflate} {
		a := makeArchive(f, []archiveEntry{{name: "manifest.json", data: []byte(`{"manifestVersion":2,"selected":["x"],"units":[{"id":"x","files":["run.jsonl"]}]}`)}, {name: "run.jsonl", data: head, method: method}})
		f.Add(a)
		f.Add(a[:len(a)/2])
		f.Add(a[:len(a)-30])
	}
	wasEntry, wasArchive := maxEntry, maxArchive
	maxEntry, maxArchive = 1<<20, 4<<20
	defer func() { maxEntry, maxArchive = wasEntry, wasArchive }()
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := loadBytes(t, "fuzz.zip", data)
		if err == nil && rec == nil {
			t.Fatal("no recording and no error")
		}
	})
}

// An entry may itself be gzipped: the bytes decide, not the name.
func TestArchiveEntryGzipped(t *testing.T) {
	_, data, _ := bugReportEntries(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data["envelope.json"])
	zw.Close()
	rec, err := loadBytes(t, "report.zip", makeArchive(t, []archiveEntry{{name: "conversations/conv-1.json", data: gz.Bytes()}}))
	if err != nil {
		t.Fatal(err)
	}
	if n := callCount(rec); n != 5 || len(rec.Files) != 1 || rec.Files[0] != "report.zip:conversations/conv-1.json" {
		t.Errorf("%d calls from %v", n, rec.Files)
	}
}

// An archive of more entries than are read says so, and reads the first.
func TestArchiveOfManyEntries(t *testing.T) {
	_, data, _ := bugReportEntries(t)
	entries := []archiveEntry{{name: "envelope.json", data: data["envelope.json"]}}
	for i := range maxEntries + 5 {
		entries = append(entries, archiveEntry{name: "empty/" + strconv.Itoa(i)})
	}
	rec, err := loadBytes(t, "many.zip", makeArchive(t, entries))
	if err != nil {
		t.Fatal(err)
	}
	if callCount(rec) != 5 || !problemWith(rec, "many.zip: holds 10006 entries; only the first 10000 are read") {
		t.Errorf("%d calls, problems %v", callCount(rec), rec.Problems)
	}
}

// A conversation the bundle holds as a bare recording (no envelope's
// facts) is said, with the version the manifest's environment names.
func TestBugReportBareConversation(t *testing.T) {
	_, data, _ := bugReportEntries(t)
	manifest := bytes.Replace(data["manifest.json"], []byte(`"enveloped": true`), []byte(`"enveloped": false`), 1)
	manifest = bytes.Replace(manifest, []byte(`"envelope.json"`), []byte(`"recording.json"`), -1)
	var env struct {
		Recording json.RawMessage `json:"recording"`
	}
	if err := json.Unmarshal(data["envelope.json"], &env); err != nil {
		t.Fatal(err)
	}
	rec, err := loadBytes(t, "report.zip", makeArchive(t, []archiveEntry{{name: "manifest.json", data: manifest}, {name: "recording.json", data: env.Recording}}))
	if err != nil {
		t.Fatal(err)
	}
	if callCount(rec) != 5 || len(rec.Library.Producers) != 0 {
		t.Errorf("%d calls, producers %v", callCount(rec), rec.Library.Producers)
	}
	if !problemWith(rec, "conv-1 is a bare recording (recording.json), without the envelope's facts", "names agentfootprint 9.62.0") {
		t.Errorf("not said: %v", rec.Problems)
	}
}
