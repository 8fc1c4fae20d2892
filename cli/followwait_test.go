package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/termtext"
)

// -f on a file not there yet waits for it, saying so, as tail -F does;
// on one that is empty, for it to be written.
func TestFollowWaitsForTheFile(t *testing.T) {
	for _, empty := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if empty {
			os.WriteFile(path, nil, 0o644)
		}
		var errs bytes.Buffer
		a := &app{stderr: termtext.NewWriter(&errs)}
		go func() {
			time.Sleep(150 * time.Millisecond)
			os.WriteFile(path+".tmp", []byte("{}\n"), 0o644)
			os.Rename(path+".tmp", path)
		}()
		start := time.Now()
		if err := a.waitForFile(path, 10*time.Millisecond, make(chan os.Signal)); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < 150*time.Millisecond {
			t.Errorf("returned after %s, before the file was written", d)
		}
		want := "to appear"
		if empty {
			want = "to be written"
		}
		if !strings.Contains(errs.String(), "inspect: waiting for "+path+" "+want+" (-f follows it as tail -F does; ctrl+c gives up)") {
			t.Errorf("stderr %q", errs.String())
		}
	}
	// ctrl+c gives up
	var errs bytes.Buffer
	a := &app{stderr: termtext.NewWriter(&errs)}
	stop := make(chan os.Signal, 1)
	stop <- os.Interrupt
	if err := a.waitForFile(filepath.Join(t.TempDir(), "never"), 10*time.Millisecond, stop); err != exitCode(exitFile) || !strings.Contains(errs.String(), "gave up waiting") {
		t.Errorf("interrupted: %v, %q", err, errs.String())
	}
	// without -f a missing file is still an error at once
	if code, _, errs := runCLI(filepath.Join(t.TempDir(), "missing.jsonl")); code != exitFile || !strings.Contains(errs, "no such file") {
		t.Errorf("no -f: exit %d %q", code, errs)
	}
}
