package loader

import (
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// s08 is the long run (201 calls, 14.5 MB log, 114 MB envelope); it lives
// only in the shared recordings, outside this module.
const s08 = "../../shared/testdata/s08-long-run/"

func benchmarkLoad(b *testing.B, path string, size func() int64) {
	if _, err := os.Stat(path); err != nil {
		b.Skipf("%s not present", path)
	}
	b.SetBytes(size())
	b.ReportAllocs()
	for b.Loop() {
		rec, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 201 {
			b.Fatalf("%d runs", len(rec.Runs))
		}
	}
}

func fileSize(path string) func() int64 {
	return func() int64 {
		st, err := os.Stat(path)
		if err != nil {
			return 0
		}
		return st.Size()
	}
}

// BenchmarkLoadS08 loads the 14.5 MB NDJSON log; MB/s is of the file.
func BenchmarkLoadS08(b *testing.B) {
	path := s08 + "run.jsonl"
	benchmarkLoad(b, path, fileSize(path))
}

// BenchmarkLoadS08Envelope loads the gzipped envelope; MB/s is of the
// decompressed JSON (114 MB, mostly a snapshot that is skipped).
func BenchmarkLoadS08Envelope(b *testing.B) {
	path := s08 + "recording.json.gz"
	benchmarkLoad(b, path, func() int64 {
		f, err := os.Open(path)
		if err != nil {
			return 0
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			return 0
		}
		n, _ := io.Copy(io.Discard, zr)
		return n
	})
}
