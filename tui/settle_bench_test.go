package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/afinspect/inspect/tui/session"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/internal/rungen"
)

// The screen settled on a file of many runs: N follow-ups of one
// conversation, N independent conversations. From the start to the frame
// with the recording read, opened, its conversation on screen and every
// call judged (the pass that runs in the background once the screen is
// idle: its idle wait is not counted), then the picker drawn. Doubling N
// should about double the time.
func BenchmarkFollowUpsSettle(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchSettle(b, rungen.FollowUpChain(n)) })
	}
}

func BenchmarkIndependentSettle(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchSettle(b, rungen.Independent(n)) })
	}
}

func benchSettle(b *testing.B, c rungen.Conversations) {
	path, _, err := rungen.CachedConversations(c)
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	cpu := cpuTime()
	for b.Loop() {
		began := time.Now()
		cfg := fileConfig(path)
		m := New(cfg)
		next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		m = next.(Model)
		next, _ = m.Update(session.LoadCmd(cfg.source())())
		m = next.(Model)
		next, _ = m.Update(judgeCmd(m.s.Book, m.s.Rec, m.s.Replay)())
		m = next.(Model)
		_ = m.View()
		m = press(m, "w")
		_ = m.View()
		total += time.Since(began)
		if _, ok := m.s.Judgements[m.s.Book]; !ok || m.s.Calls() == 0 {
			b.Fatal("not settled")
		}
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s-settled")
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// A key to the last call of a conversation of N follow-ups, on a settled
// screen: the turn list of a ledger that holds every turn of N runs, each
// run's request opening its own stretch. Doubling N should about double
// the time.
func BenchmarkFollowUpsLastCall(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			path, _, err := rungen.CachedConversations(rungen.FollowUpChain(n))
			if err != nil {
				b.Fatal(err)
			}
			cfg := fileConfig(path)
			next, _ := New(cfg).Update(tea.WindowSizeMsg{Width: 160, Height: 50})
			m := next.(Model)
			next, _ = m.Update(session.LoadCmd(cfg.source())())
			m = next.(Model)
			var took time.Duration
			for b.Loop() {
				began := time.Now()
				m = press(m, "G")
				_ = m.View()
				took += time.Since(began)
				if m.s.Call != m.s.Calls()-1 {
					b.Fatalf("call %d of %d", m.s.Call+1, m.s.Calls())
				}
				m = press(m, "g")
			}
			b.ReportMetric(took.Seconds()*1e3/float64(b.N), "ms-to-last")
		})
	}
}
