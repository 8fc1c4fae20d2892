package loader

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/model"
)

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSnapshotWhileLoading feeds a log through a pipe in two parts. The
// snapshot taken between them holds the settled calls of the first part,
// the very ones the final recording holds, and does not change when the
// rest loads.
func TestSnapshotWhileLoading(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "demo-incident", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	half := len(data) / 2
	for data[half-1] != '\n' {
		half++
	}
	pr, pw := io.Pipe()
	l := StartReader(pr, "pipe", int64(len(data)))
	if _, err := pw.Write(data[:half]); err != nil {
		t.Fatal(err)
	}
	// decided on the state the write made: the first part read and loaded,
	// the loader waiting for more (not on the first calls it happened to
	// see, while it went on with the rest of the part)
	waitFor(t, "the first part loaded", func() bool { p := l.Progress(); return p.Waiting && p.Bytes == int64(half) })
	snap := l.Snapshot()
	before := dump(snap)
	p := l.Progress()
	if p.Done || p.Total != int64(len(data)) || p.Bytes != int64(half) || p.Calls != countCalls(snap) {
		t.Errorf("progress %+v with %d calls in the snapshot, after %d of %d bytes", p, countCalls(snap), half, len(data))
	}
	pw.Write(data[half:])
	pw.Close()
	rec, err := l.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if dump(snap) != before {
		t.Error("the snapshot changed while the rest loaded")
	}
	if len(snap.Runs) == 0 || countCalls(snap) >= countCalls(rec) {
		t.Fatalf("snapshot has %d calls, final %d", countCalls(snap), countCalls(rec))
	}
	for i, r := range snap.Runs {
		if !slices.Equal(r.Calls, rec.Runs[i].Calls[:len(r.Calls)]) {
			t.Errorf("run %d: the snapshot's calls are not the final recording's first ones", i+1)
		}
	}
	if p := l.Progress(); !p.Done || p.Bytes != p.Total || p.Calls != countCalls(rec) {
		t.Errorf("progress at the end %+v, %d calls", p, countCalls(rec))
	}
	if got := l.Snapshot(); recordingDiff(got, rec) != "" {
		t.Errorf("the last snapshot is not the result: %s", recordingDiff(got, rec))
	}
}

// TestSnapshotsDuringLoad takes snapshots as fast as it can while a
// multi-block log loads (run with -race to check they share nothing that
// is still written), and checks each is a prefix of the result.
func TestSnapshotsDuringLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Default(150)); err != nil {
		t.Fatal(err)
	}
	l := Start(path)
	var snaps []*model.Recording
	for done := false; !done; {
		select {
		case <-l.Done():
			done = true
		default:
		}
		snaps = append(snaps, l.Snapshot())
		time.Sleep(50 * time.Microsecond)
	}
	rec, err := l.Wait()
	if err != nil || countCalls(rec) != 150 {
		t.Fatalf("%v, %d calls", err, countCalls(rec))
	}
	last := -1
	for _, s := range snaps {
		n := countCalls(s)
		if n < last {
			t.Fatalf("a later snapshot has %d calls, an earlier one %d", n, last)
		}
		last = n
		if n > 0 && s.Runs[0].Calls[n-1] != rec.Runs[0].Calls[n-1] {
			t.Fatalf("snapshot call %d is not the final recording's", n)
		}
	}
	t.Logf("%d snapshots", len(snaps))
}

// TestStartErrors: Start reports an unusable file through Wait, and is done.
func TestStartErrors(t *testing.T) {
	l := Start(filepath.Join(t.TempDir(), "missing.jsonl"))
	<-l.Done()
	if rec, err := l.Wait(); rec != nil || err == nil || !l.Progress().Done {
		t.Errorf("recording %v, error %v", rec, err)
	}
	if s := l.Snapshot(); s == nil || len(s.Runs) != 0 {
		t.Errorf("snapshot of a failed load %+v", s)
	}
}
