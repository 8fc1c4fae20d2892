package loader

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/afinspect/inspect/model"
)

// iterationEnd reads the history an iteration ends with: the window as
// sent on the call, then the call's assistant message and tool results.
// The last iteration of a run carries none. The window is kept as its
// contentHashes (which the replay compares with), hashed here only when
// context.injected did not already state every one; only what the call
// added is decoded.
func (b *builder) iterationEnd(rs *runState, p *parsed) {
	cs := b.open(rs, p)
	if cs == nil {
		return
	}
	if cs.fromHistory {
		b.problem(p.at, "a second agent.iteration_end history for the call of line %d", cs.call.Line)
		return
	}
	h := p.history
	n := cs.call.MessagesCount
	if n > h.size() {
		b.problem(p.at, "agent.iteration_end history has %d messages, fewer than the %d the call sent", h.size(), n)
		return
	}
	for _, i := range h.notString {
		b.problem(p.at, "agent.iteration_end history[%d]: content is not a string; kept as JSON text", i)
	}
	appended := make([]*model.Message, 0, h.size()-n)
	for i := n; i < h.size(); i++ {
		var m *model.Message
		if h.msgs != nil {
			m = h.msgs[i]
		} else {
			m = &model.Message{}
			s := scanner{b: h.spans[i]}
			element(&s, i, m, false)
		}
		appended = append(appended, b.message(m))
	}
	cs.call.RecordedHashes = b.windowHashes(rs, cs, h, n)
	cs.call.RecordedFrames = historyFrames(h, n)
	cs.call.Appended = appended
	cs.fromHistory = true
	b.responseFromHistory(cs)
}

// windowHashes are the contentHashes of the window a call sent. When
// context.injected stated every one, they are taken from there and the
// history is not hashed again, except for the messages the previous call
// added (new to this window): a spot check that the two agree. At the
// first disagreement (a log edited by hand, say) the history wins, for
// this call and the rest of the run.
func (b *builder) windowHashes(rs *runState, cs *callState, h *history, n int) []uint32 {
	if !cs.stated || rs.historyWins {
		return h.windowHashes(n)
	}
	fresh := n
	if calls := rs.run.Calls; len(calls) >= 2 {
		fresh = min(n, len(calls[len(calls)-2].Appended))
	}
	for i := n - fresh; i < n; i++ {
		if h.hashAt(i) != cs.call.RecordedHashes[i] {
			rs.historyWins = true
			return h.windowHashes(n)
		}
	}
	return cs.call.RecordedHashes
}

// size is how many messages the history holds.
func (h *history) size() int {
	if h.msgs != nil {
		return len(h.msgs)
	}
	return len(h.spans)
}

// windowHashes are the contentHashes of the first n messages: the window
// as sent.
func (h *history) windowHashes(n int) []uint32 {
	if h.hashes != nil {
		return h.hashes[:n:n]
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = h.hashAt(i)
	}
	return out
}

// hashAt is the contentHash of the i-th message as a window message.
func (h *history) hashAt(i int) uint32 {
	if h.hashes != nil {
		return h.hashes[i]
	}
	s := scanner{b: h.spans[i]}
	hash, _ := element(&s, i, nil, true)
	return hash
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
	b.settled++
	if !cs.fromHistory {
		cs.call.Facts.Response.ToolCalls = cs.toolStarts()
	}
	if cs.fromHistory || !cs.call.Ended {
		return
	}
	var calls []model.ToolCall
	for _, t := range cs.tools {
		calls = append(calls, model.ToolCall{ID: t.id, Name: t.name, Args: t.args})
	}
	appended := []*model.Message{b.message(&model.Message{
		Role:      model.RoleAssistant,
		Content:   cs.content,
		ToolCalls: calls,
	})}
	for _, t := range cs.tools {
		if t.ended {
			appended = append(appended, b.message(&model.Message{
				Role:       model.RoleTool,
				Content:    t.content,
				ToolCallID: t.id,
				ToolName:   t.name,
			}))
		}
	}
	cs.call.Appended = appended
	b.noteRepeated(cs)
}

// toolContent is a tool_end result as the model got it. The library puts a
// thrown error's message in result and flags it with error: true; an error
// given as text or as an object with a message is taken from there.
func toolContent(result, errField []byte) string {
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

// historyFrames are the compaction frames among the first n messages of a
// history (the window as sent), by position. The fast decoder decodes only
// the elements whose bytes hold the frame prefix (or a \u escape, which
// could spell it).
func historyFrames(h *history, n int) map[int]string {
	var out map[int]string
	for i := 0; i < n; i++ {
		var m *model.Message
		switch {
		case h.msgs != nil:
			m = h.msgs[i]
		case bytes.Contains(h.spans[i], compactedBytes) || bytes.Contains(h.spans[i], unicodeEscape):
			m = &model.Message{}
			s := scanner{b: h.spans[i]}
			element(&s, i, m, false)
		default:
			continue
		}
		if m.Role == model.RoleUser && frameText(m.Content) != "" {
			if out == nil {
				out = map[int]string{}
			}
			out[i] = m.Content
		}
	}
	return out
}

var compactedBytes, unicodeEscape = []byte(model.CompactedPrefix), []byte(`\u`)

// frameText is s when it is a compaction frame's content, else "".
func frameText(s string) string {
	if strings.HasPrefix(s, model.CompactedPrefix) {
		return s
	}
	return ""
}
