package rungen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Conversations says what WriteConversations generates: Count
// conversations of one agent, one after the other, each a run and then
// FollowUps follow-ups (followUp(): a fresh runId whose first window is
// the previous run's windowed history, its answer and the new request,
// after one visit). Every run makes one tool call, then answers; its
// answer names the run, so no two runs carry the same history.
type Conversations struct {
	Count, FollowUps int
	Agents           int // conversation k is agent-(k mod Agents)'s; 0 or 1: all "agent"'s
	Seed             uint64
	KeepRecent       int // the sliding-window policy the log is recorded under
	KeepPins         int
	Minimal          bool // written at tier minimal: agent.* events only
}

// FollowUpChain is one conversation of n runs: n-1 follow-ups.
func FollowUpChain(n int) Conversations {
	return Conversations{Count: 1, FollowUps: n - 1, Seed: 5, KeepRecent: 2, KeepPins: 2}
}

// Independent is n conversations of one run each.
func Independent(n int) Conversations {
	return Conversations{Count: n, Seed: 6, KeepRecent: 2, KeepPins: 2}
}

// Over is c with its conversations spread over agents agents.
func (c Conversations) Over(agents int) Conversations {
	c.Agents = agents
	return c
}

// AtTierMinimal is c written at tier minimal: the windows only in
// agent.iteration_end's history, each run's last not at all.
func (c Conversations) AtTierMinimal() Conversations {
	c.Minimal = true
	return c
}

// WriteConversations writes the log to w.
func WriteConversations(w io.Writer, c Conversations) error {
	if c.Count < 1 || c.FollowUps < 0 {
		return fmt.Errorf("rungen: %d conversations of %d follow-ups", c.Count, c.FollowUps)
	}
	g := &gen{w: w, rng: rand.New(rand.NewPCG(c.Seed, 0x2e00)), minimal: c.Minimal}
	policy := model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: c.KeepRecent, KeepLastToolResults: c.KeepPins}
	run := 0
	for conv := 1; conv <= c.Count; conv++ {
		var carried []*model.Message
		for k := 0; k <= c.FollowUps; k++ {
			run++
			g.runID = "run-generated-" + strconv.Itoa(run)
			request := fmt.Sprintf("Conversation %d, turn %d: check the next host and say what you found.", conv, k+1)
			agent := "agent"
			if c.Agents > 1 {
				agent = fmt.Sprintf("agent-%d", conv%c.Agents)
			}
			carried = g.conversationRun(policy, agent, append(carried, &model.Message{Role: model.RoleUser, Content: request}), request, run)
		}
	}
	return g.err
}

// conversationRun writes one run seeded with history (its request last)
// and returns what a follow-up of it carries: its last window and answer.
func (g *gen) conversationRun(policy model.Policy, agent string, history []*model.Message, request string, run int) []*model.Message {
	g.emit("agent.run_configured", "run-configured#0", map[string]any{"agentId": agent, "window": policy.Strategy})
	g.emit("agent.turn_start", "seed#0", map[string]any{"turnIndex": 0, "userPrompt": request})
	var records []model.Record
	for it := 1; it <= 2; it++ {
		v := window.VisitWindow(history, window.VisitInput{Policy: policy, Request: request, Iteration: it, FirstCall: it == 1, Records: records})
		if v.Record != nil {
			records = append(records, *v.Record)
		}
		sent := v.After
		g.injectWindow(sent)
		g.emit("stream.llm_start", "call-llm#"+strconv.Itoa(it), map[string]any{"iteration": it, "messagesCount": len(sent)})
		usage := map[string]int{"input": model.WindowChars(sent) / 4, "output": 40}
		if it == 2 {
			answer := fmt.Sprintf("Run %d: host-%04x is healthy, p99 %d ms.", run, g.rng.IntN(1<<16), 100+g.rng.IntN(900))
			g.emit("stream.llm_end", "call-llm#2", map[string]any{"iteration": it, "content": answer, "toolCallCount": 0, "usage": usage})
			g.emit("agent.iteration_end", "final#2", map[string]any{"turnIndex": 0, "iterIndex": it, "toolCallCount": 0})
			g.emit("agent.turn_end", "final#0", map[string]any{"turnIndex": 0, "iterationCount": it, "finalContent": answer})
			return append(sent[:len(sent):len(sent)], &model.Message{Role: model.RoleAssistant, Content: answer})
		}
		id := fmt.Sprintf("call_%d_%d", run, it)
		name := toolNames[g.rng.IntN(len(toolNames))]
		a := &model.Message{Role: model.RoleAssistant, Content: "Checking.", ToolCalls: []model.ToolCall{{ID: id, Name: name, Args: []byte(`{"run":` + strconv.Itoa(run) + `}`)}}}
		t := &model.Message{Role: model.RoleTool, ToolCallID: id, ToolName: name, Content: result(name, run, 200+g.rng.IntN(200))}
		g.emit("stream.llm_end", "call-llm#1", map[string]any{"iteration": it, "content": a.Content, "toolCallCount": 1, "usage": usage})
		g.emit("stream.tool_start", "tool-calls#1", map[string]any{"toolName": name, "toolCallId": id, "args": map[string]int{"run": run}})
		g.emit("stream.tool_end", "tool-calls#1", map[string]any{"toolCallId": id, "result": t.Content, "durationMs": 1})
		history = append(sent[:len(sent):len(sent)], a, t)
		g.emit("agent.iteration_end", "tool-calls#1", map[string]any{"turnIndex": 0, "iterIndex": it, "toolCallCount": 1, "history": history})
	}
	return nil
}

// CachedConversations is Cached for WriteConversations.
func CachedConversations(c Conversations) (string, int64, error) {
	tier := ""
	if c.Minimal {
		tier = "-minimal"
	}
	return cached(fmt.Sprintf("inspect-rungen-conv-%d-%d-%d-%d-%d-%d%s.jsonl", c.Count, c.FollowUps, c.Agents, c.Seed, c.KeepRecent, c.KeepPins, tier),
		func(path string) (int64, error) {
			return writeFile(path, func(w io.Writer) error { return WriteConversations(w, c) })
		})
}
