package loader

import (
	"slices"

	"github.com/afinspect/inspect/model"
)

// What the evidence rules need besides the windows (docs/rules/evidence.md
// §3, §6): each call's response and system prompt, the library's own
// evidence verdicts, and the tool's own text of repeated calls.

// systemPrompts collects the system-prompt injection records composed
// since the run's last llm_start; a call whose slot was not composed again
// keeps the previous call's.
type systemPrompts struct {
	fresh, last []string
	composed    bool
}

func (s *systemPrompts) add(text string) {
	if !s.composed {
		s.fresh, s.composed = nil, true
	}
	s.fresh = append(s.fresh, text)
}

// forCall is the system prompt of the call llm_start opens now.
func (s *systemPrompts) forCall() []string {
	if s.composed {
		s.last, s.fresh, s.composed = s.fresh, nil, false
	}
	return s.last
}

func (rs *runState) systemPrompt(text string) { rs.sys.add(text) }

// evidenceChecked files the payload on the run's call of its iteration
// (the latest such call: the event follows the answer it judged).
func (b *builder) evidenceChecked(rs *runState, p *parsed) {
	for i := len(rs.run.Calls) - 1; i >= 0; i-- {
		if c := rs.run.Calls[i]; c.Iteration == p.iteration {
			if c.Facts.EvidenceChecked != nil {
				b.problem(p.at, "a second agent.evidence_checked for iteration %d", p.iteration)
				return
			}
			if rs.cur == nil || c != rs.cur.call || rs.cur.settled {
				// a call a view may hold: the change is a copy of it
				cp := *c
				if rs.cur != nil && rs.cur.call == c {
					rs.cur.call = &cp
				}
				c, rs.run.Calls[i] = &cp, &cp
			}
			c.Facts.EvidenceChecked = p.evidence
			return
		}
	}
	if b.tier.minimal() { // its call is made by the iteration_end that follows (§16.3)
		rs.judged = append(rs.judged, judgement{iteration: p.iteration, payload: p.evidence, at: p.at})
		return
	}
	b.problem(p.at, "agent.evidence_checked for iteration %d, which run %q has no call for", p.iteration, rs.run.RunID)
}

// repeatedCall marks the tool use the event names: its tool_end text is
// the tool's own bytes of its message (§6 "Tool bytes").
func (b *builder) repeatedCall(rs *runState, p *parsed) {
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	for _, t := range cs.tools {
		if t.id == p.toolCallID {
			t.repeated = true
			noteRepeated(cs, b.repeatedResult)
			return
		}
	}
	b.problem(p.at, "tools.repeated_call for toolCallId %q with no stream.tool_start", p.toolCallID)
}

// noteRepeated files, with note, the tool_end text of each repeated
// call's message among what the call appended.
func noteRepeated(cs *callState, note func(*model.Message, string)) {
	for _, m := range cs.call.Appended {
		if m.Role != model.RoleTool {
			continue
		}
		for _, t := range cs.tools {
			if t.repeated && t.ended && t.id == m.ToolCallID {
				note(m, t.content)
			}
		}
	}
}

// repeatedResult files the tool_end text of a repeated call's message.
func (b *builder) repeatedResult(m *model.Message, text string) {
	if b.rec.RepeatedResults == nil {
		b.rec.RepeatedResults = map[*model.Message]string{}
	}
	b.rec.RepeatedResults[m] = text
	b.views.repeated++
}

// responseFromHistory takes the tool calls of the assistant message the
// call's iteration appended (history[messagesCount]); none when that
// message is not an assistant one.
func (b *builder) responseFromHistory(cs *callState) {
	calls := []model.ToolCall{}
	if len(cs.call.Appended) > 0 && cs.call.Appended[0].Role == model.RoleAssistant {
		calls = append(calls, cs.call.Appended[0].ToolCalls...)
	}
	cs.call.Facts.Response.ToolCalls = calls
	noteRepeated(cs, b.repeatedResult)
}

// toolStarts are the call's stream.tool_start events as tool calls.
func (cs *callState) toolStarts() []model.ToolCall {
	calls := make([]model.ToolCall, 0, len(cs.tools))
	for _, t := range cs.tools {
		calls = append(calls, model.ToolCall{ID: t.id, Name: t.name, Args: slices.Clip(t.args)})
	}
	return calls
}
