package tui

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
)

// s08 is 201 calls and 438 messages; it lives with the shared recordings.
const s08 = "../../shared/testdata/s08-long-run/run.jsonl"

func openS08(b *testing.B) Model {
	if _, err := os.Stat(s08); err != nil {
		b.Skip("s08-long-run is not here:", err)
	}
	m := open(b, fileConfig(s08), 120, 40)
	// the middle of the run, pins moved off the recorded 2 so that every
	// keepRecentTurns change below is a real replay
	return press(m, ":", "1", "0", "0", "enter", "}")
}

// BenchmarkKnobChange is one knob key on s08: window.Run over all 201
// calls, the ledger and the fate comparison at the call, and one frame.
func BenchmarkKnobChange(b *testing.B) { inColour(b, benchKnobChange) }

func benchKnobChange(b *testing.B) { knobChanges(b, openS08(b)) }

// knobChanges presses keepRecentTurns +1 and −1 in turn on m, each a
// replay that must come back, and draws a frame after each.
func knobChanges(b *testing.B, m Model) {
	knobs := []string{"]", "["}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = showKnob(m, knobs[i%2])
		if m.s.Replaying {
			b.Fatal("the replay did not come back")
		}
		_ = m.View()
	}
}

// showKnob presses a knob key and runs what it asks for until the new
// replay is on screen. What the screen asks for after that (the evidence
// pass over the whole run, in the background) is not run: it is not
// what the user waits for.
func showKnob(m Model, k string) Model {
	next, cmd := m.Update(keyMsg(k))
	return runCmds(next.(Model), cmd, nil, func(m Model) bool { return !m.s.Replaying })
}

// BenchmarkCallStep is one step to the next (or previous) call on s08
// and the frame that shows it.
func BenchmarkCallStep(b *testing.B) { inColour(b, benchCallStep) }

func benchCallStep(b *testing.B) {
	m := openS08(b)
	steps := []string{"l", "h"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = press(m, steps[i%2])
		_ = m.View()
	}
}

// BenchmarkFrameWide is one frame (View) of a wide terminal, 200×50, at
// the last call of a generated 50k-call run after a knob change: the
// frame a knob key draws at once, while its replay runs, and again when
// the replay is back. In no colour, 256 colours (TERM=xterm-256color
// alone) and true colour.
func BenchmarkFrameWide(b *testing.B) {
	path, _, err := rungen.Cached(rungen.Default(50000))
	if err != nil {
		b.Fatal(err)
	}
	m := press(open(b, fileConfig(path), 200, 50), "G", "}")
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI256, termenv.TrueColor} {
		b.Run(map[termenv.Profile]string{termenv.Ascii: "ascii", termenv.ANSI256: "256", termenv.TrueColor: "truecolor"}[p], func(b *testing.B) {
			lipgloss.SetColorProfile(p)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			for i := 0; i < b.N; i++ {
				_ = m.View()
			}
		})
	}
}

// inColour runs bench without colour (as the goldens) and in true colour
// (as most terminals), where every style writes escape codes.
func inColour(b *testing.B, bench func(*testing.B)) {
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		b.Run(map[termenv.Profile]string{termenv.Ascii: "ascii", termenv.TrueColor: "truecolor"}[p], func(b *testing.B) {
			lipgloss.SetColorProfile(p)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			bench(b)
		})
	}
}

// BenchmarkFirstFrame1GB is the time from starting to read a ~1 GB log
// (generated, 16,000 calls) to the first frame that shows its first
// calls, driven as the program drives the model: the stream's ticks are
// real timers. Writing the log the first time takes a while; it is kept
// in the temp directory.
func BenchmarkFirstFrame1GB(b *testing.B) { benchFirstFrame(b, 16000) }

// BenchmarkFirstFrame3GB is BenchmarkFirstFrame1GB on 50,000 calls
// (3.3 GB).
func BenchmarkFirstFrame3GB(b *testing.B) { benchFirstFrame(b, 50000) }

func benchFirstFrame(b *testing.B, calls int) {
	path, size, err := rungen.Cached(rungen.Default(calls))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size)/1e6, "MB-file")
	var total time.Duration
	for i := 0; i < b.N; i++ {
		began := time.Now()
		l := loader.StartLimited(path, 0)
		cfg := Config{Name: path, Open: func() *session.Stream { return streamOf(l) }}
		m := New(cfg)
		m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
		cmd := m.Init()
		for m.s == nil {
			m, cmd = runOne(m, cmd)
		}
		if !strings.Contains(m.View(), "call 1/") {
			b.Fatalf("the first frame does not show the first call:\n%s", m.View())
		}
		total += time.Since(began)
		b.StopTimer()
		l.Wait() // let the load finish before the next round
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-first-frame")
}

// BenchmarkWholeRun1GB is the time from starting to read the ~1 GB log to
// the frame that can step to its last call (the final load adopted),
// driven as the program drives the model, beside the load alone: what
// the screen adds to reading the file (ms-after-load).
func BenchmarkWholeRun1GB(b *testing.B) {
	path, _, err := rungen.Cached(rungen.Default(16000))
	if err != nil {
		b.Fatal(err)
	}
	var whole, load time.Duration
	for i := 0; i < b.N; i++ {
		began := time.Now()
		l := loader.StartLimited(path, 0)
		cfg := Config{Name: path, Open: func() *session.Stream { return streamOf(l) }}
		m := New(cfg)
		m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
		cmd := m.Init()
		for m.s == nil || m.stream != nil {
			m, cmd = runOne(m, cmd)
		}
		m = press(m, "G")
		if !strings.Contains(m.View(), "call 16000/16000") {
			b.Fatalf("the last call is not on screen:\n%s", m.View())
		}
		whole += time.Since(began)
		b.StopTimer()
		began = time.Now()
		if _, err := loader.StartLimited(path, 0).Wait(); err != nil {
			b.Fatal(err)
		}
		load += time.Since(began)
		b.StartTimer()
	}
	b.ReportMetric(float64(whole.Milliseconds())/float64(b.N), "ms-to-last-call")
	b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "ms-load")
	b.ReportMetric(float64((whole-load).Milliseconds())/float64(b.N), "ms-after-load")
}

// streamOf is cli's adapter, for the benchmark.
func streamOf(l *loader.Loading) *session.Stream {
	return &session.Stream{
		Progress: func() (int64, int64, int) { p := l.Progress(); return p.Bytes, p.Total, p.Calls },
		Snapshot: l.Snapshot, Done: l.Done(), Wait: l.Wait,
		Waiting: func() bool { return l.Progress().Waiting },
	}
}

// runOne runs cmd (waiting on its timers, as the program would) and feeds
// every message it yields back into m; it returns the commands those
// updates asked for, batched.
func runOne(m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	if cmd == nil {
		return m, nil
	}
	var next []tea.Cmd
	switch msg := cmd().(type) {
	case nil, spinner.TickMsg, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			var n tea.Cmd
			m, n = runOne(m, c)
			next = append(next, n)
		}
	default:
		var n tea.Model
		n, c := m.Update(msg)
		m = n.(Model)
		next = append(next, c)
	}
	return m, tea.Batch(next...)
}

// BenchmarkKnobChange10k is one knob key on a generated 10,000-call log:
// the replay, the ledger and fate comparison at the call, and one frame.
func BenchmarkKnobChange10k(b *testing.B) {
	path, _, err := rungen.Cached(rungen.Default(10000))
	if err != nil {
		b.Fatal(err)
	}
	m := open(b, fileConfig(path), 120, 40)
	knobChanges(b, press(m, ":", "5", "0", "0", "0", "enter", "}"))
}

// openGenerated opens a generated run of calls calls at its last call
// (End), as a user who jumps to where a long run went wrong.
func openGenerated(b *testing.B, calls int) Model {
	path, _, err := rungen.Cached(rungen.Default(calls))
	if err != nil {
		b.Fatal(err)
	}
	m := open(b, fileConfig(path), 120, 40)
	if m = press(m, "G"); m.s.Call != calls-1 {
		b.Fatalf("at call %d of %d after End", m.s.Call+1, calls)
	}
	return m
}

// BenchmarkStepAtEnd is one step (← then →, alternately) near the last
// call of generated runs of 1.6k, 16k and 50k calls, with the frame that
// shows it: under the recorded policy, and after a knob change (every
// step then also compares fates with the recorded replay).
func BenchmarkStepAtEnd(b *testing.B) {
	for _, calls := range []int{1600, 16000, 50000} {
		for _, knob := range []bool{false, true} {
			name := fmt.Sprintf("%dcalls/recorded", calls)
			if knob {
				name = fmt.Sprintf("%dcalls/knob", calls)
			}
			b.Run(name, func(b *testing.B) {
				m := openGenerated(b, calls)
				if knob {
					if m = press(m, "]"); m.s.Replaying || !m.s.Changed() {
						b.Fatal("the knob change did not come back")
					}
				}
				steps := []string{"h", "l"}
				// the first steps start the background passes over the
				// whole run (evidence flags, once per replay): not a step's
				m = press(m, steps...)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					m = press(m, steps[i%2])
					_ = m.View()
				}
			})
		}
	}
}

// BenchmarkKnobAtEnd is what a user waits for after a knob key at the
// last call of generated runs of 1.6k, 16k and 50k calls: from the key
// to the frame that shows the new replay (the replay, the ledger and
// fates at the call, the timeline's numbers, one frame). The pins are
// moved off the recorded policy first, so that every keepRecentTurns
// change (+1, −1 in turn) is a replay, never the recorded one reused.
// What starts after that frame (the book of the response's values, the
// whole-run judge pass) is not waited for.
//
// Every key here is cold: no replay is kept or made ahead (replays.go), and
// keys follow each other at once, as a user holding a key down.
func BenchmarkKnobAtEnd(b *testing.B) {
	defer coldKnobs()()
	for _, calls := range []int{1600, 16000, 50000} {
		b.Run(fmt.Sprintf("%dcalls", calls), func(b *testing.B) { knobChanges(b, press(openGenerated(b, calls), "}")) })
	}
}

// coldKnobs keeps no replay and makes none ahead until the function it
// returns is called.
func coldKnobs() func() {
	was := session.RecentReplays
	session.RecentReplays = 0
	return func() { session.RecentReplays = was }
}

// BenchmarkKnobAtEndSettled is a knob key at the last call of a
// generated 50k-call run after the screen has settled, as a user who
// reads it before the next key: between keys (not timed) every command
// the screen asked for runs — the book of the replay's values, the
// evidence pass, and what runs while the user reads (replays.go). The keys
// go ] ] [ [ round. cold: nothing kept or made ahead, each key a replay
// of every call (the heap collected meanwhile); cold-read: the same, the
// process idle for 700 ms before each key as while a person reads (on
// this 2-core KVM machine the same work after an idle spell takes a few
// ms longer on the median, up to 20 at worst); ahead: the replays of the last
// policies kept, and those of the first knob keys made ahead (replays.go).
func BenchmarkKnobAtEndSettled(b *testing.B) {
	for _, bc := range []struct {
		name string
		cold bool
		read time.Duration
	}{{"cold", true, 0}, {"cold-read", true, 700 * time.Millisecond}, {"ahead", false, 0}} {
		cold := bc.cold
		b.Run(bc.name, func(b *testing.B) {
			if cold {
				defer coldKnobs()()
			}
			m := press(openGenerated(b, 50000), "}")
			keys := []string{"]", "]", "[", "["}
			var took []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				next, cmd := m.Update(keyMsg(keys[i%len(keys)]))
				var rest []tea.Cmd
				m, rest = untilShown(next.(Model), cmd)
				if m.s.Replaying {
					b.Fatal("the replay did not come back")
				}
				_ = m.View()
				b.StopTimer()
				took = append(took, time.Since(t0))
				for _, c := range rest { // all the screen asked for, run to its end
					m = settle(m, c)
				}
				time.Sleep(bc.read)
				b.StartTimer()
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2])/1e6, "ms-median")
			b.ReportMetric(float64(took[len(took)-1])/1e6, "ms-slowest")
		})
	}
}

// BenchmarkKnobHeldHeap is what knob keys make the program hold at the
// last call of a generated 50k-call run: the live heap (after a
// collection) once loaded, and after } and then 16 keys ] } in turn
// (every key a policy never shown before, as scripts/pty-knob.py presses
// them), each screen settled with its replays made ahead (replays.go)
// before the next key; the whole-run evidence pass is held back (it
// takes tens of seconds a key here, and what it keeps is let go with
// the replays: TestKnobKeysLetOldReplaysGo). It runs its keys once,
// whatever b.N.
func BenchmarkKnobHeldHeap(b *testing.B) {
	live := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	noJudge := func(msg tea.Msg) bool {
		_, ok := msg.(session.JudgeSoonMsg)
		return ok
	}
	m := openGenerated(b, 50000)
	loaded := live()
	keys := append([]string{"}"}, slices.Repeat([]string{"]", "}"}, 8)...)
	for _, k := range keys {
		next, cmd := m.Update(keyMsg(k))
		m = runCmds(next.(Model), cmd, noJudge, nil)
		if m.s.Replaying {
			b.Fatalf("the replay of %s did not come back", k)
		}
	}
	after := live()
	b.ReportMetric(loaded, "MiB-loaded")
	b.ReportMetric(after, "MiB-after")
	b.ReportMetric(after/loaded, "ratio")
	b.ReportMetric(float64(len(m.s.Recent)+len(m.s.Ahead)), "replays-held")
	runtime.KeepAlive(m)
}

// untilShown runs cmd and what it leads to, as a program would, until no
// replay is awaited, and returns the commands not run yet.
func untilShown(m Model, cmd tea.Cmd) (Model, []tea.Cmd) {
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 && m.s.Replaying {
		c := pending[0]
		pending = pending[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, spinner.TickMsg, tea.QuitMsg:
		case tea.BatchMsg:
			pending = append(pending, msg...)
		default:
			n, more := m.Update(msg)
			m = n.(Model)
			pending = append(pending, more)
		}
	}
	return m, pending
}
