package loader

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// The reference decoder reads an event with encoding/json. It is the
// definition of what a line means: the fast decoder must agree with it on
// every line it accepts (the differential fuzz test checks), and hands it
// every line it does not (bad JSON, bad UTF-8, unusual shapes), so that
// problems are worded by encoding/json itself.

// refEvent is one line of the log (or one element of recording.events).
type refEvent struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Meta    struct {
		RunID           *string         `json:"runId"`
		CompositionPath json.RawMessage `json:"compositionPath"`
		SubflowPath     json.RawMessage `json:"subflowPath"`
	} `json:"meta"`
}

// refPath is a meta path as the builder keeps it, encoded (path.go);
// anything but an array of strings is none.
func refPath(raw json.RawMessage) string {
	var entries []string
	if unmarshal(raw, &entries) != nil {
		return ""
	}
	return encodePath(entries)
}

// decodeReference decodes one event into p. last is true for an NDJSON
// line that the file ends in the middle of.
func decodeReference(data []byte, at loc, last bool, p *parsed) {
	p.reset(at)
	var ev refEvent
	if err := unmarshal(data, &ev); err != nil {
		p.problem(badEvent(data, last, err))
		return
	}
	if !utf8.Valid(data) {
		p.problem("invalid UTF-8 (shown as U+FFFD)")
	}
	checkDuplicate(data, p)
	if ev.Type == "" {
		p.problem("event has no type")
		return
	}
	p.kind = kindOf([]byte(ev.Type))
	if p.kind == kindNone {
		return
	}
	if ev.Meta.RunID != nil {
		p.runID, p.hasRunID = *ev.Meta.RunID, true
	}
	p.comp, p.sub = refPath(ev.Meta.CompositionPath), refPath(ev.Meta.SubflowPath)
	refPayload(ev.Payload, p)
}

func badEvent(data []byte, last bool, err error) string {
	var se *json.SyntaxError
	switch {
	case !errors.As(err, &se):
		return "not an event: " + describe(err)
	case se.Offset < int64(len(data)) || !strings.HasPrefix(se.Error(), "unexpected end"):
		// "x" fails on its last byte too: that is not JSON, not a cut
		return fmt.Sprintf("invalid JSON: %v (at byte %d)", err, se.Offset)
	case last:
		return "the last line is cut off (invalid JSON: unexpected end of line)"
	}
	return "invalid JSON: unexpected end of line (cut off?)"
}

// describe says in JSON terms why a value did not decode.
func describe(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	if te.Field == "" {
		return "a JSON " + te.Value + ", not an object"
	}
	value := te.Value
	if lit, ok := strings.CutPrefix(value, "number "); ok && len(lit) > 24 {
		value = fmt.Sprintf("number %s… (%d characters)", lit[:12], len(lit))
	}
	// what is wrong: what the value is, and what it should have been
	return fmt.Sprintf("%q is a JSON %s, %s", te.Field, value, wanted(te))
}

// wanted says what a field that did not decode should have held.
func wanted(te *json.UnmarshalTypeError) string {
	if te.Type == nil {
		return "not what the field holds"
	}
	number := strings.HasPrefix(te.Value, "number")
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if number {
			return "not a whole number that fits in 64 bits"
		}
		return "not a whole number"
	case reflect.Float32, reflect.Float64:
		if number {
			return "beyond what a double holds"
		}
		return "not a number"
	case reflect.String:
		return "not a string"
	case reflect.Bool:
		return "not true or false"
	case reflect.Slice, reflect.Array:
		return "not an array"
	case reflect.Struct, reflect.Map:
		return "not an object"
	}
	return "not a " + te.Type.String()
}

// refDecode decodes a payload into v, noting a problem when it does not fit.
func refDecode(payload json.RawMessage, p *parsed, v any) bool {
	if len(payload) == 0 || string(payload) == "null" {
		p.problem(p.kind.name() + " has no payload")
		return false
	}
	if err := unmarshal(payload, v); err != nil {
		done := "; the event is not used"
		if p.kind == kindTurnEnd || p.kind == kindFatal {
			done = "; the rest of the event is read" // the builder reads what it can of these
		}
		p.problem(p.kind.name() + " payload: " + describe(err) + done)
		return false
	}
	return true
}

func refPayload(payload json.RawMessage, p *parsed) {
	switch p.kind {
	case kindRunConfig:
		var v struct {
			Window  json.RawMessage `json:"window"`
			AgentID string          `json:"agentId"`
		}
		if !refDecode(payload, p, &v) {
			return
		}
		p.agentID, p.hasText = v.AgentID, v.Window != nil
		if p.hasText && string(v.Window) != "null" {
			if err := unmarshal(v.Window, &p.text); err != nil {
				p.problem(fmt.Sprintf("agent.run_configured window is not a strategy name: %s", v.Window))
				return
			}
		}
		p.ok = true
	case kindTurnEnd:
		var v struct {
			FinalContent json.RawMessage `json:"finalContent"`
		}
		if len(payload) > 0 && string(payload) != "null" && refDecode(payload, p, &v) {
			p.text, p.hasText = finalText(v.FinalContent)
		}
	case kindTurnStart:
		var v struct {
			UserPrompt json.RawMessage `json:"userPrompt"`
		}
		p.ok = refDecode(payload, p, &v) && refString(p, "userPrompt", v.UserPrompt, &p.text)
	case kindPressure:
		var v struct {
			Unit string  `json:"unit"`
			Cap  float64 `json:"cap"`
		}
		p.ok = refDecode(payload, p, &v) && v.Unit == "tokens"
		p.threshold = int(v.Cap)
	case kindInjected:
		refInjected(payload, p)
	case kindEvidence:
		var v struct {
			Iteration int `json:"iteration"`
		}
		if p.ok = refDecode(payload, p, &v); p.ok {
			p.iteration, p.evidence = v.Iteration, append(json.RawMessage(nil), payload...)
		}
	case kindRepeated:
		var v struct {
			ToolCallID string `json:"toolCallId"`
		}
		p.ok = refDecode(payload, p, &v)
		p.toolCallID = v.ToolCallID
	case kindLLMStart:
		var v struct {
			Iteration         json.RawMessage `json:"iteration"`
			MessagesCount     json.RawMessage `json:"messagesCount"`
			SystemPromptChars json.RawMessage `json:"systemPromptChars"`
			SystemPromptText  json.RawMessage `json:"systemPromptText"`
			Tools             json.RawMessage `json:"tools"`
			ToolsCount        json.RawMessage `json:"toolsCount"`
		}
		p.ok = refDecode(payload, p, &v) && refCount(p, "iteration", v.Iteration, &p.iteration) &&
			refCount(p, "messagesCount", v.MessagesCount, &p.messagesCount)
		if v.SystemPromptChars != nil || v.SystemPromptText != nil || v.Tools != nil || v.ToolsCount != nil {
			p.reqW().vals = [5][]byte{v.SystemPromptChars, v.SystemPromptText, v.Tools, v.ToolsCount}
		}
	case kindSlotComposed:
		var v struct {
			Slot             json.RawMessage `json:"slot"`
			Iteration        json.RawMessage `json:"iteration"`
			Budget           json.RawMessage `json:"budget"`
			DroppedCount     json.RawMessage `json:"droppedCount"`
			DroppedSummaries json.RawMessage `json:"droppedSummaries"`
		}
		p.ok = refDecode(payload, p, &v)
		p.reqW().vals = [5][]byte{v.Slot, v.Iteration, v.Budget, v.DroppedCount, v.DroppedSummaries}
	default:
		refStream(payload, p)
	}
}

func refInjected(payload json.RawMessage, p *parsed) {
	var v struct {
		Slot           string          `json:"slot"`
		Position       *int            `json:"position"`
		AsRole         *string         `json:"asRole"`
		RawContent     json.RawMessage `json:"rawContent"`
		SourceID       string          `json:"sourceId"`
		Reason         string          `json:"reason"`
		ContentSummary string          `json:"contentSummary"`
		Source         json.RawMessage `json:"source"`
	}
	if !refDecode(payload, p, &v) {
		return
	}
	if v.Slot == "system-prompt" {
		p.isSystem = true
		if len(v.RawContent) > 0 && v.RawContent[0] == '"' {
			p.text = jsonText(v.RawContent)
		}
		if p.text == "" {
			p.text, p.reqW().summary = v.ContentSummary, true
		}
	}
	if v.Slot == "system-prompt" || v.Slot == "tools" {
		r := p.reqW()
		r.source, r.reason, r.isTools, p.sourceID = v.Source, v.Reason, v.Slot == "tools", v.SourceID
		if v.Slot == "tools" && len(v.RawContent) > 0 && v.RawContent[0] == '"' {
			p.text = jsonText(v.RawContent)
		}
	}
	if v.Slot != "messages" {
		return
	}
	if v.Position != nil {
		p.position, p.hasPosition = *v.Position, true
	}
	if v.AsRole != nil {
		p.role = *v.AsRole
	}
	if len(v.RawContent) > 0 && v.RawContent[0] == '"' {
		p.content, p.hasContent = v.RawContent, true
	}
	p.sourceID = v.SourceID
	finishInjected(p, v.AsRole != nil, []byte(v.Reason))
}

// refStream decodes the events of one call: llm_end, the tools, and
// iteration_end.
func refStream(payload json.RawMessage, p *parsed) {
	switch p.kind {
	case kindLLMEnd:
		var v struct {
			Content    string          `json:"content"`
			Usage      *model.Usage    `json:"usage"`
			StopReason json.RawMessage `json:"stopReason"`
		}
		p.ok = refDecode(payload, p, &v)
		p.text = v.Content
		if v.Usage != nil {
			p.usage, p.hasUsage = *v.Usage, true
			var n struct {
				Usage struct{ Input, Output *int } `json:"usage"`
			}
			p.measured = unmarshal(payload, &n) == nil && n.Usage.Input != nil && n.Usage.Output != nil
		}
		var r string
		if len(v.StopReason) > 0 && v.StopReason[0] == '"' && unmarshal(v.StopReason, &r) == nil {
			p.stopReason = &r
		}
	case kindToolStart:
		var v struct {
			ToolName   json.RawMessage `json:"toolName"`
			ToolCallID string          `json:"toolCallId"`
			Args       json.RawMessage `json:"args"`
		}
		p.ok = refDecode(payload, p, &v) && refString(p, "toolName", v.ToolName, &p.toolName)
		p.toolCallID, p.args = v.ToolCallID, v.Args
	case kindToolEnd:
		var v struct {
			ToolCallID string          `json:"toolCallId"`
			Result     json.RawMessage `json:"result"`
			Error      json.RawMessage `json:"error"`
		}
		if p.ok = refDecode(payload, p, &v); p.ok {
			p.toolCallID, p.text = v.ToolCallID, toolContent(v.Result, v.Error)
			if missing(v.Result) && missing(v.Error) {
				p.problem(fmt.Sprintf("stream.tool_end for toolCallId %q has no result; the tool message is empty", v.ToolCallID))
			}
		}
	case kindIterationEnd:
		var v struct {
			History       []historyMessage `json:"history"`
			IterIndex     int              `json:"iterIndex"`
			ToolCallCount json.RawMessage  `json:"toolCallCount"`
		}
		if refDecode(payload, p, &v) && v.History != nil {
			p.ok, p.history = true, refHistory(v.History)
		}
		p.iterIndex = v.IterIndex
		p.toolCallCount, p.hasToolCallCount = countOf(v.ToolCallCount)
	}
}

// historyMessage is one message of iteration_end history. Content stays
// raw so that a message whose content is not a string still loads.
type historyMessage struct {
	Role       string           `json:"role"`
	Content    json.RawMessage  `json:"content"`
	ToolCallID string           `json:"toolCallId"`
	ToolName   string           `json:"toolName"`
	ToolCalls  []model.ToolCall `json:"toolCalls"`
	InjectedBy json.RawMessage  `json:"injectedBy"`
	Ephemeral  bool             `json:"ephemeral"`
	ToolChars  *float64         `json:"toolChars"`
}

func refHistory(hs []historyMessage) *history {
	h := &history{keys: make([]textKey, len(hs)), msgs: make([]*model.Message, len(hs))}
	for i, m := range hs {
		msg := &model.Message{Role: m.Role, ToolCallID: m.ToolCallID, ToolName: m.ToolName, ToolCalls: m.ToolCalls,
			InjectedBy: injectedText(m.InjectedBy), Ephemeral: m.Ephemeral, ToolChars: m.ToolChars}
		switch {
		case len(m.Content) == 0 || string(m.Content) == "null":
		case m.Content[0] == '"':
			msg.Content = jsonText(m.Content)
		default:
			h.notString = append(h.notString, i)
			msg.Content = jsonText(m.Content)
		}
		h.keys[i] = textKey{role: msg.Role, raw: m.Content, delivered: msg.InjectedBy != "", by: []byte(msg.InjectedBy)}
		h.msgs[i] = msg
	}
	return h
}
