package cli

import (
	"fmt"
	"io"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
)

// generatedLog is a log of rungen.Default(calls), written once to the temp
// directory (16000 calls is ~1 GB and takes a few seconds the first time).
func generatedLog(b *testing.B, calls int) (string, int64) {
	path, size, err := rungen.Cached(rungen.Default(calls))
	if err != nil {
		b.Fatal(err)
	}
	return path, size
}

// benchmarkCLI runs `inspect ARGS… FILE` on generated logs of 1.6k, 16k
// and 50k calls (~100 MB, 1 GB, 3.3 GB), output discarded; MB/s is of the
// file.
func benchmarkCLI(b *testing.B, args ...string) {
	for _, calls := range []int{1600, 16000, 50000} {
		b.Run(fmt.Sprintf("%dcalls", calls), func(b *testing.B) {
			path, size := generatedLog(b, calls)
			b.SetBytes(size)
			for b.Loop() {
				if code := run(append(args, path), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit status %d", code)
				}
			}
		})
	}
}

// BenchmarkReportInferred is `inspect report FILE`: load, infer, replay,
// print.
func BenchmarkReportInferred(b *testing.B) { benchmarkCLI(b, "report") }

// BenchmarkReportGiven is `inspect report` with the whole policy given.
func BenchmarkReportGiven(b *testing.B) {
	benchmarkCLI(b, "report", "--strategy", "sliding-window", "--keep-recent-turns", "4", "--keep-last-tool-results", "2")
}

// BenchmarkExport is `inspect export --format json FILE`.
func BenchmarkExport(b *testing.B) { benchmarkCLI(b, "export", "--format", "json") }
