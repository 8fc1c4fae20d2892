package loader

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// historyMessage is one message of iteration_end history. Content stays
// raw so that a message whose content is not a string still loads.
type historyMessage struct {
	Role       string           `json:"role"`
	Content    json.RawMessage  `json:"content"`
	ToolCallID string           `json:"toolCallId"`
	ToolName   string           `json:"toolName"`
	ToolCalls  []model.ToolCall `json:"toolCalls"`
	InjectedBy string           `json:"injectedBy"`
	Ephemeral  bool             `json:"ephemeral"`
	ToolChars  *float64         `json:"toolChars"`
}

// iterationEnd reads the history an iteration ends with: the window as
// sent on the call, then the call's assistant message and tool results.
// The last iteration of a run carries none.
func (b *builder) iterationEnd(ev *event, at loc) {
	var p struct {
		History []historyMessage `json:"history"`
	}
	if !b.decode(ev, at, &p) || p.History == nil {
		return
	}
	cs := b.open(ev, at)
	if cs == nil {
		return
	}
	if cs.fromHistory {
		b.problem(at, "a second agent.iteration_end history for the call of line %d", cs.call.Line)
		return
	}
	n := cs.call.MessagesCount
	if n > len(p.History) {
		b.problem(at, "agent.iteration_end history has %d messages, fewer than the %d the call sent", len(p.History), n)
		return
	}
	msgs := make([]*model.Message, len(p.History))
	for i := range p.History {
		msgs[i] = b.historyMessage(&p.History[i], i, at)
	}
	cs.call.Recorded = msgs[:n:n]
	cs.call.Appended = msgs[n:]
	cs.fromHistory = true
}

func (b *builder) historyMessage(h *historyMessage, i int, at loc) *model.Message {
	m := model.Message{
		Role:       h.Role,
		ToolCallID: h.ToolCallID,
		ToolName:   h.ToolName,
		ToolCalls:  h.ToolCalls,
		InjectedBy: h.InjectedBy,
		Ephemeral:  h.Ephemeral,
		ToolChars:  h.ToolChars,
	}
	switch {
	case len(h.Content) == 0 || string(h.Content) == "null":
	case h.Content[0] == '"':
		m.Content = jsonText(h.Content)
	default:
		b.problem(at, "agent.iteration_end history[%d]: content is not a string; kept as JSON text", i)
		m.Content = jsonText(h.Content)
	}
	return b.message(m)
}

// settle fixes a call's Appended once nothing more can come for it. With
// no iteration_end history they are rebuilt from the stream: the
// assistant's answer with the tool calls that followed it, then one tool
// message per finished tool.
func (b *builder) settle(cs *callState) {
	if cs == nil || cs.settled {
		return
	}
	cs.settled = true
	if cs.fromHistory || !cs.call.Ended {
		return
	}
	var calls []model.ToolCall
	for _, t := range cs.tools {
		calls = append(calls, model.ToolCall{ID: t.id, Name: t.name, Args: t.args})
	}
	appended := []*model.Message{b.message(model.Message{
		Role:      model.RoleAssistant,
		Content:   cs.content,
		ToolCalls: calls,
	})}
	for _, t := range cs.tools {
		if t.ended {
			appended = append(appended, b.message(model.Message{
				Role:       model.RoleTool,
				Content:    t.content,
				ToolCallID: t.id,
				ToolName:   t.name,
			}))
		}
	}
	cs.call.Appended = appended
}

// toolContent is a tool_end result as the model got it. The library puts a
// thrown error's message in result and flags it with error: true; an error
// given as text or as an object with a message is taken from there.
func toolContent(result, errField json.RawMessage) string {
	errField = bytes.TrimSpace(errField)
	if len(errField) > 0 {
		switch errField[0] {
		case '"':
			return jsonText(errField)
		case '{':
			var e struct {
				Message *string `json:"message"`
			}
			if json.Unmarshal(errField, &e) == nil && e.Message != nil {
				return *e.Message
			}
			return jsonText(errField)
		}
	}
	return jsonText(result)
}

// jsonText is a JSON value as JavaScript would make it text for the model:
// a string is itself, anything else its compact JSON (key order kept, as
// JSON.stringify wrote it). An absent value is "".
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		// Already checked as JSON by the decoder that cut it out: with no
		// escape and no bad UTF-8 (which json turns into U+FFFD) in it,
		// the text between the quotes is the string.
		if len(raw) >= 2 && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			return string(raw[1 : len(raw)-1])
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(raw)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}
