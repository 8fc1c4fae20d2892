package loader

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/afinspect/inspect/model"
)

// maxProblems bounds the problem list, so that a large file of garbage
// cannot fill memory with complaints.
const maxProblems = 1000

// maxGap bounds how far a context.injected position may run ahead of the
// hashes already filed (the library files them in order, with no gap), so
// that one bad number cannot allocate gigabytes.
const maxGap = 1024

// builder turns events, in file order, into the segments of a Recording
// (docs/rules/runs-and-conversations.md §10). It runs on one goroutine; what others may see
// of it is published (see Loading).
type builder struct {
	rec *model.Recording
	segmenter
	order    []*runState // segments that are an agent's, in order of becoming one
	runNos   map[string]int
	interned map[internKey]*internTable // recorded window messages, by their text as the file spells it
	nextID   int
	events   int       // events applied: the order of §10's "first event"
	calls    int       // llm_starts so far
	settled  int       // calls settled so far (what a snapshot holds)
	sawEvent bool      // some event's type starts with "agentfootprint."
	tier     tierSeen  // what the events seen so far tell of the tier (§16.2)
	unlisted unlisted  // problems past maxProblems
	dirty    int       // index of the first segment changed since the last publish
	views    viewState // what is kept to make views (view.go)
	input    inputRead // how far the input's lines were applied

	opts    options
	fast    fastDecoder // for events decoded on the builder's goroutine
	scratch parsed
	loading *Loading // told of progress; nil when nobody watches
	// file is the input being read when the load reads several (each
	// event's loc and problem names it); "" for a load of one
	file      string
	inArchive bool // an archive's entries are being read
}

type runState struct {
	run     *model.Run
	comp    string            // compositionPath of the segment's first event, encoded (path.go)
	path    string            // its agent path, encoded (§15.1)
	slots   []*model.Message  // recorded window for the call the next llm_start opens, by position
	keys    []slotKey         // how each of slots was interned
	cur     *callState        // the segment's latest call
	started map[string]bool   // toolCallIds a tool_start opened
	ended   map[string]bool   // toolCallIds a tool_end answered
	early   map[string]string // results whose tool_start the segment has not seen
	opened  []string          // toolCallIds of the tool_starts, in order
	agentID string            // run_configured agentId
	hint    int               // room for the next call's window
	sys     systemPrompts
	req     requestState // the system prompt, tools and slots composed for the next call
	// judged are evidence_checked events met before the iteration_end
	// that makes their call, at tier minimal (the library emits the
	// verdict before it ends the iteration)
	judged []judgement
	// shown is the segment as the last view showed it, with the repeated
	// results its copy of the latest call noted; stale: changed since
	shown      *model.Run
	shownNotes []repeatedNote
	stale      bool
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
	minimal     bool      // made from an iteration_end, at tier minimal (§16.3)
	keys        []slotKey // how each message of call.Recorded was interned, when injected events gave them
}

// slotKey is how a recorded window's message was interned, from a
// context.injected event: an iteration_end history element with the
// same key and text is that message, known without a second lookup.
type slotKey struct {
	role             string
	delivered, plain bool // plain: filed by its text (no escape)
}

type toolUse struct {
	id, name string
	args     json.RawMessage
	ended    bool
	content  string // the tool message text the model got
	repeated bool   // a tools.repeated_call event names it
}

func newBuilder(rec *model.Recording, opts options, l *Loading) *builder {
	return &builder{rec: rec, segmenter: newSegmenter(), runNos: map[string]int{},
		interned: map[internKey]*internTable{}, opts: opts, loading: l, views: viewState{answered: map[string]bool{}}}
}

func (b *builder) problem(at loc, format string, args ...any) {
	b.addProblem(at, fmt.Sprintf(format, args...))
}

func (b *builder) addProblem(at loc, msg string) {
	if b.opts.each != nil {
		b.opts.each(model.Problem{Line: at.line, Message: b.located(at, msg)})
	}
	if len(b.rec.Problems) >= maxProblems {
		b.unlisted.add(at.line, msg)
		return
	}
	b.rec.Problems = append(b.rec.Problems, model.Problem{Line: at.line, Message: b.located(at, msg)})
}

// located is msg with the file and the line (or part) it is about.
func (b *builder) located(at loc, msg string) string {
	name := at.file
	if name == "" {
		name = b.file
	}
	if name == "" {
		name = b.rec.Source
	}
	switch {
	case at.line > 0:
		return fmt.Sprintf("%s:%d: %s", name, at.line, msg)
	case at.label != "":
		return fmt.Sprintf("%s: %s: %s", name, at.label, msg)
	}
	return fmt.Sprintf("%s: %s", name, msg)
}

// message numbers m and measures it: from here on its length is only ever
// read, so replays on several goroutines may share it.
func (b *builder) message(m *model.Message) *model.Message {
	b.nextID++
	m.ID = b.nextID
	m.Chars()
	return m
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
	b.events++
	b.tier.see(b, p)
	rs := b.segmentFor(p)
	if rs == nil {
		return
	}
	rs.run.Last = b.events
	switch p.kind {
	case kindRunConfig:
		if p.ok {
			b.configured(rs, p)
			b.checkStrategy(p)
		}
	case kindTurnStart:
		if p.ok {
			b.turnStart(rs, p.text, p.at)
		}
	case kindTurnEnd:
		b.turnEnd(rs, p)
	case kindPressure:
		if p.ok {
			rs.run.Caps = append(rs.run.Caps, p.threshold)
		}
	case kindInjected:
		if p.ok {
			b.injected(rs, p)
		}
		if p.isSystem {
			rs.systemPrompt(p.text)
		}
		if p.isSystem || p.request().isTools {
			b.requestPiece(rs, p)
		}
	case kindSlotComposed:
		if p.ok {
			b.slotComposed(rs, p)
		}
	case kindLLMStart:
		if p.ok {
			b.llmStart(rs, p)
		}
	case kindIterationEnd:
		switch {
		case b.tier.minimal():
			b.minimalCall(rs, p)
		case p.ok:
			b.iterationEnd(rs, p)
		}
	case kindFatal:
		b.failed(rs, p)
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
		b.toolStart(rs, p)
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
	rs.run.HasTurnStart = true
	rs.run.Request = prompt
	rs.run.RequestMessage = b.message(&model.Message{Role: model.RoleUser, Content: prompt})
}

func (b *builder) turnEnd(rs *runState, p *parsed) {
	if rs.cur != nil && rs.cur.settled {
		b.thaw(rs) // a second turn_end: its change goes to a copy
	}
	b.settle(rs.cur)
	rs.run.Complete = true
	rs.run.TurnEndAt = b.events
	if p.hasText {
		rs.run.FinalAnswer = p.text
	}
	rs.run.FinalMessage = b.message(&model.Message{Role: model.RoleAssistant, Content: rs.run.FinalAnswer})
	if cs := rs.cur; cs != nil && cs.minimal && !cs.fromHistory {
		// the run's last call, whose answer only turn_end holds (docs/rules/evidence.md §9.6)
		cs.call.Facts.Response.Content = rs.run.FinalAnswer
	}
}

// injected files one message of the window the next call will send: the
// library composes the window, then emits llm_start (§10.6).
func (b *builder) injected(rs *runState, p *parsed) {
	pos := len(rs.slots)
	if p.hasPosition {
		pos = p.position
	}
	if pos < 0 || pos > len(rs.slots)+maxGap {
		b.problem(p.at, "context.injected position %d is out of range (%d messages so far)", pos, len(rs.slots))
		return
	}
	if rs.slots == nil {
		rs.slots, rs.keys = make([]*model.Message, 0, rs.hint), make([]slotKey, 0, rs.hint)
	}
	for len(rs.slots) <= pos {
		rs.slots = append(rs.slots, nil)
		rs.keys = append(rs.keys, slotKey{})
	}
	rs.slots[pos], rs.keys[pos] = nil, slotKey{}
	if p.hasContent {
		key := textKey{role: p.role, raw: p.content, delivered: p.delivered, scanned: p.contentScanned, esc: p.contentEsc,
			seen: p.contentSeen}
		_, plain := plainText(key)
		rs.keys[pos] = slotKey{role: key.role, delivered: key.delivered, plain: plain}
		rs.slots[pos] = b.intern(key, func() *model.Message {
			m := &model.Message{Role: p.role}
			if _, plain := plainText(key); plain && key.seen.text != "" {
				m.Content = key.seen.text // the decoder's string: no copy
			} else {
				m.Content = jsonText(p.content)
			}
			if p.role == model.RoleTool {
				m.ToolCallID = p.sourceID
			}
			if p.delivered {
				m.InjectedBy = `"delivered"`
			}
			return m
		})
	}
}

// sameSlot is the message of the call's recorded slot i when key files
// the same text in the same table, that is what intern(key) returns, found
// by one compare; nil when that is not known.
func (cs *callState) sameSlot(i int, key textKey) *model.Message {
	if i >= len(cs.keys) {
		return nil
	}
	k := cs.keys[i]
	text, plain := plainText(key)
	if !k.plain || !plain || k.role != key.role || k.delivered != key.delivered {
		return nil
	}
	f := filed{b: text}
	if key.seen.ok {
		f.text = key.seen.text
	}
	if m := cs.call.Recorded[i]; f.same(m.Content) {
		return m
	}
	return nil
}

func (b *builder) llmStart(rs *runState, p *parsed) {
	b.settle(rs.cur)
	n := p.messagesCount
	if n < 0 {
		b.problem(p.at, "stream.llm_start messagesCount %d is negative", n)
		n = 0
	}
	b.calls++
	call := &model.Call{Number: b.calls, Iteration: p.iteration, MessagesCount: n, Line: p.at.line, File: p.at.file}
	call.Facts.SystemPrompt = rs.sys.forCall()
	call.Request = b.requestFor(rs, p, call)
	var keys []slotKey
	if len(rs.slots) == n && !slices.Contains(rs.slots, nil) {
		call.Recorded = rs.slots
		keys = rs.keys
		for k := n - 1; k >= 0 && rs.keys[k].delivered; k-- {
			cp := *rs.slots[k] // a delivery is a message of its own (see iterationEnd)
			call.Recorded[k] = b.message(&cp)
			call.Deliveries++
		}
	}
	rs.hint = len(rs.slots) + 4
	rs.slots, rs.keys = nil, nil
	rs.cur = &callState{call: call, keys: keys}
	rs.run.Calls = append(rs.run.Calls, call)
}

// thaw makes rs's latest call, settled, a copy of itself, so that a
// change to it leaves the call a view holds as it was: a settled call is
// shared with the views (view.go).
func (b *builder) thaw(rs *runState) {
	cp := *rs.cur.call
	rs.cur.call = &cp
	rs.run.Calls[len(rs.run.Calls)-1] = &cp
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
	b.checkUsage(p)
	cs.call.Usage, cs.call.Measured = p.usage, p.measured
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

func (b *builder) toolStart(rs *runState, p *parsed) {
	b.views.open = append(b.views.open, toolStartAt{id: p.toolCallID, name: p.toolName, at: p.at})
	if !rs.started[p.toolCallID] {
		rs.started[p.toolCallID] = true
		rs.opened = append(rs.opened, p.toolCallID)
	}
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	t := &toolUse{id: p.toolCallID, name: p.toolName, args: p.args}
	cs.tools = append(cs.tools, t)
	if text, ok := rs.early[p.toolCallID]; ok { // its tool_end came first
		delete(rs.early, p.toolCallID)
		t.ended, t.content = true, text
	}
}

// toolEnd pairs a result with its tool_start by toolCallId, whichever
// came first.
func (b *builder) toolEnd(rs *runState, p *parsed) {
	if rs.run.FirstToolEnd == "" && len(rs.ended) == 0 {
		rs.run.FirstToolEnd = p.toolCallID
	}
	if rs.ended[p.toolCallID] {
		b.problem(p.at, "a second stream.tool_end for toolCallId %q", p.toolCallID)
		return
	}
	rs.ended[p.toolCallID] = true
	b.views.answered[p.toolCallID] = true
	if cs := rs.cur; cs != nil && !cs.settled {
		for i := len(cs.tools) - 1; i >= 0; i-- {
			if t := cs.tools[i]; t.id == p.toolCallID {
				t.ended, t.content = true, p.text
				return
			}
		}
	}
	if !rs.started[p.toolCallID] {
		rs.early[p.toolCallID] = p.text // a resumed run's answer, or a result before its start
	}
}
