package loader

import (
	"fmt"
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
)

// consumerScope is the runId of events that belong to no run (§10.1).
const consumerScope = "consumer-scope"

// stepOf is an event's step (§10.3): subflowPath[0] when the composition
// path's last entry is not an Agent's, else "".
func stepOf(comp, sub0 string) string {
	if comp == "" || sub0 == "" {
		return ""
	}
	last := comp[strings.LastIndexByte(comp, 0)+1:]
	if strings.HasPrefix(last, "Agent:") {
		return ""
	}
	return sub0
}

// segmentFor is the segment an event belongs to, nil for none: no runId,
// consumer-scope, or a composition's own events.
func (b *builder) segmentFor(p *parsed) *runState {
	if !p.hasRunID || p.runID == consumerScope {
		return nil
	}
	step := stepOf(p.comp, p.sub0)
	if rs := b.last; rs != nil && rs.run.RunID == p.runID && rs.run.Step == step {
		b.adoptOn(rs, p)
		b.touch(rs)
		return rs
	}
	if b.runNos[p.runID] == 0 {
		b.runNos[p.runID] = len(b.runNos) + 1
	}
	if step == "" && p.comp != "" && !strings.HasPrefix(p.comp[strings.LastIndexByte(p.comp, 0)+1:], "Agent:") {
		return nil // composition.enter, composition.exit
	}
	k := segKey{p.runID, step}
	rs := b.segs[k]
	if rs == nil {
		rs = &runState{
			run:     &model.Run{RunID: p.runID, Step: step, RunNo: b.runNos[p.runID], First: b.events, Line: p.at.line},
			comp:    p.comp,
			started: map[string]bool{}, ended: map[string]bool{}, early: map[string]string{},
		}
		b.segs[k] = rs
	}
	b.adoptOn(rs, p)
	b.last = rs
	b.touch(rs)
	return rs
}

// adoptOn adopts rs on its first turn_start, llm_start or turn_end.
func (b *builder) adoptOn(rs *runState, p *parsed) {
	if rs.run.Agent == nil && (p.kind == kindTurnStart || p.kind == kindLLMStart || p.kind == kindTurnEnd ||
		p.kind == kindIterationEnd && b.tier.minimal()) {
		b.adopt(rs)
	}
}

// adopt makes rs an agent's segment: it has a turn_start, llm_start or
// turn_end (§10.3), and its agent is named by its first event (§10.5).
func (b *builder) adopt(rs *runState) {
	key, path, id := agentKey(rs.comp, rs.run.Step)
	if rs.comp == "" && rs.run.Step == "" && rs.agentID != "" {
		key = rs.agentID // an empty composition path: the agent id (§10.5)
	}
	a := b.agents[key]
	if a == nil {
		a = &model.Agent{Key: key, Path: path, Step: rs.run.Step, AgentID: id, HasID: id != ""}
		b.agents[key] = a
		b.rec.Agents = append(b.rec.Agents, a)
	}
	rs.run.Agent = a
	if rs.run.Configured && rs.agentID != "" {
		a.AgentID, a.HasID = rs.agentID, true
	}
	b.order = append(b.order, rs)
	b.rec.Runs = append(b.rec.Runs, rs.run)
	rs.run.Index = len(b.rec.Runs)
}

// agentKey names the agent of a segment (§10.5): each compositionPath
// entry Kind:id as id, the step appended, joined by "/"; its path; and the
// agent id a last entry Agent:id names.
func agentKey(comp, step string) (key string, path []string, id string) {
	if comp != "" {
		path = strings.Split(comp, "\x00")
	}
	names := make([]string, 0, len(path)+1)
	for _, e := range path {
		_, name, found := strings.Cut(e, ":")
		if !found {
			name = e
		}
		names = append(names, name)
	}
	if n := len(path); n > 0 && strings.HasPrefix(path[n-1], "Agent:") {
		id = strings.TrimPrefix(path[n-1], "Agent:")
	}
	if step != "" {
		path = append(path, step)
		names = append(names, step)
	}
	if len(names) == 0 {
		names = append(names, "agent")
	}
	return strings.Join(names, "/"), path, id
}

// configured reads agent.run_configured: the window strategy ("none" when
// the payload names none) and the agent id.
func (b *builder) configured(rs *runState, p *parsed) {
	rs.run.Configured = true
	rs.run.Strategy = model.StrategyNone
	if p.hasText && p.text != "" {
		rs.run.Strategy = p.text
	}
	rs.agentID = p.agentID
	if a := rs.run.Agent; a != nil && p.agentID != "" {
		a.AgentID, a.HasID = p.agentID, true
	}
}

// touch notes that rs may have changed, for the next publish.
func (b *builder) touch(rs *runState) {
	if rs.run.Index > 0 {
		b.dirty = min(b.dirty, rs.run.Index-1)
	}
}

// finish settles every call still open, states what §10.7 reads of each
// segment's tool calls, orders the segments by first event, and notes the
// problems left out.
func (b *builder) finish() {
	b.unanswered()
	b.tierProblems()
	for _, rs := range b.order {
		b.settle(rs.cur)
		r := rs.run
		r.FirstOpened = rs.started[r.FirstToolEnd]
		r.Unanswered = nil
		for _, id := range rs.opened {
			if !rs.ended[id] {
				r.Unanswered = append(r.Unanswered, id)
			}
		}
	}
	slices.SortStableFunc(b.order, func(x, y *runState) int { return x.run.First - y.run.First })
	b.rec.Agents = b.rec.Agents[:0]
	for i, rs := range b.order {
		b.rec.Runs[i] = rs.run
		rs.run.Index = i + 1
		if !slices.Contains(b.rec.Agents, rs.run.Agent) {
			b.rec.Agents = append(b.rec.Agents, rs.run.Agent)
		}
	}
	b.dirty = 0
	if b.dropped > 0 {
		b.rec.Unlisted = b.dropped
		b.rec.Problems = append(b.rec.Problems, model.Problem{
			Message: fmt.Sprintf("%s: %d more problems not listed", b.rec.Source, b.dropped),
		})
	}
}
