package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/internal/rungen"
)

// s08 is the long run (201 calls, 14.5 MB log, 114 MB envelope); it lives
// only in the shared recordings, outside this module.
const s08 = "../../shared/testdata/s08-long-run/"

func benchmarkLoad(b *testing.B, path string, size int64, calls int) {
	if _, err := os.Stat(path); err != nil {
		b.Skipf("%s not present", path)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var first time.Duration
	for b.Loop() {
		first += loadOnce(b, path, calls)
	}
	b.ReportMetric(float64(first.Microseconds())/1e3/float64(b.N), "ms-to-first-call")
}

// loadOnce loads path and checks it has one run of calls calls; it returns
// how long it took until a Snapshot held a call, polled every 100µs.
func loadOnce(b *testing.B, path string, calls int) time.Duration {
	start := time.Now()
	l := Start(path)
	var first time.Duration
	for first == 0 {
		if l.Progress().Calls > 0 || l.Progress().Done {
			if rec := l.Snapshot(); len(rec.Runs) == 0 || len(rec.Runs[0].Calls) == 0 {
				b.Fatal("progress counts a call the snapshot does not hold")
			}
			first = time.Since(start)
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	rec, err := l.Wait()
	if err != nil {
		b.Fatal(err)
	}
	if len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != calls || len(rec.Problems) != 0 {
		b.Fatalf("%d runs, problems %v", len(rec.Runs), rec.Problems)
	}
	return first
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// BenchmarkLoadS08 loads the 14.5 MB NDJSON log; MB/s is of the file.
func BenchmarkLoadS08(b *testing.B) {
	path := s08 + "run.jsonl"
	benchmarkLoad(b, path, fileSize(path), 201)
}

// BenchmarkLoadS08Envelope loads the gzipped envelope; MB/s is of the
// decompressed JSON (114 MB, mostly a snapshot that is skipped).
func BenchmarkLoadS08Envelope(b *testing.B) {
	path := s08 + "recording.json.gz"
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("%s not present", path)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, zr)
	benchmarkLoad(b, path, n, 201)
}

// generated is a log of rungen.Default(calls), written once to the temp
// directory (16000 calls is ~1 GB and takes ~15 s the first time).
func generated(b *testing.B, calls int) (string, int64) {
	path, size, err := rungen.Cached(rungen.Default(calls))
	if err != nil {
		b.Fatal(err)
	}
	return path, size
}

// BenchmarkLoad1GB loads a generated ~1 GB log of 16000 calls. Each
// round first cuts the same file into lines the way the cheapest reader
// would (splitFile, untimed), then loads it: besides the load's time and
// speed it reports the load's CPU and wall time as multiples of the
// splitter's, taken in turn on the same machine state (the limit, and
// how far the load is from it).
func BenchmarkLoad1GB(b *testing.B) {
	path, size := generated(b, 16000)
	b.SetBytes(size)
	b.ReportAllocs()
	var first, splitWall, loadWall time.Duration
	var splitCPU, loadCPU time.Duration
	lines := countLines(b, path)
	for b.Loop() {
		b.StopTimer()
		runtime.GC() // the last round's garbage is not the splitter's to collect
		c0, t0 := cpuTime(b), time.Now()
		n := splitFile(b, path)
		splitCPU += cpuTime(b) - c0
		splitWall += time.Since(t0)
		if n != lines {
			b.Fatalf("the splitter found %d lines, not %d", n, lines)
		}
		runtime.GC()
		b.StartTimer()
		c0, t0 = cpuTime(b), time.Now()
		first += loadOnce(b, path, 16000)
		loadCPU += cpuTime(b) - c0
		loadWall += time.Since(t0)
	}
	n := float64(b.N)
	b.ReportMetric(float64(first.Microseconds())/1e3/n, "ms-to-first-call")
	b.ReportMetric(splitCPU.Seconds()/n, "split-cpu-s")
	b.ReportMetric(loadCPU.Seconds()/n, "load-cpu-s")
	b.ReportMetric(float64(loadCPU)/float64(splitCPU), "cpu-x-split")
	b.ReportMetric(float64(loadWall)/float64(splitWall), "wall-x-split")
}

// splitBlock is what splitFile reads at once, the loader's largest block.
const splitBlock = maxBlock

// splitFile reads the file at path as the cheapest line reader would:
// blocks of splitBlock bytes through read(2), each line end found with
// bytes.IndexByte. It returns the number of lines (a last line without
// its end counts).
func splitFile(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, splitBlock)
	lines, open := 0, false
	for {
		k, err := f.Read(buf)
		data := buf[:k]
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				open = true
				break
			}
			lines++
			open = false
			data = data[i+1:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if open {
		lines++
	}
	return lines
}

// countLines is the number of lines of the file at path, by
// bytes.Count over the whole file (a way splitFile does not take).
func countLines(b *testing.B, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// BenchmarkLoad10kCalls loads a generated log of 10000 calls (~650 MB).
func BenchmarkLoad10kCalls(b *testing.B) {
	path, size := generated(b, 10000)
	benchmarkLoad(b, path, size, 10000)
}

// BenchmarkLoadFile loads the log named by $INSPECT_BENCH_LOG, which
// must hold one run of $INSPECT_BENCH_CALLS calls (scripts/bench-compare.sh
// runs it on the file it times the other tools on).
func BenchmarkLoadFile(b *testing.B) {
	path := os.Getenv("INSPECT_BENCH_LOG")
	calls, err := strconv.Atoi(os.Getenv("INSPECT_BENCH_CALLS"))
	if path == "" || err != nil {
		b.Skip("INSPECT_BENCH_LOG and INSPECT_BENCH_CALLS not set")
	}
	benchmarkLoad(b, path, fileSize(path), calls)
}

// BenchmarkPeakRSS1GB measures the peak resident memory of a load of the
// ~1 GB log: a fresh process (this test binary, run as rssChild) loads it
// once and reports its VmHWM, so nothing the benchmark process allocated
// before counts. The budget is 0.3 times the file's size.
func BenchmarkPeakRSS1GB(b *testing.B) {
	path, size := generated(b, 16000)
	var peak int64
	for b.Loop() {
		peak = max(peak, childPeak(b, path, 16000))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(peak)/float64(size), "RSS/file")
	if float64(peak) > 0.3*float64(size) {
		b.Errorf("peak RSS %d MB is over 0.3 of the %d MB file", peak>>20, size>>20)
	}
}

const rssChildEnv = "INSPECT_LOADER_RSS_CHILD"

func childPeak(b *testing.B, path string, calls int) int64 {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), rssChildEnv+"="+path+"|"+strconv.Itoa(calls))
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v: %s", err, out)
	}
	var kb int64
	if _, err := fmt.Sscanf(string(out), "VmHWM %d", &kb); err != nil {
		b.Fatalf("child said %q", out)
	}
	return kb << 10
}

// TestMain runs the RSS child when asked to, else the tests.
func TestMain(m *testing.M) {
	if arg := os.Getenv(rssChildEnv); arg != "" {
		os.Exit(rssChild(arg))
	}
	os.Exit(m.Run())
}

// rssChild loads one file and prints its peak resident set in kB.
func rssChild(arg string) int {
	path, n, _ := strings.Cut(arg, "|")
	rec, err := Load(path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	calls := 0
	for _, r := range rec.Runs {
		calls += len(r.Calls)
	}
	if want, _ := strconv.Atoi(n); calls != want {
		fmt.Printf("%d calls, want %s\n", calls, n)
		return 1
	}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Printf("VmHWM %s\n", strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return 0
		}
	}
	fmt.Println("no VmHWM")
	return 1
}

// BenchmarkDecode decodes the lines of a generated 1000-call log (64 MB)
// on one goroutine, held in memory: the fast decoder against the
// reference one (encoding/json), without reading or building; "split"
// only cuts the lines as the decoders get them (eachLine) and looks at
// each line's first byte: the limit a decoder is compared with. Each
// row also says its speed per CPU-second of the process (GB/cpu-s, the
// collector's work included), which a loaded machine's waits do not
// lower. Each round decodes with a fresh decoder, as a load does
// (one per worker); fast-warm keeps one across rounds.
func BenchmarkDecode(b *testing.B) {
	path, size := generated(b, 1000)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	blk := &block{data: data}
	b.Run("split", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		braces := 0
		c0 := cpuTime(b)
		for b.Loop() {
			blk.eachLine(func(ln []byte, _ int, _ bool) {
				if ln[0] == '{' {
					braces++
				}
			})
		}
		perCPU(b, size, cpuTime(b)-c0)
		if braces == 0 {
			b.Fatal("no line starts with {")
		}
	})
	for _, reference := range []bool{false, true} {
		name := map[bool]string{false: "fast", true: "reference"}[reference]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			c0 := cpuTime(b)
			for b.Loop() {
				// a fresh decoder each round, as each worker of a load
				// has: its memories of strings, keys and elements start
				// empty, and a round does not find the last one's
				var f fastDecoder
				blk.decode(&f, reference)
			}
			perCPU(b, size, cpuTime(b)-c0)
		})
	}
	// warm: one decoder for every round, which the memories flatter
	// (from the second round on, every element and long string of the
	// log is one they hold); no load decodes a log twice, so this is
	// not a load's speed, only how much of the fast row's cost is the
	// memories' first sight
	b.Run("fast-warm", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var f fastDecoder
		c0 := cpuTime(b)
		for b.Loop() {
			blk.decode(&f, false)
		}
		perCPU(b, size, cpuTime(b)-c0)
	})
}

// perCPU reports the bytes handled per CPU-second over the b.N rounds.
func perCPU(b *testing.B, size int64, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e9/cpu.Seconds(), "GB/cpu-s")
	}
}

// eachLine calls fn with each non-blank line of data, its number within
// the block, and whether it is the input's cut-off last line; it counts
// the lines in blk.lines. It is the split of the cheapest reader, which
// the decoders are compared with (BenchmarkDecode's split row).
func (blk *block) eachLine(fn func(line []byte, n int, last bool)) {
	data, n := blk.data, 0
	defer func() { blk.lines = n }()
	for len(data) > 0 {
		// the line end is found with IndexByte, not bytes.Cut, and its
		// carriage returns trimmed by hand: a line costs what the split
		// of the cheapest reader does, no more
		ln, found := data, false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data, found = data[:i], data[i+1:], true
		} else {
			data = nil
		}
		n++
		for len(ln) > 0 && ln[len(ln)-1] == '\r' {
			ln = ln[:len(ln)-1]
		}
		if len(ln) > 0 && (ln[0] == '{' || len(bytes.TrimSpace(ln)) > 0) {
			fn(ln, n, !found)
		}
	}
}
