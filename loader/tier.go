package loader

import (
	"encoding/json"

	"github.com/afinspect/inspect/model"
)

// judgement is an evidence_checked event waiting for its call.
type judgement struct {
	iteration int
	payload   json.RawMessage
	at        loc
}

// tierSeen is what the events so far tell of the observability tier the
// log was written at (docs/rules/versions-and-tiers.md §16.2): tier minimal keeps only
// agent.* and error.* events, firehose adds stream.token.
type tierSeen struct {
	standard   bool // a stream.* or context.* event
	firehose   bool // a stream.token
	iterations bool // an agent.iteration_end
	// rebuilt counts the calls made from iteration_end while no stream or
	// context event had been seen; lateAt is where such an event came
	// after them (a log that is not all of one tier)
	rebuilt int
	lateAt  loc
	late    bool
}

// see notes what p tells of the tier.
func (t *tierSeen) see(b *builder, p *parsed) {
	switch {
	case p.kind == kindIterationEnd:
		t.iterations = true
	case p.kind.writtenAtStandard():
		if !t.standard && t.rebuilt > 0 {
			t.lateAt, t.late = p.at, true
		}
		t.standard = true
		t.firehose = t.firehose || p.kind == kindToken
	}
}

// minimal reports whether the log reads as tier minimal so far: an
// iteration_end then stands for its call (§16.3).
func (t *tierSeen) minimal() bool { return !t.standard }

// tier is the log's tier, once every event is seen.
func (t *tierSeen) tier() string {
	switch {
	case t.firehose:
		return model.TierFirehose
	case !t.standard && t.iterations:
		return model.TierMinimal
	}
	return model.TierStandard
}

// minimalCall makes the call an iteration_end stands for at tier minimal
// (§16.3): its window is the history but the assistant message and the
// tool results that end it; the run's last iteration_end has no history,
// and its call's window is not in the log.
func (b *builder) minimalCall(rs *runState, p *parsed) {
	if !p.ok && p.iterIndex < 1 {
		return // not an iteration_end that can be read; its problem is noted
	}
	b.settle(rs.cur)
	b.calls++
	b.tier.rebuilt++
	call := &model.Call{Number: b.calls, Iteration: p.iterIndex, Line: p.at.line, File: p.at.file}
	call.Request.SystemPrompt.Source = model.PromptAbsent // no llm_start: the log has nothing of the request
	rs.cur = &callState{call: call, minimal: true}
	rs.run.Calls = append(rs.run.Calls, call)
	defer b.judgedLater(rs, call)
	if p.history == nil {
		return
	}
	n := p.history.size() - 1 - p.toolCallCount
	if !p.hasToolCallCount || n < 0 {
		b.problem(p.at, "agent.iteration_end of iteration %d has no usable toolCallCount; its call's window is not known", p.iterIndex)
		return
	}
	call.MessagesCount = n
	b.iterationEnd(rs, p)
	if a := call.Appended; len(a) > 0 && a[0].Role == model.RoleAssistant {
		call.Facts.Response.Content = a[0].Content // docs/rules/evidence.md §9.6
	}
}

// judgedLater files on call the evidence_checked events of its iteration
// that came before it.
func (b *builder) judgedLater(rs *runState, call *model.Call) {
	kept := rs.judged[:0]
	for _, p := range rs.judged {
		if p.iteration == call.Iteration && call.Facts.EvidenceChecked == nil {
			call.Facts.EvidenceChecked = p.payload
			continue
		}
		kept = append(kept, p)
	}
	rs.judged = kept
}
