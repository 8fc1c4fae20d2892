package loader

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// Event types the loader reads; every other type is ignored.
const (
	libraryPrefix  = "agentfootprint."
	evRunConfig    = "agentfootprint.agent.run_configured"
	evTurnStart    = "agentfootprint.agent.turn_start"
	evTurnEnd      = "agentfootprint.agent.turn_end"
	evIterationEnd = "agentfootprint.agent.iteration_end"
	evLLMStart     = "agentfootprint.stream.llm_start"
	evLLMEnd       = "agentfootprint.stream.llm_end"
	evToolStart    = "agentfootprint.stream.tool_start"
	evToolEnd      = "agentfootprint.stream.tool_end"
	evInjected     = "agentfootprint.context.injected"
	evPressure     = "agentfootprint.context.budget_pressure"
)

// maxProblems bounds the problem list, so that a large file of garbage
// cannot fill memory with complaints.
const maxProblems = 1000

// maxGap bounds how far a context.injected position may run ahead of the
// hashes already filed (the library files them in order, with no gap), so
// that one bad number cannot allocate gigabytes.
const maxGap = 1024

// event is one line of the log (or one element of recording.events).
// The payload is decoded later, only for the types the loader uses.
type event struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Meta    struct {
		RunID string `json:"runId"`
	} `json:"meta"`
}

// loc says where an event came from: a line of an NDJSON file, or an
// element of an envelope's recording.events (line 0).
type loc struct {
	line  int
	label string
}

// builder turns events, in file order, into the runs of a Recording.
type builder struct {
	rec      *model.Recording
	runs     map[string]*runState
	order    []*runState
	nextID   int
	sawEvent bool // some event's type starts with "agentfootprint."
	dropped  int  // problems past maxProblems
}

type runState struct {
	run    *model.Run
	hashes []uint32   // injected hashes for the call the next llm_start opens
	cur    *callState // the run's latest call
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
}

type toolUse struct {
	id, name string
	args     json.RawMessage
	ended    bool
	content  string // the tool message text the model got
}

func newBuilder(rec *model.Recording) *builder {
	return &builder{rec: rec, runs: map[string]*runState{}}
}

func (b *builder) problem(at loc, format string, args ...any) {
	if len(b.rec.Problems) >= maxProblems {
		b.dropped++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if at.line > 0 {
		msg = fmt.Sprintf("%s:%d: %s", b.rec.Source, at.line, msg)
	} else if at.label != "" {
		msg = fmt.Sprintf("%s: %s: %s", b.rec.Source, at.label, msg)
	} else {
		msg = fmt.Sprintf("%s: %s", b.rec.Source, msg)
	}
	b.rec.Problems = append(b.rec.Problems, model.Problem{Line: at.line, Message: msg})
}

func (b *builder) message(m model.Message) *model.Message {
	b.nextID++
	m.ID = b.nextID
	return &m
}

func (b *builder) runFor(id string) *runState {
	rs := b.runs[id]
	if rs == nil {
		rs = &runState{run: &model.Run{Index: len(b.order) + 1, RunID: id}}
		b.runs[id] = rs
		b.order = append(b.order, rs)
		b.rec.Runs = append(b.rec.Runs, rs.run)
	}
	return rs
}

// finish settles every call still open and notes the problems left out.
func (b *builder) finish() {
	for _, rs := range b.order {
		b.settle(rs.cur)
	}
	if b.dropped > 0 {
		b.rec.Problems = append(b.rec.Problems, model.Problem{
			Message: fmt.Sprintf("%s: %d more problems not listed", b.rec.Source, b.dropped),
		})
	}
}

// raw decodes one event and hands it on. last is true for an NDJSON
// line that the file ends in the middle of.
func (b *builder) raw(data []byte, at loc, last bool) {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		b.badEvent(data, at, last, err)
		return
	}
	if !utf8.Valid(data) {
		b.problem(at, "invalid UTF-8 (shown as U+FFFD)")
	}
	switch {
	case ev.Type == "":
		b.problem(at, "event has no type")
	case strings.HasPrefix(ev.Type, libraryPrefix):
		b.sawEvent = true
		b.runFor(ev.Meta.RunID) // runs come in order of first appearance
		b.event(&ev, at)
	}
}

func (b *builder) badEvent(data []byte, at loc, last bool, err error) {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		b.problem(at, "not an event: %s", describe(err))
		return
	}
	if se.Offset < int64(len(data)) {
		b.problem(at, "invalid JSON: %v (at byte %d)", err, se.Offset)
		return
	}
	if last {
		b.problem(at, "the last line is cut off (invalid JSON: unexpected end of line)")
		return
	}
	b.problem(at, "invalid JSON: unexpected end of line (cut off?)")
}

// decode decodes an event's payload into p, noting a problem when it
// does not fit.
func (b *builder) decode(ev *event, at loc, p any) bool {
	if len(ev.Payload) == 0 || string(ev.Payload) == "null" {
		b.problem(at, "%s has no payload", short(ev.Type))
		return false
	}
	if err := json.Unmarshal(ev.Payload, p); err != nil {
		b.problem(at, "%s payload: %s", short(ev.Type), describe(err))
		return false
	}
	return true
}

// short is an event type without the library prefix, as messages use it.
func short(typ string) string { return strings.TrimPrefix(typ, libraryPrefix) }

// describe says in JSON terms why a value did not decode.
func describe(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	if te.Field == "" {
		return "a JSON " + te.Value + ", not an object"
	}
	return fmt.Sprintf("%q is a JSON %s", te.Field, te.Value)
}

func (b *builder) event(ev *event, at loc) {
	switch ev.Type {
	case evRunConfig:
		var p struct {
			Window json.RawMessage `json:"window"`
		}
		if b.decode(ev, at, &p) && len(p.Window) > 0 && string(p.Window) != "null" {
			rs := b.runFor(ev.Meta.RunID)
			if err := json.Unmarshal(p.Window, &rs.run.Strategy); err != nil {
				b.problem(at, "agent.run_configured window is not a strategy name: %s", p.Window)
			}
		}
	case evTurnStart:
		var p struct {
			UserPrompt string `json:"userPrompt"`
		}
		if b.decode(ev, at, &p) {
			b.turnStart(b.runFor(ev.Meta.RunID), p.UserPrompt, at)
		}
	case evTurnEnd:
		rs := b.runFor(ev.Meta.RunID)
		b.settle(rs.cur)
		rs.run.Complete = true
	case evPressure:
		var p struct {
			Unit string  `json:"unit"`
			Cap  float64 `json:"cap"`
		}
		if b.decode(ev, at, &p) && p.Unit == "tokens" {
			b.runFor(ev.Meta.RunID).run.ThresholdTokens = int(p.Cap)
		}
	case evInjected:
		b.injected(ev, at)
	case evLLMStart:
		b.llmStart(ev, at)
	case evLLMEnd:
		b.llmEnd(ev, at)
	case evToolStart:
		b.toolStart(ev, at)
	case evToolEnd:
		b.toolEnd(ev, at)
	case evIterationEnd:
		b.iterationEnd(ev, at)
	}
}

func (b *builder) turnStart(rs *runState, prompt string, at loc) {
	if rs.run.RequestMessage != nil {
		b.problem(at, "a second agent.turn_start in run %q; the later request wins", rs.run.RunID)
	}
	rs.run.Request = prompt
	rs.run.RequestMessage = b.message(model.Message{Role: model.RoleUser, Content: prompt})
}

// injected files one message hash of the window the next call will send:
// the library composes the window, then emits llm_start.
func (b *builder) injected(ev *event, at loc) {
	var p struct {
		Slot        string `json:"slot"`
		ContentHash string `json:"contentHash"`
		Position    *int   `json:"position"`
	}
	if !b.decode(ev, at, &p) || p.Slot != "messages" {
		return
	}
	h, err := strconv.ParseUint(p.ContentHash, 16, 32)
	if err != nil {
		b.problem(at, "context.injected contentHash %q is not a 32-bit hex number", p.ContentHash)
		return
	}
	rs := b.runFor(ev.Meta.RunID)
	pos := len(rs.hashes)
	if p.Position != nil {
		pos = *p.Position
	}
	if pos < 0 || pos > len(rs.hashes)+maxGap {
		b.problem(at, "context.injected position %d is out of range (%d hashes so far)", pos, len(rs.hashes))
		return
	}
	for len(rs.hashes) <= pos {
		rs.hashes = append(rs.hashes, 0)
	}
	rs.hashes[pos] = uint32(h)
}

func (b *builder) llmStart(ev *event, at loc) {
	var p struct {
		Iteration     int `json:"iteration"`
		MessagesCount int `json:"messagesCount"`
	}
	if !b.decode(ev, at, &p) {
		return
	}
	rs := b.runFor(ev.Meta.RunID)
	b.settle(rs.cur)
	if p.MessagesCount < 0 {
		b.problem(at, "stream.llm_start messagesCount %d is negative", p.MessagesCount)
		p.MessagesCount = 0
	}
	call := &model.Call{Iteration: p.Iteration, MessagesCount: p.MessagesCount, Line: at.line, RecordedHashes: rs.hashes}
	rs.hashes = nil
	rs.cur = &callState{call: call}
	rs.run.Calls = append(rs.run.Calls, call)
	rs.run.FinalAnswer = ""
}

// open returns the run's latest call, or notes that the event has none.
func (b *builder) open(ev *event, at loc) *callState {
	cs := b.runFor(ev.Meta.RunID).cur
	if cs == nil || cs.settled {
		b.problem(at, "%s with no llm_start before it", short(ev.Type))
		return nil
	}
	return cs
}

func (b *builder) llmEnd(ev *event, at loc) {
	var p struct {
		Content string      `json:"content"`
		Usage   model.Usage `json:"usage"`
	}
	if !b.decode(ev, at, &p) {
		return
	}
	cs := b.open(ev, at)
	if cs == nil {
		return
	}
	if cs.call.Ended {
		b.problem(at, "a second stream.llm_end for the call of line %d", cs.call.Line)
		return
	}
	cs.call.Usage = p.Usage
	cs.call.Ended = true
	cs.content = p.Content
	b.runFor(ev.Meta.RunID).run.FinalAnswer = p.Content
}

func (b *builder) toolStart(ev *event, at loc) {
	var p struct {
		ToolName   string          `json:"toolName"`
		ToolCallID string          `json:"toolCallId"`
		Args       json.RawMessage `json:"args"`
	}
	if !b.decode(ev, at, &p) {
		return
	}
	if cs := b.open(ev, at); cs != nil {
		cs.tools = append(cs.tools, &toolUse{id: p.ToolCallID, name: p.ToolName, args: p.Args})
	}
}

func (b *builder) toolEnd(ev *event, at loc) {
	var p struct {
		ToolCallID string          `json:"toolCallId"`
		Result     json.RawMessage `json:"result"`
		Error      json.RawMessage `json:"error"`
	}
	if !b.decode(ev, at, &p) {
		return
	}
	cs := b.open(ev, at)
	if cs == nil {
		return
	}
	for i := len(cs.tools) - 1; i >= 0; i-- {
		t := cs.tools[i]
		if t.id != p.ToolCallID {
			continue
		}
		if t.ended {
			b.problem(at, "a second stream.tool_end for toolCallId %q", p.ToolCallID)
			return
		}
		t.ended = true
		t.content = toolContent(p.Result, p.Error)
		return
	}
	b.problem(at, "stream.tool_end for toolCallId %q with no stream.tool_start", p.ToolCallID)
}
