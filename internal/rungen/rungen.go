// Package rungen writes big agentfootprint event logs for benchmarks: a
// deterministic run of N model calls in the library's NDJSON event shapes
// (run_configured, turn_start, context.injected per window message,
// llm_start/llm_end, tool_start/tool_end, iteration_end with its history,
// context.evicted, turn_end). The windows it records are computed with
// package window, so a replay of a generated log reproduces them.
//
// It is a test helper, not a user command: nothing here is a recording of
// the real library.
package rungen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Spec says what to generate.
type Spec struct {
	Calls      int    // model calls in the run (the last one answers)
	Seed       uint64 // same seed, same bytes
	MinResult  int    // tool result size range, in characters
	MaxResult  int
	KeepRecent int // the window policy the log is recorded under
	KeepPins   int
	// Rules are the window rules of the library version the log is
	// written as by (the zero value: 9.57.0 – 9.62.0's)
	Rules window.Rules
	// FirstResult, when above 0, is the size of the first call's tool
	// results (the rest are MinResult..MaxResult)
	FirstResult int
}

// Default is a long run shaped like s08-long-run: results of
// 100..6000 chars, keepRecentTurns 4, pins 2.
func Default(calls int) Spec {
	return Spec{Calls: calls, Seed: 8, MinResult: 100, MaxResult: 6000, KeepRecent: 4, KeepPins: 2}
}

var toolNames = []string{"search_docs", "read_file", "run_query", "list_hosts", "get_metrics", "read_logs"}

const words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "

// WriteFile writes the log to path and returns its size in bytes.
func WriteFile(path string, s Spec) (int64, error) {
	return writeFile(path, func(w io.Writer) error { return Write(w, s) })
}

func writeFile(path string, write func(io.Writer) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		f.Close()
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, err
	}
	return st.Size(), f.Close()
}

// gen carries the state of one generated run.
type gen struct {
	w     io.Writer
	rng   *rand.Rand
	runID string
	clock int64
	err   error
	// minimal: the log is written at tier minimal, only agent.* events
	// (docs/rules/versions-and-tiers.md §16)
	minimal bool
}

type event struct {
	Type    string `json:"type"`
	Payload any    `json:"payload"`
	Meta    meta   `json:"meta"`
}

type meta struct {
	WallClockMs    int64    `json:"wallClockMs"`
	RunOffsetMs    int64    `json:"runOffsetMs"`
	RuntimeStageID string   `json:"runtimeStageId"`
	SubflowPath    []string `json:"subflowPath"`
	RunID          string   `json:"runId"`
}

func (g *gen) emit(typ, stage string, payload any) {
	if g.err != nil || g.minimal && !strings.HasPrefix(typ, "agent.") {
		return
	}
	g.clock++
	b, err := json.Marshal(event{Type: "agentfootprint." + typ, Payload: payload,
		Meta: meta{WallClockMs: 1796000000000 + g.clock, RunOffsetMs: g.clock, RuntimeStageID: stage, SubflowPath: []string{}, RunID: g.runID}})
	if err == nil {
		b = append(b, '\n')
		_, err = g.w.Write(b)
	}
	g.err = err
}

// Write writes the whole log to w.
func Write(w io.Writer, s Spec) error {
	if s.Calls < 1 {
		return fmt.Errorf("rungen: %d calls", s.Calls)
	}
	g := &gen{w: w, rng: rand.New(rand.NewPCG(s.Seed, 0x1f00)), runID: "run-generated-1"}
	g.run(s, "agent", "Work through the incident queue and report what you changed.")
	return g.err
}

// run writes one run of agent, s.Calls calls answering request.
func (g *gen) run(s Spec, agent, request string) {
	policy := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: s.KeepRecent, KeepLastToolResults: s.KeepPins}
	g.emit("agent.run_configured", "run-configured#0", map[string]any{"agentId": agent, "window": policy.Strategy})
	g.emit("agent.turn_start", "seed#0", map[string]any{"turnIndex": 0, "userPrompt": request})
	history := []*model.Message{{Role: model.RoleUser, Content: request}}
	var records []model.Record
	for it := 1; it <= s.Calls; it++ {
		v := window.VisitWindow(history, window.VisitInput{Policy: policy, Request: request, Iteration: it, FirstCall: it == 1, Records: records, Rules: s.Rules})
		if v.Record != nil {
			records = append(records, *v.Record)
		}
		for i, m := range v.Evicted {
			g.emit("context.evicted", "compact#"+strconv.Itoa(it), map[string]any{"slot": "messages",
				"contentHash": strconv.FormatUint(uint64(window.ContentHash(m.Role, i, m.Content)), 16), "reason": "budget", "survivalMs": 3})
		}
		sent := v.After
		g.injectWindow(sent)
		g.emit("stream.llm_start", "call-llm#"+strconv.Itoa(it), map[string]any{"iteration": it, "messagesCount": len(sent)})
		last := it == s.Calls
		appended := g.answer(s, it, last)
		g.emit("stream.llm_end", "call-llm#"+strconv.Itoa(it), map[string]any{"iteration": it, "content": appended[0].Content,
			"toolCallCount": len(appended[0].ToolCalls), "usage": map[string]int{"input": model.WindowChars(sent) / 4, "output": 40}})
		for _, t := range appended[1:] {
			g.emit("stream.tool_start", "tool-calls#"+strconv.Itoa(it), map[string]any{"toolName": t.ToolName, "toolCallId": t.ToolCallID, "args": map[string]int{"n": it}})
			g.emit("stream.tool_end", "tool-calls#"+strconv.Itoa(it), map[string]any{"toolCallId": t.ToolCallID, "result": t.Content, "durationMs": 1})
		}
		end := map[string]any{"turnIndex": 0, "iterIndex": it, "toolCallCount": len(appended) - 1}
		if !last {
			end["history"] = append(append([]*model.Message{}, sent...), appended...)
		}
		g.emit("agent.iteration_end", "tool-calls#"+strconv.Itoa(it), end)
		history = append(append([]*model.Message{}, sent...), appended...)
	}
	g.emit("agent.turn_end", "final#0", map[string]any{"turnIndex": 0, "iterationCount": s.Calls})
}

// injectWindow writes one context.injected event per window message.
func (g *gen) injectWindow(w []*model.Message) {
	for i, m := range w {
		g.emit("context.injected", "sf-messages/compose", map[string]any{
			"contentHash": strconv.FormatUint(uint64(window.ContentHash(m.Role, i, m.Content)), 16),
			"slot":        "messages", "source": m.Role, "reason": fmt.Sprintf("conversation history [%d]", i),
			"rawContent": m.Content, "asRole": m.Role, "position": i,
		})
	}
}

// answer makes call it's assistant message and tool results: one tool,
// sometimes two or three in parallel; the last call answers in words.
func (g *gen) answer(s Spec, it int, last bool) []*model.Message {
	if last {
		return []*model.Message{{Role: model.RoleAssistant, Content: "Done: every incident in the queue was handled."}}
	}
	n := 1
	if g.rng.IntN(8) == 0 {
		n = 2 + g.rng.IntN(2)
	}
	a := &model.Message{Role: model.RoleAssistant}
	if g.rng.IntN(5) == 0 {
		a.Content = "Checking the next item."
	}
	out := []*model.Message{a}
	for k := range n {
		name := toolNames[g.rng.IntN(len(toolNames))]
		id := fmt.Sprintf("call_%05d_%d", it, k)
		a.ToolCalls = append(a.ToolCalls, model.ToolCall{ID: id, Name: name, Args: json.RawMessage(`{"n":` + strconv.Itoa(it) + `}`)})
		size := s.MinResult + g.rng.IntN(s.MaxResult-s.MinResult+1)
		if it == 1 && s.FirstResult > 0 {
			size = s.FirstResult
		}
		out = append(out, &model.Message{Role: model.RoleTool, ToolCallID: id, ToolName: name, Content: result(name, it, size)})
	}
	return out
}

func result(name string, it, size int) string {
	var b strings.Builder
	b.Grow(size + len(words))
	fmt.Fprintf(&b, "%s#%d: ", name, it)
	for b.Len() < size {
		b.WriteString(words)
	}
	return b.String()[:size]
}

// Cached returns the path of a generated log for s in the system temp
// directory, writing it only when it is not there yet (a 1 GB log takes
// seconds to write; benchmarks run many times).
func Cached(s Spec) (string, int64, error) {
	return cached(fmt.Sprintf("inspect-rungen-%d-%d-%d-%d-%d-%d.jsonl",
		s.Calls, s.Seed, s.MinResult, s.MaxResult, s.KeepRecent, s.KeepPins), func(path string) (int64, error) { return WriteFile(path, s) })
}

func cached(name string, write func(path string) (int64, error)) (string, int64, error) {
	path := filepath.Join(os.TempDir(), name)
	if st, err := os.Stat(path); err == nil {
		return path, st.Size(), nil
	}
	tmp := path + ".part"
	n, err := write(tmp)
	if err != nil {
		os.Remove(tmp)
		return "", 0, err
	}
	return path, n, os.Rename(tmp, path)
}
