package loader

import (
	"bytes"
	"encoding/json"

	"github.com/afinspect/inspect/model"
)

// iterationEnd reads the history an iteration ends with: the window as
// sent on the call, then the call's assistant message and tool results.
// The last iteration of a run carries none. The window is kept as
// interned messages (decoded only when new); what the call added is
// decoded. A history before the segment's first call completes the call
// a resumed run was paused on (§10.6).
func (b *builder) iterationEnd(rs *runState, p *parsed) {
	h := p.history
	if rs.cur == nil && rs.run.LeadHistory == nil {
		rs.run.LeadIteration = p.iterIndex
		rs.run.LeadHistory = make([]*model.Message, h.size())
		for i := range rs.run.LeadHistory {
			rs.run.LeadHistory[i] = b.message(h.decode(i))
		}
		return
	}
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	if cs.fromHistory {
		b.problem(p.at, "a second agent.iteration_end history for the call of line %d", cs.call.Line)
		return
	}
	n := cs.call.MessagesCount
	if n > h.size() {
		b.problem(p.at, "agent.iteration_end history has %d messages, fewer than the %d the call sent", h.size(), n)
		return
	}
	for _, i := range h.notString {
		b.problem(p.at, "agent.iteration_end history[%d]: content is not a string; kept as JSON text", i)
	}
	recorded := make([]*model.Message, n)
	deliveries, trailing := 0, true
	for i := n - 1; i >= 0; i-- {
		key := h.key(i)
		if trailing && key.delivered {
			if m := h.decode(i); deliveredAt(m, cs.call.Iteration) {
				// a delivery is a message of its own, though the same text
				// was delivered before: it joins the history where it is
				recorded[i] = b.message(m)
				b.internAs(key, recorded[i])
				deliveries++
				continue
			}
		}
		trailing = false
		if recorded[i] = cs.sameSlot(i, key); recorded[i] == nil {
			recorded[i] = b.intern(key, func() *model.Message { return h.decode(i) })
		}
	}
	appended := make([]*model.Message, 0, h.size()-n)
	for i := n; i < h.size(); i++ {
		key := h.key(i)
		m := b.message(h.decode(i))
		appended = append(appended, m)
		b.internAs(key, m) // the next call's window holds it: no second decode
	}
	cs.call.Recorded, cs.call.Deliveries = recorded, deliveries
	cs.call.Appended = appended
	cs.call.History = true
	cs.fromHistory = true
	b.responseFromHistory(cs)
}

// size is how many messages the history holds.
func (h *history) size() int {
	if h.msgs != nil {
		return len(h.msgs)
	}
	return len(h.spans)
}

// key is element i's intern key.
func (h *history) key(i int) textKey {
	if h.keys != nil {
		return h.keys[i]
	}
	r := h.refs[i]
	k := textKey{role: roleCodes[r.role], raw: h.spans[i][r.off:r.end], delivered: r.delivered, scanned: r.scanned, esc: r.esc,
		seen: r.seen, by: h.spans[i][r.byOff:r.byEnd]}
	if r.role == 0 { // a role of another name: read it again from the span
		m := &model.Message{}
		s := scanner{b: h.spans[i]}
		element(&s, m, nil)
		k.role = m.Role
	}
	return k
}

// decode is element i of the history as a message of its own.
func (h *history) decode(i int) *model.Message {
	if h.msgs != nil {
		m := *h.msgs[i]
		return &m
	}
	m := &model.Message{}
	if k := h.key(i); k.seen.text != "" {
		if _, plain := plainText(k); plain {
			m.Content = k.seen.text // kept by element: no copy of a long text
		}
	}
	s := scanner{b: h.spans[i]}
	element(&s, m, nil)
	return m
}

// deliveredAt reports whether an injection delivered m at iteration: its
// injectedBy names that iteration (§10.6).
func deliveredAt(m *model.Message, iteration int) bool {
	var by struct {
		Iteration *float64 `json:"iteration"`
	}
	return json.Unmarshal([]byte(m.InjectedBy), &by) == nil && by.Iteration != nil && *by.Iteration == float64(iteration)
}

// settle fixes a call's Appended once nothing more can come for it. With
// no iteration_end history, a call that made tool calls is rebuilt from
// the stream (a damaged log, §10.9): the assistant's answer with the tool
// calls that followed it, then one tool message per finished tool. A
// final answer is the run's, appended at turn_end.
func (b *builder) settle(cs *callState) {
	if cs == nil || cs.settled {
		return
	}
	cs.settled = true
	b.settled++
	b.complete(cs, b.message, b.repeatedResult)
}

// complete is settle's work on cs's call: number makes each message it
// makes one of the recording, note files a repeated call's result.
func (b *builder) complete(cs *callState, number func(*model.Message) *model.Message, note func(*model.Message, string)) {
	if !cs.fromHistory {
		cs.call.Facts.Response.ToolCalls = cs.toolStarts()
	}
	if cs.fromHistory || !cs.call.Ended || len(cs.tools) == 0 {
		return
	}
	var calls []model.ToolCall
	for _, t := range cs.tools {
		calls = append(calls, model.ToolCall{ID: t.id, Name: t.name, Args: t.args})
	}
	appended := []*model.Message{number(&model.Message{
		Role:      model.RoleAssistant,
		Content:   cs.content,
		ToolCalls: calls,
	})}
	for _, t := range cs.tools {
		if t.ended {
			appended = append(appended, number(&model.Message{
				Role:       model.RoleTool,
				Content:    t.content,
				ToolCallID: t.id,
				ToolName:   t.name,
			}))
		}
	}
	cs.call.Appended = appended
	noteRepeated(cs, note)
}

// toolContent is a tool_end result as the model got it. The library puts a
// thrown error's message in result and flags it with error: true; an error
// given as text or as an object with a message is taken from there.
func toolContent(result, errField []byte) string {
	errField = bytes.TrimSpace(errField)
	if errorText(errField) {
		switch errField[0] {
		case '"':
			return jsonText(errField)
		case '{':
			var e struct {
				Message *string `json:"message"`
			}
			if unmarshal(errField, &e) == nil && e.Message != nil {
				return *e.Message
			}
			return jsonText(errField)
		}
	}
	return jsonText(result)
}

// errorText reports whether toolContent takes the text from errField: a
// string or an object.
func errorText(errField []byte) bool {
	errField = bytes.TrimSpace(errField)
	return len(errField) > 0 && (errField[0] == '"' || errField[0] == '{')
}

// jsonText is a JSON value as JavaScript would make it text for the model:
// a string is itself, anything else its compact JSON (key order kept, as
// JSON.stringify wrote it). An absent value is "". The value was checked
// as JSON by the decoder that cut it out.
func jsonText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' && len(raw) >= 2 && raw[len(raw)-1] == '"' {
		return unquote(raw[1 : len(raw)-1])
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}
