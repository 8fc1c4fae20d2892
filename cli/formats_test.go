package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/pflag"

	"github.com/afinspect/inspect/tui"
)

// The library's files for a viewer, copied from its recordings (each
// folder also holds the same run's run.jsonl, through fileObservability).
const formats = "../testdata/formats/"

var (
	bareRecording = formats + "a01-vet-clinic-bare-recording/run.json.gz"
	bugReportGz   = formats + "b01-windfarm-bug-report-one-conversation/bug-report.zip.gz"
	sinkDir       = formats + "c01-insurance-claims-sink-dir/runs"
)

// bugReport is the bug-report archive as the library wrote it (kept
// gzipped in testdata), in a file of its own.
func bugReport(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(bugReportGz)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bug-report.zip")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// formatExport is an export as JSON values, with each call's place (file
// and line, which only an export of several files has) kept apart.
type formatExport struct {
	doc    map[string]json.RawMessage
	calls  []map[string]json.RawMessage
	places []string
}

func formatExportOf(t *testing.T, args ...string) formatExport {
	t.Helper()
	code, out, errs := runCLI(append([]string{"export", "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d: %s", args, code, errs)
	}
	var d formatExport
	if err := json.Unmarshal([]byte(out), &d.doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(d.doc["calls"], &d.calls); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.calls {
		var file string
		var line int
		json.Unmarshal(c["file"], &file)
		json.Unmarshal(c["line"], &line)
		if file != "" {
			d.places = append(d.places, filepath.Base(file)+":"+string(c["line"]))
		}
		delete(c, "file")
		delete(c, "line")
	}
	return d
}

// sameReplay: the calls (windows, records, turns, responses, verdicts) and
// the conversations of two exports are the same.
func sameReplay(t *testing.T, what string, got, want formatExport) {
	t.Helper()
	if len(got.calls) == 0 || len(got.calls) != len(want.calls) {
		t.Fatalf("%s: %d calls, want %d", what, len(got.calls), len(want.calls))
	}
	for i := range want.calls {
		if !reflect.DeepEqual(got.calls[i], want.calls[i]) {
			for k := range want.calls[i] {
				if !bytes.Equal(got.calls[i][k], want.calls[i][k]) {
					t.Errorf("%s: call %d %s differs:\n got %.300s\nwant %.300s", what, i+1, k, got.calls[i][k], want.calls[i][k])
				}
			}
		}
	}
	if !bytes.Equal(got.doc["conversations"], want.doc["conversations"]) {
		t.Errorf("%s: conversations %s, want %s", what, got.doc["conversations"], want.doc["conversations"])
	}
}

// Each file the library hands a viewer replays as the same run's log
// does: the bare recording, the bug-report archive (as it is and
// gzipped), the file sink's directory, and its files given one by one.
func TestEveryFormatExportsAsItsLog(t *testing.T) {
	zip := bugReport(t)
	runs, _ := filepath.Glob(sinkDir + "/*.json.gz")
	if len(runs) != 3 {
		t.Fatalf("%d envelopes in %s", len(runs), sinkDir)
	}
	backwards := slices.Clone(runs)
	slices.Reverse(backwards)
	for _, c := range []struct {
		name string
		args []string
		log  string
	}{
		{"bare recording", []string{bareRecording}, formats + "a01-vet-clinic-bare-recording/run.jsonl"},
		{"bug-report zip", []string{zip}, formats + "b01-windfarm-bug-report-one-conversation/run.jsonl"},
		{"bug-report zip gzipped", []string{bugReportGz}, formats + "b01-windfarm-bug-report-one-conversation/run.jsonl"},
		{"sink directory", []string{sinkDir}, formats + "c01-insurance-claims-sink-dir/run.jsonl"},
		{"sink files in time order", runs, formats + "c01-insurance-claims-sink-dir/run.jsonl"},
		{"sink files given backwards", backwards, formats + "c01-insurance-claims-sink-dir/run.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sameReplay(t, c.name, formatExportOf(t, c.args...), formatExportOf(t, c.log))
			for _, cmd := range []string{"report", "evidence", "advise"} {
				if code, out, errs := runCLI(append([]string{cmd, "-q"}, c.args...)...); code != 0 || out == "" {
					t.Errorf("%s %v: exit %d, %d bytes out: %s", cmd, c.args, code, len(out), errs)
				}
			}
		})
	}
}

// A directory is its files given in time order, call for call and place
// for place: each call names the envelope it came from.
func TestDirectoryIsItsFilesInTimeOrder(t *testing.T) {
	runs, _ := filepath.Glob(sinkDir + "/*.json.gz")
	dir, files := formatExportOf(t, sinkDir), formatExportOf(t, runs...)
	sameReplay(t, "directory", dir, files)
	if !slices.Equal(dir.places, files.places) || len(dir.places) != len(dir.calls) {
		t.Errorf("places: directory %v, files %v", dir.places, files.places)
	}
	// the envelopes' calls are 4, 2 and 3 (README.txt: three runs); an
	// envelope's events have no line
	want := []string{"run-1796160700365-1.json.gz:", "run-1796160700365-1.json.gz:", "run-1796160700365-1.json.gz:", "run-1796160700365-1.json.gz:",
		"run-1796160700946-2.json.gz:", "run-1796160700946-2.json.gz:",
		"run-1796160701019-3.json.gz:", "run-1796160701019-3.json.gz:", "run-1796160701019-3.json.gz:"}
	if !slices.Equal(dir.places, want) {
		t.Errorf("places %v, want %v", dir.places, want)
	}
}

// The bug report's manifest is said: what the reporter kept, its notes.
func TestBugReportSaysItsManifest(t *testing.T) {
	code, _, errs := runCLI("report", bugReport(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"manifest.json (bundle layout 2): the reporter kept conv-1 — run-1796160695980-1: 1 run, 1 turn, 118 events; conversation.json; environment.json",
		"manifest.json note: No narrative.txt: no narrative recorder was attached to this run.",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// The terminal UI opens every format: its first screen shows the run's
// calls, not an error, and how many recorded windows the replay
// reproduces (all of them: README.txt's calls).
func TestUIOpensEveryFormat(t *testing.T) {
	runs, _ := filepath.Glob(sinkDir + "/*.json.gz")
	for _, c := range []struct {
		name  string
		paths []string
		calls int
	}{
		{"bare", []string{bareRecording}, 7}, {"zip", []string{bugReport(t)}, 5},
		{"directory", []string{sinkDir}, 9}, {"files", runs, 9},
	} {
		var o options
		fs := pflag.NewFlagSet("inspect", pflag.ContinueOnError)
		o.policyFlags(fs) // as uiCmd registers them: no knob given
		o.inputFlags(fs)
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		cfg := (&app{}).uiConfig(c.name, c.paths, o)
		cfg.Path = ""
		var m tea.Model = tui.New(cfg)
		m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
		m = drive(m, m.Init())
		screen := ansiCode.ReplaceAllString(m.View(), "")
		if !strings.Contains(screen, "call 1/") || strings.Contains(screen, "cannot") {
			t.Errorf("%s: first screen\n%s", c.name, screen)
		}
		if want := fmt.Sprintf("reproduces %d/%d recorded windows", c.calls, c.calls); !strings.Contains(screen, want) {
			t.Errorf("%s: the header does not say %q:\n%s", c.name, want, screen)
		}
	}
}

// A rotated log, events.ndjson.1 then events.ndjson, is the log it was
// cut from: real logs cut at several lines, some inside a conversation
// (a follow-up in the newer half continues its run in the older), give
// the same replay given in either order, and each call is placed at its
// own file and line.
func TestRotatedLogIsItsConcatenation(t *testing.T) {
	for _, log := range []string{
		"../testdata/s05-multi-turn/run.jsonl",         // three runs of one conversation
		"../testdata/c02-interleaved-agents/run.jsonl", // two agents' lines interleaved
		"../testdata/c07-paused-tool/run.jsonl",        // a paused run resumed
		formats + "a01-vet-clinic-bare-recording/run.jsonl",
	} {
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		var starts []int // the line of each call's llm_start, by call number
		for i, ln := range lines {
			if strings.Contains(ln, `"agentfootprint.stream.llm_start"`) {
				starts = append(starts, i+1)
			}
		}
		whole := formatExportOf(t, log)
		for _, cut := range []int{1, len(lines) / 3, len(lines) / 2, 2 * len(lines) / 3, len(lines) - 1} {
			dir := t.TempDir()
			older, newer := filepath.Join(dir, "events.ndjson.1"), filepath.Join(dir, "events.ndjson")
			if os.WriteFile(older, []byte(strings.Join(lines[:cut], "")), 0o644) != nil ||
				os.WriteFile(newer, []byte(strings.Join(lines[cut:], "")), 0o644) != nil {
				t.Fatal("cannot write the halves")
			}
			for _, args := range [][]string{{older, newer}, {newer, older}} {
				what := fmt.Sprintf("%s cut after line %d, given %s first", log, cut, filepath.Base(args[0]))
				got := formatExportOf(t, args...)
				sameReplay(t, what, got, whole)
				for i, c := range got.calls {
					var n int
					json.Unmarshal(c["call"], &n)
					want := fmt.Sprintf("events.ndjson.1:%d", starts[n-1])
					if starts[n-1] > cut {
						want = fmt.Sprintf("events.ndjson:%d", starts[n-1]-cut)
					}
					if got.places[i] != want {
						t.Errorf("%s: call %d at %s, want %s", what, n, got.places[i], want)
					}
				}
			}
		}
	}
}

// Several files are one history for every command; standard input is
// read alone, and --follow follows one file.
func TestSeveralFilesUsage(t *testing.T) {
	runs, _ := filepath.Glob(sinkDir + "/*.json.gz")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-", runs[0]}, "standard input (-) is read alone"},
		{[]string{"report", "-", runs[0]}, "standard input (-) is read alone"},
		{[]string{"--follow", runs[0], runs[1]}, "--follow follows one file (got 2)"},
		{[]string{"export", runs[0], "../testdata/no-such.jsonl"}, "no-such.jsonl: no such file"},
	} {
		code, _, errs := runCLI(c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want it to say %q", c.args, code, errs, c.want)
		}
	}
	if code, _, errs := runCLI("export", "-q", runs[0], runs[1]); code != 0 || strings.Contains(errs, "one file at a time") {
		t.Errorf("export of two files: exit %d: %s", code, errs)
	}
}
