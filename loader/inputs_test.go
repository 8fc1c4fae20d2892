package loader

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// Loaded as one history, each file's problems name it and its own line:
// a bad line in the older half, a last line cut off in the newer; a file
// that is not a log is said and skipped; a directory's subdirectory is
// said, not read.
func TestSeveralFilesKeepTheirPlaces(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "s05-multi-turn", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	cut := len(lines) / 2
	dir := t.TempDir()
	older, newer := filepath.Join(dir, "events.ndjson.1"), filepath.Join(dir, "events.ndjson")
	readme := filepath.Join(dir, "README.txt")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// line 3 of the older half is not JSON; the newer half ends inside a line
	write(older, strings.Join(lines[:2], "")+"{not json\n"+strings.Join(lines[2:cut], ""))
	write(newer, strings.Join(lines[cut:], "")+"\n"+`{"type":"agentfootprint.stream.llm_st`)
	write(readme, "notes about these logs\n")
	if err := os.Mkdir(filepath.Join(dir, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	whole, err := StartLimited(filepath.Join(testdata, "s05-multi-turn", "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []func() (*model.Recording, error){
		func() (*model.Recording, error) { return StartFiles([]string{newer, readme, older}, 0).Wait() },
		func() (*model.Recording, error) { return StartLimited(dir, 0).Wait() },
	} {
		rec, err := rec()
		if err != nil {
			t.Fatal(err)
		}
		if callCount(rec) != callCount(whole) || len(rec.Runs) != len(whole.Runs) {
			t.Errorf("%s: %d calls in %d runs, want %d in %d", rec.Source, callCount(rec), len(rec.Runs), callCount(whole), len(whole.Runs))
		}
		cutLine := len(lines) - cut + 1
		for _, want := range [][]string{
			{older + ":3: "},
			{newer + ":" + strconv.Itoa(cutLine) + ": ", "cut off"},
			{readme + ": not an agentfootprint log or recording; skipped"},
		} {
			if !problemWith(rec, want...) {
				t.Errorf("%s: no problem saying %q:", rec.Source, want)
				for _, p := range rec.Problems {
					t.Log(p.Message)
				}
			}
		}
		if rec.Source == dir && !problemWith(rec, dir+": not read (a directory is read one level deep, its files only): old/") {
			t.Errorf("the subdirectory is not said: %v", rec.Problems)
		}
		if len(rec.Files) != 2 || rec.Files[0] != older || rec.Files[1] != newer {
			t.Errorf("%s: files %v, want the older half first", rec.Source, rec.Files)
		}
		for _, r := range rec.Runs {
			for _, c := range r.Calls {
				if c.File != older && c.File != newer || c.Line < 1 {
					t.Errorf("call %d at %q:%d", c.Number, c.File, c.Line)
				}
			}
		}
	}
}

// A folder holding a run's log and its envelope (as the library's
// recordings here do) is that run once, not twice: the second begins with
// the event the first began with, and is said and skipped.
func TestSameRunsTwiceReadOnce(t *testing.T) {
	log, env := filepath.Join(testdata, "s05-multi-turn", "run.jsonl"), filepath.Join(testdata, "s05-multi-turn", "recording.json.gz")
	one, err := StartLimited(log, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := StartFiles([]string{log, env}, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if callCount(rec) != callCount(one) || len(rec.Runs) != len(one.Runs) || len(rec.Files) != 1 {
		t.Errorf("%d calls in %d runs from %v; want %d in %d from one file", callCount(rec), len(rec.Runs), rec.Files, callCount(one), len(one.Runs))
	}
	if !problemWith(rec, "begins with the event", "the same runs recorded twice", "skipped") {
		t.Errorf("the second copy is not said: %v", rec.Problems)
	}
}
