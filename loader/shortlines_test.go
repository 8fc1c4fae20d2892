package loader

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// A block's events cost some hundred bytes each whatever a line's
// length, so blocks are bounded in lines as well as in bytes: 4 MB of
// "x" lines is two million events held at once, hundreds of times the
// file. Every block the cutter hands on, decoded, holds at most 8 MB of
// events, and every line is still read once, in order.
func TestShortLinesBoundBlocks(t *testing.T) {
	const lines = 500_000
	for _, line := range []string{"x\n", "{}\n"} {
		input := strings.Repeat(line, lines)
		free := make(chan *block, 6)
		for range cap(free) {
			free <- &block{}
		}
		work := make(chan *block, cap(free))
		order := make(chan *block, cap(free))
		c := cutter{r: bytes.NewReader([]byte(input))}
		go c.run(free, work, order)
		go func() {
			for range work { // decoded in order below
			}
		}()
		var f fastDecoder
		total, most := 0, 0
		for blk := range order {
			blk.decode(&f, false)
			total += blk.lines
			most = max(most, len(blk.events))
			free <- blk
		}
		if held := most * int(unsafe.Sizeof(parsed{})); held > 8<<20 || total != lines {
			t.Errorf("%q: %d lines read of %d; a block held %d events (%d MB)", line, total, lines, most, held>>20)
		}
	}
}

// withBadLines is s01 with n bad lines after its fourth: the first half
// of them "x", the rest "{}".
func withBadLines(t testing.TB, n int) []byte {
	lines := s01Lines(t)
	var b bytes.Buffer
	for i, l := range lines {
		b.WriteString(l + "\n")
		if i == 3 {
			b.WriteString(strings.Repeat("x\n", n/2))
			b.WriteString(strings.Repeat("{}\n", n-n/2))
		}
	}
	return b.Bytes()
}

// A line that is not JSON says so, not that it was cut off; the problems
// past the list's bound are told by kind, with the lines each kind was
// met on, in the one line that closes the list; the run still loads.
func TestBadLinesByKind(t *testing.T) {
	const n = 3000
	rec, err := Read(bytes.NewReader(withBadLines(t, n)), "bad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 9 {
		t.Fatalf("%d runs; want s01's one run of 9 calls", len(rec.Runs))
	}
	if got := rec.ProblemCount(); got != n || rec.Unlisted != n-maxProblems {
		t.Fatalf("%d problems, %d unlisted; want %d, %d", got, rec.Unlisted, n, n-maxProblems)
	}
	first := rec.Problems[0].Message
	if want := "bad.jsonl:5: invalid JSON: invalid character 'x' looking for beginning of value"; !strings.HasPrefix(first, want) || strings.Contains(first, "cut off") {
		t.Errorf("the first problem is %q, want it to start %q", first, want)
	}
	// lines 5..1504 are "x", 1505..3004 "{}"; the first 1000 (to 1004) listed
	want := "bad.jsonl: 2000 more problems not listed: " +
		"500 × invalid JSON: invalid character 'x' looking for beginning of value (at byte 1) (lines 1005 to 1504); " +
		"1500 × event has no type (lines 1505 to 3004)"
	if got := rec.Problems[len(rec.Problems)-1].Message; got != want {
		t.Errorf("the list ends\n%q, want\n%q", got, want)
	}
}

// Loading is linear in the bad lines (go test -bench BadLines ./loader).
func BenchmarkBadLines(b *testing.B) {
	for _, n := range []int{1 << 20, 2 << 20, 4 << 20} {
		data := withBadLines(b, n)
		b.Run(strconv.Itoa(n>>20)+"M", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(data), "bad.jsonl"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A line over the limit is refused holding no more than the limit: the
// buffer is not doubled up to it (each doubling a copy, the old and new
// buffers together half as much again), so the bytes allocated reading a
// 64 MB line under a 48 MB limit stay under 1.5 times the limit.
func TestLongLineRefusedWithinTheLimit(t *testing.T) {
	const limit = 48 << 20
	lines := s01Lines(t)
	in := strings.Join(lines[:3], "\n") + "\n" + `{"type":"agentfootprint.x","payload":{"blob":"` + strings.Repeat("a", 64<<20) + "\"}}\n" + strings.Join(lines[3:], "\n") + "\n"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := startReader(strings.NewReader(in), "long.jsonl", 0, options{maxLine: limit}).Wait()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > limit*3/2 {
		t.Errorf("reading a 64 MB line under a %d MB limit allocated %d MB", limit>>20, got>>20)
	}
	if len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Message, "too long: 64 MB, over the 48 MB line limit") || calls(rec) != 9 {
		t.Errorf("problems %v, %d calls; want the long line refused and s01's 9 calls", rec.Problems, calls(rec))
	}
}

// One element of an envelope array that is not an envelope is a problem
// naming it; the others load.
func TestEnvelopeArrayOneBad(t *testing.T) {
	f, err := os.Open(filepath.Join(testdata, "s01-basic-loop", "recording.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	env, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"7", `"x"`, "[1,{}]", "null"} {
		in := "[" + bad + ",\n" + string(bytes.TrimSpace(env)) + "]"
		rec, err := Read(strings.NewReader(in), "array.json")
		if err != nil {
			t.Fatalf("%s first: %v", bad, err)
		}
		if calls(rec) != 9 || len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Message, "array.json: envelope 1: is a JSON ") || !strings.Contains(rec.Problems[0].Message, "not an envelope object: skipped") {
			t.Errorf("%s first: %d calls, problems %v; want s01's 9 and envelope 1 skipped", bad, calls(rec), rec.Problems)
		}
	}
}

// A field that cannot be read says what it is, what it should have been
// and what was done; a count too long for any number keeps its call.
func TestProblemsSayWhatAndWhatWasDone(t *testing.T) {
	lines := s01Lines(t)
	at := func(kind string) int {
		for i, l := range lines {
			if strings.Contains(l, `"agentfootprint.`+kind+`"`) {
				return i
			}
		}
		t.Fatalf("no %s in s01", kind)
		return -1
	}
	for _, c := range []struct {
		kind, from, to, want string
		calls                int
	}{
		{"stream.llm_end", `"input":`, `"input":1e999,"x":`, `stream.llm_end payload: "usage.input" is a JSON number 1e999, not a whole number that fits in 64 bits; the event is not used`, 9},
		{"stream.llm_start", `"iteration":`, `"iteration":` + strings.Repeat("9", 401) + `,"x":`, "stream.llm_start iteration is the JSON number 999999999999… (401 digits), beyond any count; read as not given", 9},
		{"stream.llm_start", `"iteration":`, `"iteration":"one","x":`, `stream.llm_start payload: "iteration" is a JSON string, not a number; the event is not used`, 8}, // the call it opened is not there
		{"stream.llm_end", `"input":`, `"input":-5,"x":`, "stream.llm_end usage.input -5 is not a count of tokens; taken as not given", 9},
	} {
		mutated := slices.Clone(lines)
		i := at(c.kind)
		if !strings.Contains(mutated[i], c.from) {
			t.Fatalf("%s has no %s", c.kind, c.from)
		}
		mutated[i] = strings.Replace(mutated[i], c.from, c.to, 1)
		rec, err := Read(strings.NewReader(strings.Join(mutated, "\n")+"\n"), "m.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Problems) == 0 || !strings.Contains(rec.Problems[0].Message, fmt.Sprintf("m.jsonl:%d: %s", i+1, c.want)) {
			t.Errorf("%s %s: problems %v\nwant the first to say %q", c.kind, c.to, rec.Problems, c.want)
		}
		if calls(rec) < c.calls {
			t.Errorf("%s %s: %d calls, want %d", c.kind, c.to, calls(rec), c.calls)
		}
	}
}
