package tui

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/afinspect/inspect/tui/session"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
)

// s01's log, cut after its first line n (lines from 1).
func s01Lines(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(s01)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		out = append(out, sc.Text()+"\n")
	}
	return out
}

// growingConfig opens path as cli does, able to read it again and to
// read on what is appended; opens counts the reads from the start.
func growingConfig(path string, follow bool) Config {
	cfg, _ := countedConfig(path, follow)
	return cfg
}

func countedConfig(path string, follow bool) (Config, *int) {
	opens := new(int)
	var stream func(l *loader.Loading) *session.Stream
	stream = func(l *loader.Loading) *session.Stream {
		return &session.Stream{Snapshot: l.Snapshot, Done: l.Done(), Wait: l.Wait,
			Progress: func() (int64, int64, int) { p := l.Progress(); return p.Bytes, p.Total, p.Calls },
			More: func() (*session.Stream, error) {
				next, err := l.Continue()
				if err != nil {
					return nil, err
				}
				return stream(next), nil
			}}
	}
	start := func(following bool) *session.Stream {
		*opens++
		if following {
			return stream(loader.StartFollowing(path, 0))
		}
		return stream(loader.StartLimited(path, 0))
	}
	return Config{
		Name: path, Path: path, Follow: follow,
		Load:   func() (*model.Recording, error) { return loader.StartLimited(path, 0).Wait() },
		Open:   func() *session.Stream { return start(follow) },
		Reopen: func() *session.Stream { return start(true) },
	}, opens
}

// look is what the program's look at the file at path finds.
func look(path string) session.FileLookMsg {
	info, err := os.Stat(path)
	return session.FileLookMsg{Info: info, Err: err}
}

func appendLines(t *testing.T, path string, ls []string) int64 {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(ls, "")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	return st.Size()
}

func TestFollowGrowingLog(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	// lines 1–96: calls 1–4 (call 5's llm_start is line 97), no turn_end
	appendLines(t, path, ls[:96])
	m := open(t, growingConfig(path, true), 120, 40)
	if m.s.Calls() != 4 || !strings.Contains(m.View(), "unfinished") {
		t.Fatalf("the cut log: %d calls, unfinished shown: %v", m.s.Calls(), strings.Contains(m.View(), "unfinished"))
	}
	m = press(m, "G")
	// the writer adds calls 5–7
	appendLines(t, path, ls[96:173])
	m = send(m, look(path))
	if m.s.Calls() != 7 || m.s.Call != 6 {
		t.Fatalf("after growth: %d calls, on call %d; want 7, following the last", m.s.Calls(), m.s.Call+1)
	}
	if !strings.Contains(m.View(), "following") || !strings.Contains(m.View(), "unfinished") {
		t.Errorf("the header should say following and unfinished:\n%s", m.View())
	}
	// then the rest, turn_end included: the mark goes
	appendLines(t, path, ls[173:])
	m = send(m, look(path))
	if m.s.Calls() != 9 || m.s.Call != 8 || strings.Contains(m.View(), "unfinished") {
		t.Errorf("at turn_end: %d calls, on call %d, unfinished still shown: %v", m.s.Calls(), m.s.Call+1, strings.Contains(m.View(), "unfinished"))
	}
	// a file that stops growing is not read again
	m = send(m, look(path))
	if m.watch.reloading {
		t.Error("an unchanged file is read again")
	}
}

func TestGrownFileOffersReload(t *testing.T) {
	ls := s01Lines(t)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	appendLines(t, path, ls[:96])
	m := press(open(t, growingConfig(path, false), 120, 40), "l")
	appendLines(t, path, ls[96:])
	m = send(m, look(path))
	if m.s.Calls() != 4 || !strings.Contains(m.View(), "R reads it again") {
		t.Fatalf("without -f: %d calls; the header should offer R:\n%s", m.s.Calls(), m.View())
	}
	m = press(m, "R")
	if m.s.Calls() != 9 || m.s.Call != 1 || strings.Contains(m.View(), "R reads it again") {
		t.Errorf("after R: %d calls, on call %d", m.s.Calls(), m.s.Call+1)
	}
	// F follows from then on
	m = press(m, "F")
	if !m.watch.follow {
		t.Error("F does not follow")
	}
	// the demo cannot be followed
	d := press(open(t, fileConfig(demoLog), 120, 40), "F")
	if d.watch.follow {
		t.Error("a config without a path is followed")
	}
}

// R on a recording that is not a file on disk (the embedded demo) says
// why nothing happens, as F does.
func TestReloadWithoutAFileSaysSo(t *testing.T) {
	m := open(t, fileConfig("../testdata/s01-basic-loop/run.jsonl"), 120, 40) // no Path: as the demo
	if m = press(m, "R"); m.flash != "only a file can be read again" {
		t.Errorf("R: %q", m.flash)
	}
	if m = press(m, "F"); m.flash != "only a file can be followed" {
		t.Errorf("F: %q", m.flash)
	}
}
