package cli

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
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
)

// TestExportStreamsTheWholeDocument: written call by call, the export is
// byte for byte the document encoded at once, on every recording here,
// under the inferred policy and under flags.
func TestExportStreamsTheWholeDocument(t *testing.T) {
	for _, path := range everyRecording(t) {
		rec, err := loader.StartLimited(path, 0).Wait()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []model.Knobs{{},
			{Strategy: "sliding-window", KeepRecentTurns: study.Int(1), KeepLastToolResults: study.Int(0), NoAnchor: true}} {
			s, err := study.Open(rec, study.Request{Knobs: k})
			if err != nil {
				t.Fatal(err)
			}
			var streamed bytes.Buffer
			if err := writeExport(&streamed, path, s); err != nil {
				t.Fatal(err)
			}
			whole := wholeExport(t, path, s)
			if !bytes.Equal(streamed.Bytes(), whole) {
				t.Errorf("%s (%v): streamed export differs from the whole document (%d vs %d bytes)", path, k.Given(), streamed.Len(), len(whole))
			}
		}
	}
}

// wholeExport encodes the export as one document, as it was written
// before it streamed.
func wholeExport(t *testing.T, source string, s *study.Study) []byte {
	doc := exportHead(source, s)
	book := provenance.New(s.Rec, s.Replay())
	outcomes := provenance.OutcomesByCall(s.Rec)
	for i := range s.Replay().Calls {
		doc.Calls = append(doc.Calls, exportCallOf(s.Replay(), book, outcomes, i))
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
			rec, err := loader.StartLimited(path, 0).Wait()
			if err != nil {
				b.Fatal(err)
			}
			s, err := study.Open(rec, study.Request{})
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

// everyRecording is every log and every envelope in the repo's testdata.
func everyRecording(t *testing.T) []string {
	t.Helper()
	logs, _ := filepath.Glob("../testdata/*/run.jsonl")
	envelopes, _ := filepath.Glob("../testdata/*/recording.json*")
	if len(logs) < 10 {
		t.Fatalf("only %d recordings in testdata", len(logs))
	}
	return append(logs, envelopes...)
}
