package window_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// s08 is the 201-call recording; benchmarks may read ../shared when present.
const s08 = "../../shared/testdata/s08-long-run/run.jsonl"

func BenchmarkReplayS08(b *testing.B) {
	if _, err := os.Stat(s08); err != nil {
		b.Skip("s08-long-run not beside the repo")
	}
	rec, err := loader.Load(s08)
	if err != nil {
		b.Fatal(err)
	}
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r := window.Run(rec, p)
		if len(r.Calls) != 201 {
			b.Fatalf("%d calls", len(r.Calls))
		}
	}
}

// synthetic builds a one-run recording of n calls, each calling one of
// six tools with a result of 100..6000 chars, deterministically.
func synthetic(n int) *model.Recording {
	id := 0
	next := func(m *model.Message) *model.Message { id++; m.ID = id; return m }
	tools := []string{"search", "read", "query", "list", "grep", "stat"}
	req := next(&model.Message{Role: model.RoleUser, Content: "investigate"})
	run := &model.Run{Index: 1, RunID: "r1", Request: req.Content, RequestMessage: req, Strategy: model.SlidingWindow}
	seed := uint32(7)
	for i := 1; i <= n; i++ {
		seed = seed*1664525 + 1013904223
		name := tools[seed%6]
		size := 100 + int(seed>>8)%5900
		cid := fmt.Sprintf("call_%d", i)
		a := next(&model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: cid, Name: name, Args: []byte(`{}`)}}})
		t := next(&model.Message{Role: model.RoleTool, ToolCallID: cid, ToolName: name, Content: strings.Repeat("x", size)})
		run.Calls = append(run.Calls, &model.Call{Iteration: i, Appended: []*model.Message{a, t}, Usage: model.Usage{Input: 1000 + size, Output: 10}})
	}
	return &model.Recording{Runs: []*model.Run{run}}
}

func BenchmarkReplay10k(b *testing.B) {
	rec := synthetic(10_000)
	p := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: 4, KeepLastToolResults: 2}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		window.Run(rec, p)
	}
}
