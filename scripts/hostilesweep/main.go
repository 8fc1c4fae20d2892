// Command hostilesweep runs every command of a build of inspect on an
// attacker's copy of every recording it is given, and checks what comes
// out: no raw control byte on any output (terminal escapes, C0 and C1
// controls, DEL, invalid UTF-8), every JSON document valid UTF-8 JSON,
// `--strict-json` without a lone surrogate, and no panic.
//
//	go run ./scripts/hostilesweep -bin BIN [-j N] DIR|FILE...
//
// A DIR is searched for recordings (run.jsonl, run.json, recording.json,
// recording.json.gz) one level down, as testdata/ is laid out. Each
// recording gets two copies (internal/hostile.Sweep): one with terminal
// attacks in every text, tool name and argument value, one with invalid
// UTF-8, a raw 0x9b and lone surrogates there. It prints one line per
// failure and the count of runs; it exits 1 when a run failed.
//
// A test helper, not a user command.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/afinspect/inspect/internal/hostile"
)

type command struct {
	name string
	args func(file, orig, out string) []string
	json bool // stdout is one JSON document
	// strict: the JSON has no lone surrogate escape either
	strict bool
	// file: the output is written to out, not stdout
	file bool
}

var commands = []command{
	{name: "report", args: func(f, _, _ string) []string { return []string{"report", f} }},
	{name: "report-markdown", args: func(f, _, _ string) []string { return []string{"report", "--format", "markdown", f} }},
	{name: "export", args: func(f, _, _ string) []string { return []string{"export", "--format", "json", "-q", f} }, json: true},
	{name: "export-strict", args: func(f, _, _ string) []string { return []string{"export", "--strict-json", "-q", f} }, json: true, strict: true},
	{name: "evidence", args: func(f, _, _ string) []string { return []string{"evidence", f} }},
	{name: "evidence-json", args: func(f, _, _ string) []string { return []string{"evidence", "--format", "json", f} }, json: true},
	{name: "advise-json", args: func(f, _, _ string) []string { return []string{"advise", "--format", "json", f} }, json: true},
	{name: "diff-json", args: func(f, orig, _ string) []string { return []string{"diff", "--format", "json", orig, f} }, json: true},
	{name: "share", args: func(f, _, out string) []string { return []string{"share", "-o", out, f} }, file: true},
}

func main() {
	bin := flag.String("bin", "", "the inspect binary")
	jobs := flag.Int("j", 2, "runs at once")
	flag.Parse()
	if *bin == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: hostilesweep -bin BIN [-j N] DIR|FILE...")
		os.Exit(2)
	}
	files := recordings(flag.Args())
	tmp, err := os.MkdirTemp("", "hostilesweep-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	type run struct{ file, orig, variant string }
	var runs []run
	for i, f := range files {
		raw, err := readAll(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hostilesweep: %s: %v (skipped)\n", f, err)
			continue
		}
		for _, v := range hostile.SweepVariants {
			out := filepath.Join(tmp, fmt.Sprintf("%03d-%s-%s", i, v, hostileName(f)))
			if err := os.WriteFile(out, hostile.Sweep(raw, v), 0o644); err != nil {
				fail(err)
			}
			runs = append(runs, run{out, f, v})
		}
	}
	var (
		mu       sync.Mutex
		failures []string
		count    int
		wg       sync.WaitGroup
		next     = make(chan [2]int)
	)
	for range max(1, *jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ij := range next {
				r, c := runs[ij[0]], commands[ij[1]]
				msg := check(*bin, c, r.file, r.orig, filepath.Join(tmp, fmt.Sprintf("out-%d-%d.html", ij[0], ij[1])))
				mu.Lock()
				count++
				if msg != "" {
					failures = append(failures, fmt.Sprintf("%s %s (%s of %s): %s", c.name, r.variant, filepath.Base(r.file), r.orig, msg))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range runs {
		for j := range commands {
			next <- [2]int{i, j}
		}
	}
	close(next)
	wg.Wait()
	sort.Strings(failures)
	for _, f := range failures {
		fmt.Println(f)
	}
	fmt.Printf("%d runs (%d recordings × %d copies × %d commands), %d failed\n", count, len(files), len(hostile.SweepVariants), len(commands), len(failures))
	if len(failures) > 0 {
		os.Exit(1)
	}
}

// check runs one command and says what is wrong with what it wrote, ""
// when nothing is.
func check(bin string, c command, file, orig, out string) string {
	cmd := exec.Command(bin, c.args(file, orig, out)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	err := cmd.Run()
	if strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "goroutine ") {
		return "panicked: " + firstLine(stderr.String())
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 2 && ee.ExitCode() != 4 {
		return fmt.Sprintf("exit %d: %s", ee.ExitCode(), firstLine(stderr.String()))
	} else if err != nil && !ok {
		return err.Error()
	}
	outputs := map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()}
	if c.file {
		b, err := os.ReadFile(out)
		if err == nil {
			outputs["page"] = b
			os.Remove(out)
		}
	}
	for _, name := range []string{"stdout", "stderr", "page"} {
		if b, ok := outputs[name]; ok {
			if bad := rawControl(b); bad != "" {
				return name + ": " + bad
			}
		}
	}
	if c.json && err == nil {
		b := stdout.Bytes()
		if !json.Valid(b) {
			return "stdout is not valid JSON"
		}
		if c.strict {
			if at := loneSurrogate(b); at >= 0 {
				return fmt.Sprintf("stdout has a lone surrogate escape at byte %d", at)
			}
		}
	}
	return ""
}

// rawControl names the first byte a terminal would act on, or that is
// not UTF-8: "" when there is none. A newline and a tab are text.
func rawControl(b []byte) string {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return fmt.Sprintf("invalid UTF-8 byte 0x%02x at %d", b[i], i)
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("control byte 0x%02x at %d", r, i)
		case r >= 0x80 && r < 0xa0:
			return fmt.Sprintf("C1 control U+%04X at %d", r, i)
		}
		i += n
	}
	return ""
}

var surrogate = regexp.MustCompile(`\\u[dD][89abAB][0-9a-fA-F]{2}(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2}`)

// loneSurrogate is where b has a \uD800–\uDFFF escape that is not half
// of a pair, -1 when none.
func loneSurrogate(b []byte) int {
	for _, m := range surrogate.FindAllIndex(b, -1) {
		if m[1]-m[0] != 12 {
			if precededByBackslashes(b, m[0]) {
				continue // an escaped backslash and the letters "u d8…"
			}
			return m[0]
		}
	}
	return -1
}

// precededByBackslashes: the backslash at i is itself escaped.
func precededByBackslashes(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// recordings are the recording files of the arguments.
func recordings(args []string) []string {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			fail(err)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		for _, name := range []string{"run.jsonl", "run.json", "run.json.gz", "recording.json", "recording.json.gz"} {
			ms, _ := filepath.Glob(filepath.Join(a, "*", name))
			out = append(out, ms...)
		}
	}
	sort.Strings(out)
	return out
}

// readAll is a recording's bytes, a gzip's unpacked.
func readAll(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// hostileName is the copy's file name: the recording's, without .gz
// (the copy is written unpacked), so that its format is still told.
func hostileName(path string) string {
	dir, base := filepath.Base(filepath.Dir(path)), strings.TrimSuffix(filepath.Base(path), ".gz")
	return dir + "-" + base
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hostilesweep:", err)
	os.Exit(2)
}
