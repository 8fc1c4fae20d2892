package tui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/theme"
)

// fakeStream hands out s01 a few calls at a time, as a loader reading a
// big file would.
type fakeStream struct {
	mu   sync.Mutex
	rec  *model.Recording
	n    int // calls loaded so far
	done chan struct{}
	of   int // calls in the whole file (0: 9), 1 KB each
}

func (f *fakeStream) advance(n int, finished bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n = n
	if finished {
		close(f.done)
	}
}

func (f *fakeStream) stream() *session.Stream {
	return &session.Stream{
		Progress: func() (int64, int64, int) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return int64(f.n) * 1000, int64(max(f.of, 9)) * 1000, f.n
		},
		Snapshot: func() *model.Recording {
			f.mu.Lock()
			defer f.mu.Unlock()
			run := *f.rec.Runs[0]
			run.Calls = run.Calls[:f.n]
			return &model.Recording{Source: f.rec.Source, Runs: []*model.Run{&run}, Agents: f.rec.Agents}
		},
		Done: f.done,
		Wait: func() (*model.Recording, error) { <-f.done; return f.rec, nil },
	}
}

func TestStreamShowsWhatHasLoaded(t *testing.T) {
	rec, err := loader.StartLimited(s01, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeStream{rec: rec, n: 0, done: make(chan struct{})}
	cfg := Config{Name: s01, Open: f.stream}
	m := New(cfg)
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = settle(m, m.Init())
	if m.s != nil || !strings.Contains(m.View(), "loading") {
		t.Fatalf("nothing has loaded yet; the screen should say it is loading:\n%s", m.View())
	}
	f.advance(4, false)
	m = send(m, streamTickMsg{})
	if m.s == nil || m.s.Calls() != 4 {
		t.Fatalf("after 4 calls loaded, the screen has %v", m.s)
	}
	view := m.View()
	if !strings.Contains(view, "4 calls so far") || !strings.Contains(view, "44%") {
		t.Errorf("the header should show the progress (4 of 9 KB, 4 calls):\n%s", view)
	}
	m = press(m, "G")
	if m.s.Call != 3 {
		t.Fatalf("G goes to the last loaded call (4), on %d", m.s.Call+1)
	}
	f.advance(9, true)
	m = send(m, streamTickMsg{})
	if m.stream != nil || m.s.Calls() != 9 {
		t.Fatalf("reading done: want all 9 calls and no progress line, got %d calls, stream %v", m.s.Calls(), m.stream != nil)
	}
	if m.s.Call != 3 {
		t.Errorf("the whole recording arrived; the user should stay on call 4, is on %d", m.s.Call+1)
	}
	if strings.Contains(m.View(), "calls so far") {
		t.Error("the progress line should be gone once reading is done")
	}
}

// Reading done while a partial replay runs: the final load waits for it
// (one prepare at a time), then starts on the next tick.
func TestStreamOnePrepareAtATime(t *testing.T) {
	f := &fakeStream{rec: &model.Recording{Runs: []*model.Run{{}}}, n: 3, done: make(chan struct{})}
	s := newStreaming(f.stream())
	if cmd := s.tick(Config{}, nil); cmd == nil || !s.partialBusy {
		t.Fatal("no partial replay for the calls loaded")
	}
	f.advance(5, true)
	if s.tick(Config{}, nil); s.finalStarted {
		t.Fatal("the final load started while a partial replay ran")
	}
	s.partialBusy = false // the partial came back
	if cmd := s.tick(Config{}, nil); cmd == nil || !s.finalStarted {
		t.Fatal("the final load did not start once the partial was back")
	}
}

// A partial that comes back after reading ended starts the final load
// itself (finalNow), once, without waiting for a tick; before the end,
// or with a partial running, it starts nothing.
func TestStreamFinalWhenThePartialIsBack(t *testing.T) {
	f := &fakeStream{rec: &model.Recording{Runs: []*model.Run{{}}}, n: 3, done: make(chan struct{})}
	s := newStreaming(f.stream())
	s.tick(Config{}, nil) // a partial starts
	if s.finalNow(Config{}, nil) != nil {
		t.Fatal("the final load started while reading went on")
	}
	f.advance(5, true)
	if s.finalNow(Config{}, nil) != nil || s.finalStarted {
		t.Fatal("the final load started while a partial replay ran")
	}
	s.partialBusy = false
	if s.finalNow(Config{}, nil) == nil || !s.finalStarted {
		t.Fatal("the partial is back and reading has ended: the final load should start")
	}
	if s.finalNow(Config{}, nil) != nil || s.tick(Config{}, nil) != nil {
		t.Error("a second final load (or more ticks) after the first started")
	}
}

// Near the end of the file the progress is read often, so that the final
// load starts soon after reading ends.
func TestStreamTicksOftenNearTheEnd(t *testing.T) {
	f := &fakeStream{rec: &model.Recording{Runs: []*model.Run{{}}}, n: 3, done: make(chan struct{})}
	s := newStreaming(f.stream())
	s.shownCalls = 3
	for _, c := range []struct {
		n    int
		fast bool
	}{{4, false}, {8, false}, {9, true}} { // 9 of 9 KB read (Progress: 1000 bytes a call)
		f.advance(c.n, false)
		s.shownCalls = c.n // no partial: nothing new to show
		if s.tick(Config{}, nil) == nil {
			t.Fatal("no tick asked for")
		}
		if fast := s.pace() == streamFirst; fast != c.fast {
			t.Errorf("%d of 9 KB read: a quick tick is %v, want %v", c.n, fast, c.fast)
		}
	}
}

// No partial starts that would not be back before the reading ends (as
// the last partial's time per call and the pace of reading tell): it
// would hold the final load back.
func TestStreamNoPartialAtTheEnd(t *testing.T) {
	f := &fakeStream{rec: &model.Recording{Runs: []*model.Run{{}}}, n: 2, done: make(chan struct{})}
	s := newStreaming(f.stream())
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now } // a clock of the test's own
	s.began = now.Add(-800 * time.Millisecond)
	s.lastCalls, s.lastPrepare, s.shownCalls = 2, 100*time.Millisecond, 2
	f.advance(4, false) // 4 of 9 KB in 0.8 s: 1 s left; a partial of 4 calls: 0.2 s
	if s.tick(Config{}, nil); !s.partialBusy {
		t.Fatal("a partial that is back well before the end did not start")
	}
	s.partialBack(4, nil)
	s.began = now.Add(-800 * time.Millisecond)
	s.lastCalls, s.lastPrepare = 4, 200*time.Millisecond
	f.advance(8, false) // 8 of 9 KB in 0.8 s: 0.1 s left; a partial of 8 calls: 0.4 s
	if s.tick(Config{}, nil); s.partialBusy {
		t.Error("a partial started that would still run when reading ends")
	}
}

// While a file loads, the policy is inferred on the first part, and on
// each later part the search goes on from the last part's (study.Grow:
// a candidate replays only the new calls), with the answer a search of
// the whole part gives: the evidence of a search, not of a check. A log
// generated under keepRecentTurns 4, keepLastToolResults 2, 80 calls,
// read 20, 40 and 80 at a time.
func TestStreamInfersOnceThenGoesOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if _, err := rungen.WriteFile(path, rungen.Default(80)); err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeStream{rec: rec, done: make(chan struct{}), of: 80}
	m := New(Config{Name: path, Open: f.stream})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = settle(m, m.Init())
	want := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	for _, calls := range []int{20, 40, 80} {
		f.advance(calls, calls == 80)
		m.stream.began = m.stream.now().Add(-time.Second) // reading is far from done
		m = send(m, streamTickMsg{})
		inf := m.s.Agent
		whole := viewOf(t, f.stream().Snapshot()).Agent
		if m.s.Calls() != calls || inf.Policy != want || inf.Matched != calls || inf.Evidence != whole.Evidence {
			t.Fatalf("after %d calls: %d on screen, %v reproducing %d, evidence %q; a search of the part: %q",
				calls, m.s.Calls(), inf.Policy, inf.Matched, inf.Evidence, whole.Evidence)
		}
	}
}

// TestQuietPipeHasItsCallsOnScreen: a log sent through a pipe whose
// writer then falls quiet (`(cat run.jsonl; sleep 25) | inspect -`) has
// every call on screen while the writer is quiet, though they are fewer
// than twice those shown before: six calls, then the last three.
func TestQuietPipeHasItsCallsOnScreen(t *testing.T) {
	data, err := os.ReadFile(s01)
	if err != nil {
		t.Fatal(err)
	}
	seventh := 0
	for range 7 {
		seventh += strings.Index(string(data[seventh:]), `"agentfootprint.stream.llm_start"`) + 1
	}
	seventh += strings.IndexByte(string(data[seventh:]), '\n') + 1 // its llm_start settles the sixth
	pr, pw := io.Pipe()
	defer pw.Close()
	l := loader.StartReaderLimited(pr, "stdin", 0, 0)
	go pw.Write(data[:seventh]) // six calls settled, then quiet
	m := New(Config{Name: "stdin", Open: func() *session.Stream { return streamOf(l) }})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	cmd := m.Init()
	until := func(calls int) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); m.s == nil || m.s.Calls() < calls; {
			if cmd == nil || time.Now().After(deadline) {
				t.Fatalf("the %d calls sent are not on screen while the writer is quiet: %d", calls, m.s.Calls())
			}
			m, cmd = runOne(m, cmd)
		}
	}
	until(6)
	go pw.Write(data[seventh:]) // the rest, then quiet, the pipe left open
	until(9)
	if m.stream == nil || !strings.Contains(m.View(), "calls so far") {
		t.Error("the pipe is still open: the screen should say it is still reading")
	}
}

// A pipe has no size: its progress line claims no percentage of a total
// it does not know, and says when the writer has fallen quiet.
func TestPipeProgressClaimsNoPercentage(t *testing.T) {
	quiet := false
	s := &streaming{src: &session.Stream{Waiting: func() bool { return quiet }}, read: 208179, calls: 9}
	st := theme.DefaultStyles()
	line := ansi.Strip(s.line(st))
	if strings.Contains(line, "%") || strings.Contains(line, "░") || !strings.Contains(line, "9 calls") {
		t.Errorf("a pipe's progress: %q", line)
	}
	if strings.Contains(line, "waiting") {
		t.Errorf("the writer is not quiet yet: %q", line)
	}
	quiet = true
	if line := ansi.Strip(s.line(st)); !strings.Contains(line, "waiting for more") {
		t.Errorf("a quiet writer: %q", line)
	}
	s.total = 2 * s.read
	if line := ansi.Strip(s.line(st)); !strings.Contains(line, "50%") {
		t.Errorf("a file of known size: %q", line)
	}
}
