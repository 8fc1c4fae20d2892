package tui

import (
	"bytes"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// The golden screens. Write them with `go test ./tui -run Golden -update`
// and read each one: what they must show comes from the recordings (see
// the comment on each case), not from whatever the code printed.

const goldenW, goldenH = 120, 40

// screen runs the real program at a fixed size, waits until the screen
// shows ready, then for each step sends its keys and waits for its text,
// and returns the last frame.
func screen(t *testing.T, cfg Config, w, h int, ready string, steps ...step) []byte {
	t.Helper()
	tm := teatest.NewTestModel(t, probed{New(cfg)}, teatest.WithInitialTermSize(w, h))
	waitText(t, tm, ready)
	for _, s := range steps {
		for _, k := range s.keys {
			tm.Send(keyMsg(k))
		}
		if s.wait != "" {
			waitText(t, tm, s.wait)
		}
	}
	waitSettled(t, tm)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // q would close an overlay, not quit
	final := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(probed).Model
	final.quitting = false // the screen as it was when ctrl+c was pressed
	return []byte(final.View())
}

// probed is the program's model with one more message it answers: a
// settledQuery, asked between frames on the program's own goroutine, so
// that a golden is taken once the background judging its screen shows
// has come back (the state the keys caused), never after a while.
type probed struct{ Model }

// settledQuery asks whether the screen waits for no background answer.
type settledQuery struct{ reply chan bool }

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if q, ok := msg.(settledQuery); ok {
		s := p.s
		q.reply <- s == nil || s.Calls() == 0 || !s.Replaying && s.Book != nil && s.JudgedBook()
		return p, nil
	}
	m, cmd := p.Model.Update(msg)
	return probed{m.(Model)}, cmd
}

// waitSettled asks the program until its screen waits for nothing (the
// replay on screen shown and judged); it fails after a minute.
func waitSettled(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		q := settledQuery{reply: make(chan bool, 1)}
		tm.Send(q)
		select {
		case ok := <-q.reply:
			if ok {
				return
			}
		case <-time.After(time.Until(deadline)):
			t.Fatal("the screen never settled: its replay or its judging did not come back in a minute")
		}
		if time.Now().After(deadline) {
			t.Fatal("the screen never settled: its replay or its judging did not come back in a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// step is keys to press, then text to wait for ("" for none).
type step struct {
	keys []string
	wait string
}

func pressing(ks ...string) step { return step{keys: ks} }

func waitText(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(text))
	}, teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestGoldenDemoFirstScreen(t *testing.T) {
	// The demo opens on call 1 of 16: one turn, the on-call request, the
	// anchor. The policy is sliding-window K=2 with default pins.
	cfg := fileConfig("../testdata/demo-incident/run.jsonl")
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16"))
}

func TestGoldenS01Call5(t *testing.T) {
	// wire.json call 5: the request, search_docs#1 (pinned, stepped over
	// in front of the span), read_file#2, run_query#1; read_file#1 is the
	// span that left, dropped without a notice (the span does not reach
	// the front). The cursor goes to it.
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		pressing("l", "l", "l", "l")))
}

func TestGoldenS01Call6PinEndsSpan(t *testing.T) {
	// wire.json call 6: search_docs#1 left behind the request (a notice
	// of 2 messages takes its place); read_file#2, pinned, ends the span.
	// The cursor is moved onto the pinned turn.
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		pressing("l", "l", "l", "l", "l", "j", "j", "j")))
}

func TestGoldenS05Run2FirstCall(t *testing.T) {
	// wire.json call 6 (run 2, iteration 1): the window is the notice of 7
	// dropped messages, run 1's answer, and the new request (the anchor
	// moved). The cursor is moved onto the notice.
	cfg := fileConfig("../testdata/s05-multi-turn/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/14",
		pressing(":", "6", "enter", "j", "j", "j", "j", "j")))
}

func TestGoldenT01ToolBytesAndNote(t *testing.T) {
	// Call 3 is the first to send call_0002's read_file result: 2,611
	// chars of the tool's own bytes (toolChars) and a 91-char library
	// note after them. The detail is scrolled down to where one ends and
	// the other begins.
	cfg := fileConfig("../testdata/t01-toolchars/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		pressing("l", "l", "pgdown")))
}

func TestGoldenS01PinsOff(t *testing.T) {
	// At call 4 the recorded policy pins search_docs#1; with pins off it
	// leaves (behind a notice), and both are marked as differing.
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9",
		pressing("l", "l", "l"),
		step{keys: []string{"p"}, wait: "differ at this call"}))
}

func TestGoldenHelp(t *testing.T) {
	cfg := fileConfig("../testdata/s01-basic-loop/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/9", pressing("?")))
}

func TestGoldenDemoSmall(t *testing.T) {
	// The smallest supported terminal, 80×24, on the demo's call 4.
	cfg := fileConfig("../testdata/demo-incident/run.jsonl")
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, 80, 24, "call 1/16", pressing("l", "l", "l")))
}

func TestGoldenC04FoldFrameSelected(t *testing.T) {
	// c04 call 6 (run 1, iteration 6), the first fold (README: run 1
	// folds at iterations 6, 8, 9, 10): the library's record says 2
	// messages left and the frame is 546 chars; wire.json's window is the
	// request, that frame, then the rest. The folded turn is marked
	// folded, the frame is the turn after it, selected: labelled as a
	// summary written by cheap-summarizer-1, its text in the detail.
	cfg := fileConfig("../testdata/c04-summarize-multi/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/21",
		pressing(":", "6", "enter"), step{wait: "call 6/21"}, pressing("j")))
}
