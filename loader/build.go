package loader

import (
	"encoding/json"
	"fmt"

	"github.com/afinspect/inspect/model"
)

// maxProblems bounds the problem list, so that a large file of garbage
// cannot fill memory with complaints.
const maxProblems = 1000

// maxGap bounds how far a context.injected position may run ahead of the
// hashes already filed (the library files them in order, with no gap), so
// that one bad number cannot allocate gigabytes.
const maxGap = 1024

// builder turns events, in file order, into the runs of a Recording. It
// runs on one goroutine; what others may see of it is published (see
// Loading).
type builder struct {
	rec      *model.Recording
	runs     map[string]*runState
	order    []*runState
	last     *runState // the run of the last event, found without the map
	nextID   int
	settled  int  // calls settled so far (what a snapshot holds)
	sawEvent bool // some event's type starts with "agentfootprint."
	dropped  int  // problems past maxProblems
	dirty    int  // index of the first run changed since the last publish

	opts    options
	fast    fastDecoder // for events decoded on the builder's goroutine
	scratch parsed
	loading *Loading // told of progress; nil when nobody watches
}

type runState struct {
	run    *model.Run
	hashes []uint32 // injected hashes for the call the next llm_start opens
	frames map[int]string
	gapped bool       // some position in hashes was skipped over, not stated
	cur    *callState // the run's latest call
	// historyWins: context.injected and iteration_end history disagreed;
	// from then on the history's hashes are taken (see windowHashes)
	historyWins bool
	sys         systemPrompts
}

// callState is what the stream events told about one call, kept until the
// call is settled: its Appended come from iteration_end history when there
// is one, else from these.
type callState struct {
	call        *model.Call
	content     string // llm_end content
	tools       []*toolUse
	fromHistory bool
	settled     bool
	stated      bool // context.injected gave the hash of every message the call sent
}

type toolUse struct {
	id, name string
	args     json.RawMessage
	ended    bool
	content  string // the tool message text the model got
	repeated bool   // a tools.repeated_call event names it
}

func newBuilder(rec *model.Recording, opts options, l *Loading) *builder {
	return &builder{rec: rec, runs: map[string]*runState{}, opts: opts, loading: l}
}

func (b *builder) problem(at loc, format string, args ...any) {
	b.addProblem(at, fmt.Sprintf(format, args...))
}

func (b *builder) addProblem(at loc, msg string) {
	if len(b.rec.Problems) >= maxProblems {
		b.dropped++
		return
	}
	switch {
	case at.line > 0:
		msg = fmt.Sprintf("%s:%d: %s", b.rec.Source, at.line, msg)
	case at.label != "":
		msg = fmt.Sprintf("%s: %s: %s", b.rec.Source, at.label, msg)
	default:
		msg = fmt.Sprintf("%s: %s", b.rec.Source, msg)
	}
	b.rec.Problems = append(b.rec.Problems, model.Problem{Line: at.line, Message: msg})
}

// message numbers m and measures it: from here on its length is only ever
// read, so replays on several goroutines may share it.
func (b *builder) message(m *model.Message) *model.Message {
	b.nextID++
	m.ID = b.nextID
	m.Chars()
	return m
}

func (b *builder) runFor(id string) *runState {
	if b.last != nil && b.last.run.RunID == id {
		b.touch(b.last)
		return b.last
	}
	rs := b.runs[id]
	if rs == nil {
		rs = &runState{run: &model.Run{Index: len(b.order) + 1, RunID: id}}
		b.runs[id] = rs
		b.order = append(b.order, rs)
		b.rec.Runs = append(b.rec.Runs, rs.run)
	}
	b.last = rs
	b.touch(rs)
	return rs
}

// touch notes that rs may have changed, for the next publish.
func (b *builder) touch(rs *runState) {
	b.dirty = min(b.dirty, rs.run.Index-1)
}

// finish settles every call still open and notes the problems left out.
func (b *builder) finish() {
	for _, rs := range b.order {
		b.touch(rs)
		b.settle(rs.cur)
	}
	if b.dropped > 0 {
		b.rec.Unlisted = b.dropped
		b.rec.Problems = append(b.rec.Problems, model.Problem{
			Message: fmt.Sprintf("%s: %d more problems not listed", b.rec.Source, b.dropped),
		})
	}
}

// event decodes one event on the builder's goroutine and builds it.
func (b *builder) event(data []byte, at loc, last bool) {
	p := &b.scratch
	if b.opts.reference || !b.fast.line(data, at, p) {
		decodeReference(data, at, last, p)
	}
	b.apply(p)
}

// progress publishes what is built so far, if anybody watches.
func (b *builder) progress() {
	if b.loading != nil {
		b.loading.publish(b)
	}
}

// apply builds one decoded event.
func (b *builder) apply(p *parsed) {
	for _, msg := range p.problems {
		b.addProblem(p.at, msg)
	}
	if p.kind == kindNone {
		return
	}
	b.sawEvent = true
	rs := b.runFor(p.runID) // runs come in order of first appearance
	switch p.kind {
	case kindRunConfig:
		if p.ok {
			rs.run.Strategy = p.text
		}
	case kindTurnStart:
		if p.ok {
			b.turnStart(rs, p.text, p.at)
		}
	case kindTurnEnd:
		b.settle(rs.cur)
		rs.run.Complete = true
	case kindPressure:
		if p.ok {
			rs.run.ThresholdTokens = p.threshold
		}
	case kindInjected:
		if p.ok {
			b.injected(rs, p)
		}
		if p.isSystem {
			rs.systemPrompt(p.text)
		}
	case kindLLMStart:
		if p.ok {
			b.llmStart(rs, p)
		}
	default:
		if p.ok {
			b.stream(rs, p)
		}
	}
}

func (b *builder) stream(rs *runState, p *parsed) {
	switch p.kind {
	case kindLLMEnd:
		b.llmEnd(rs, p)
	case kindToolStart:
		if cs := b.open(rs, p); cs != nil {
			cs.tools = append(cs.tools, &toolUse{id: p.toolCallID, name: p.toolName, args: p.args})
		}
	case kindToolEnd:
		b.toolEnd(rs, p)
	case kindIterationEnd:
		b.iterationEnd(rs, p)
	case kindEvidence:
		b.evidenceChecked(rs, p)
	case kindRepeated:
		b.repeatedCall(rs, p)
	}
}

func (b *builder) turnStart(rs *runState, prompt string, at loc) {
	if rs.run.RequestMessage != nil {
		b.problem(at, "a second agent.turn_start in run %q; the later request wins", rs.run.RunID)
	}
	rs.run.Request = prompt
	rs.run.RequestMessage = b.message(&model.Message{Role: model.RoleUser, Content: prompt})
}

// injected files one message hash of the window the next call will send:
// the library composes the window, then emits llm_start.
func (b *builder) injected(rs *runState, p *parsed) {
	pos := len(rs.hashes)
	if p.hasPosition {
		pos = p.position
	}
	if pos < 0 || pos > len(rs.hashes)+maxGap {
		b.problem(p.at, "context.injected position %d is out of range (%d hashes so far)", pos, len(rs.hashes))
		return
	}
	rs.gapped = rs.gapped || pos > len(rs.hashes)
	for len(rs.hashes) <= pos {
		rs.hashes = append(rs.hashes, 0)
	}
	rs.hashes[pos] = p.hash
	if p.frame != "" {
		if rs.frames == nil {
			rs.frames = map[int]string{}
		}
		rs.frames[pos] = p.frame
	} else if rs.frames != nil {
		delete(rs.frames, pos)
	}
}

func (b *builder) llmStart(rs *runState, p *parsed) {
	b.settle(rs.cur)
	n := p.messagesCount
	if n < 0 {
		b.problem(p.at, "stream.llm_start messagesCount %d is negative", n)
		n = 0
	}
	call := &model.Call{Iteration: p.iteration, MessagesCount: n, Line: p.at.line, RecordedHashes: rs.hashes, RecordedFrames: rs.frames}
	stated := !rs.gapped && len(rs.hashes) == n
	rs.hashes, rs.frames, rs.gapped = nil, nil, false
	call.Facts.SystemPrompt = rs.sys.forCall()
	rs.cur = &callState{call: call, stated: stated}
	rs.run.Calls = append(rs.run.Calls, call)
	rs.run.FinalAnswer = ""
}

// open returns the run's latest call, or notes that the event has none.
func (b *builder) open(rs *runState, p *parsed) *callState {
	cs := rs.cur
	if cs == nil || cs.settled {
		b.problem(p.at, "%s with no llm_start before it", p.kind.name())
		return nil
	}
	return cs
}

func (b *builder) llmEnd(rs *runState, p *parsed) {
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	if cs.call.Ended {
		b.problem(p.at, "a second stream.llm_end for the call of line %d", cs.call.Line)
		return
	}
	cs.call.Usage = p.usage
	cs.call.Ended = true
	cs.content = p.text
	cs.call.Facts.Response.Content = p.text
	cs.call.Facts.Response.StopReason = p.stopReason
	if p.hasUsage {
		u := p.usage
		cs.call.Facts.Response.Usage = &u
	}
	rs.run.FinalAnswer = p.text
}

func (b *builder) toolEnd(rs *runState, p *parsed) {
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	for i := len(cs.tools) - 1; i >= 0; i-- {
		t := cs.tools[i]
		if t.id != p.toolCallID {
			continue
		}
		if t.ended {
			b.problem(p.at, "a second stream.tool_end for toolCallId %q", p.toolCallID)
			return
		}
		t.ended = true
		t.content = p.text
		return
	}
	b.problem(p.at, "stream.tool_end for toolCallId %q with no stream.tool_start", p.toolCallID)
}
