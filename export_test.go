package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
)

// TestExportStreamsTheWholeDocument: written call by call, the export is
// byte for byte the document encoded at once, on every recording here,
// under the inferred policy and under flags.
func TestExportStreamsTheWholeDocument(t *testing.T) {
	logs, _ := filepath.Glob("testdata/*/run.jsonl")
	envelopes, _ := filepath.Glob("testdata/*/recording.json*")
	if len(logs) < 10 {
		t.Fatalf("only %d recordings in testdata", len(logs))
	}
	for _, path := range append(logs, envelopes...) {
		rec, err := loader.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []options{{keepRecent: -1, keepPins: -1, threshold: -1},
			{strategy: "sliding-window", keepRecent: 1, keepPins: 0, threshold: -1, noAnchor: true}} {
			s, err := newSession(rec, o, nil)
			if err != nil {
				t.Fatal(err)
			}
			var streamed bytes.Buffer
			if err := writeExport(&streamed, path, s); err != nil {
				t.Fatal(err)
			}
			whole := wholeExport(t, path, s)
			if !bytes.Equal(streamed.Bytes(), whole) {
				t.Errorf("%s (%+v): streamed export differs from the whole document (%d vs %d bytes)", path, o, streamed.Len(), len(whole))
			}
		}
	}
}

// wholeExport encodes the export as one document, as it was written
// before it streamed.
func wholeExport(t *testing.T, source string, s session) []byte {
	doc := exportHead(source, s)
	book := provenance.New(s.rec, s.replay)
	for i := range s.replay.Calls {
		doc.Calls = append(doc.Calls, exportCallOf(s, book, callOutcomes(s.rec), i))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return termtext.JSON(buf.Bytes())
}

// BenchmarkWriteExport is the export after the load: the generated log
// loaded and its policy inferred once, then writeExport timed (the
// evidence, the JSON), output discarded; MB/s is of the file, cpu-s/op
// the process's CPU time (user + system) per export, which a shared
// machine disturbs less than the wall time.
func BenchmarkWriteExport(b *testing.B) {
	for _, calls := range []int{1600, 16000, 50000} {
		b.Run(fmt.Sprintf("%dcalls", calls), func(b *testing.B) {
			path, size := generatedLog(b, calls)
			rec, err := loader.Load(path)
			if err != nil {
				b.Fatal(err)
			}
			s, err := newSession(rec, options{keepRecent: -1, keepPins: -1, threshold: -1}, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			cpu := cpuTime()
			for b.Loop() {
				if err := writeExport(io.Discard, path, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
