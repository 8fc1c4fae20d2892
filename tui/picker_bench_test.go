package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/internal/rungen"
)

// manyConversations opens a generated log of runs conversations over
// agents agents, as the program does, at 160×50.
func manyConversations(b *testing.B, runs, agents int) Model {
	b.Helper()
	path, _, err := rungen.CachedConversations(rungen.Independent(runs).Over(agents))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	m := open(b, fileConfig(path), 160, 50)
	if m.s == nil || len(m.s.Views.Convs) != runs {
		b.Fatalf("opened %v", m.err)
	}
	b.Logf("%d conversations of %d agents open in %s", runs, agents, time.Since(start))
	return m
}

// A key in the picker, its frame drawn, at 5k, 10k and 20k
// conversations: the picker draws the rows on screen only.
func BenchmarkPickerKey(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := manyConversations(b, n, 20)
			m = press(m, "w", "G", "pgup", "pgup")
			b.ResetTimer()
			for i := range b.N {
				k := "down"
				if i%2 == 1 {
					k = "up"
				}
				m = press(m, k)
				_ = m.View()
			}
		})
	}
}

// Opening a conversation from the picker, 2,000 agents over 20,000
// runs: the study settled every policy once; opening one replays that
// conversation, nothing of the others.
func BenchmarkPickerOpen(b *testing.B) {
	m := manyConversations(b, 20000, 2000)
	b.ResetTimer()
	for range b.N {
		was := m.s.View.Number
		m = press(m, "w", "j", "enter")
		_ = m.View()
		if m.s.View.Number == was {
			b.Fatalf("still on conversation %d", was)
		}
	}
}

// A key on the main screen at 180 columns, where the conversations'
// column is drawn beside the panes: it draws the rows on screen only.
func BenchmarkColumnKey(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := manyConversations(b, n, 20)
			m = send(m, tea.WindowSizeMsg{Width: 180, Height: 50})
			if m.convColumn() == 0 {
				b.Fatal("no conversations' column at 180 columns")
			}
			b.ResetTimer()
			for i := range b.N {
				k := "down"
				if i%2 == 1 {
					k = "up"
				}
				m = press(m, k)
				_ = m.View()
			}
		})
	}
}
