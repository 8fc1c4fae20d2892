package loader

import (
	"github.com/afinspect/inspect/model"
)

// elemFields are the keys of a history message, by field number.
var elemFields = []string{"role", "content", "toolCallId", "toolName", "toolCalls", "injectedBy", "ephemeral", "toolChars"}

const (
	fRole = iota
	fContent
	fToolCallID
	fToolName
	fToolCalls
	fInjectedBy
	fEphemeral
	fToolChars
)

// history reads iteration_end history: every element is checked where it
// lies, none is decoded or hashed. The builder, which knows where the
// window ends and whether context.injected already gave its hashes,
// hashes or decodes what it needs from the spans.
func (f *fastDecoder) history(s *scanner, p *parsed) bool {
	if s.null() {
		return true
	}
	if !s.eat('[') {
		return false
	}
	n := f.histLen + f.histLen/8 + 2 // most histories are the last one and a little more
	h := &history{refs: make([]elemRef, 0, n), spans: make([][]byte, 0, n)}
	for first := true; s.more(']', &first); {
		s.ws()
		start := s.i
		if r, n, ok := f.elems.find(s.b, start); ok {
			s.i = start + n
			h.refs = append(h.refs, r)
			h.spans = append(h.spans, s.b[start:s.i])
			continue
		}
		var key textKey
		ok := element(s, nil, &key)
		if !ok {
			return false
		}
		span := s.b[start:s.i]
		r := refOf(key, span)
		f.elems.file(s.b, start, r, s.i)
		h.refs = append(h.refs, r)
		h.spans = append(h.spans, span)
	}
	if s.broken() {
		return false
	}
	f.histLen = len(h.refs)
	p.ok, p.history = true, h
	return true
}

// elemState is what one element held that its hash needs at its end.
type elemState struct {
	role       []byte
	roleEsc    bool
	key        *textKey
	checkOnly  bool
	decodeInto *model.Message
}

// element reads one history message. With m nil it checks it and fills
// key; with m it decodes it into m (the span was checked before). A
// message of an unusual shape (a content that is not a string, a null
// message) fails: the line goes to the reference decoder.
func element(s *scanner, m *model.Message, key *textKey) bool {
	e := elemState{checkOnly: m == nil, decodeInto: m, key: key}
	if !s.members(shapeElem, elemFields, func(i int) bool { return e.field(s, i) }) {
		return false
	}
	if e.checkOnly {
		key.role = roleText(e.roleText())
	}
	return true
}

func (e *elemState) roleText() []byte {
	if e.roleEsc {
		return []byte(unquote(e.role))
	}
	return e.role
}

func (e *elemState) field(s *scanner, i int) bool {
	if i == fContent {
		return e.content(s)
	}
	if i == fRole {
		if s.null() {
			return true
		}
		var ok bool
		e.role, e.roleEsc, ok = s.str()
		if m := e.decodeInto; m != nil {
			m.Role = text(e.role, e.roleEsc)
		}
		return ok
	}
	if m := e.decodeInto; m != nil {
		return decodeField(s, i, m)
	}
	switch i {
	case fToolCalls:
		_, ok := toolCalls(s, true)
		return ok
	case fEphemeral:
		if s.null() {
			return true
		}
		_, ok := s.boolean()
		return ok
	case fToolChars:
		_, ok := floatValue(s)
		return ok
	case fInjectedBy:
		raw, ok := rawValue(s)
		e.key.delivered = ok && string(raw) != "null"
		if e.key.delivered {
			e.key.by = raw
		}
		return ok
	}
	return s.null() || s.peek() == '"' && s.skipString()
}

// decodeField decodes a field other than role and content into m.
func decodeField(s *scanner, i int, m *model.Message) bool {
	var ok bool
	switch i {
	case fToolCallID:
		m.ToolCallID, ok = stringValue(s)
	case fToolName:
		m.ToolName, ok = stringValue(s)
	case fInjectedBy:
		var raw []byte
		raw, ok = rawValue(s)
		m.InjectedBy = injectedText(raw)
	case fToolCalls:
		m.ToolCalls, ok = toolCalls(s, false)
	case fEphemeral:
		if s.null() {
			return true
		}
		m.Ephemeral, ok = s.boolean()
	case fToolChars:
		if s.null() {
			return true
		}
		var v float64
		v, ok = floatValue(s)
		m.ToolChars = &v
	}
	return ok
}

// content hashes a string content in the same pass when the role came
// first (as the library writes it), else notes where it is.
func (e *elemState) content(s *scanner) bool {
	if s.null() {
		return true
	}
	if s.peek() != '"' {
		return false
	}
	if m := e.decodeInto; m != nil {
		if end := s.i + 1 + len(m.Content); m.Content != "" && end < len(s.b) && s.b[end] == '"' {
			// the caller set the decoder's string of this very text, checked
			// and free of escapes: its closing quote is the first one
			s.i = end + 1
			return true
		}
		raw, esc, ok := s.str()
		m.Content = text(raw, esc)
		return ok
	}
	var ok bool
	e.key.raw, ok = rawString(s)
	e.key.scanned, e.key.esc = ok, s.esc
	e.key.seen = s.last
	return ok
}

// toolCalls reads an assistant message's toolCalls; check skips building.
func toolCalls(s *scanner, check bool) ([]model.ToolCall, bool) {
	if s.null() {
		return nil, true
	}
	if !s.eat('[') {
		return nil, false
	}
	var calls []model.ToolCall
	for first := true; s.more(']', &first); {
		var c model.ToolCall
		if !s.null() && !toolCall(s, &c, check) {
			return nil, false
		}
		if !check {
			calls = append(calls, c)
		}
	}
	if !check && calls == nil {
		calls = []model.ToolCall{}
	}
	return calls, !s.broken()
}

// toolCallFields are the keys of a tool call, by field number.
var toolCallFields = []string{"id", "name", "args"}

func toolCall(s *scanner, c *model.ToolCall, check bool) bool {
	return s.members(shapeToolCall, toolCallFields, func(i int) bool {
		switch {
		case check && i < 2:
			return s.null() || s.peek() == '"' && s.skipString()
		case i == 0:
			var ok bool
			c.ID, ok = stringValue(s)
			return ok
		case i == 1:
			var ok bool
			c.Name, ok = stringValue(s)
			return ok
		case check:
			return s.skip()
		}
		raw, ok := rawValue(s)
		c.Args = append([]byte(nil), raw...)
		return ok
	})
}

// injectedText is an injectedBy value as Message.InjectedBy keeps it: its
// JSON text, "" for null.
func injectedText(raw []byte) string {
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// roleCodes are the roles an elemRef names by number; 0 is another,
// kept in full in history.roles.
var roleCodes = [...]string{1: model.RoleUser, 2: model.RoleAssistant, 3: model.RoleTool, 4: model.RoleSystem}

// elemRef is a history element's key in 48 bytes: where its content's
// JSON lies in its span, its role by number, whether an injection
// delivered it, and what the decoder knew of its text. A history of
// thousands of messages per call is keyed without a copy per message.
type elemRef struct {
	off, end     int32
	byOff, byEnd int32 // its injectedBy, when delivered
	role         uint8
	delivered    bool
	scanned, esc bool // as in textKey
	seen         seenText
}

// refOf compacts key; the content's JSON lies at span offset key.raw

func refOf(key textKey, span []byte) elemRef {
	r := elemRef{delivered: key.delivered, scanned: key.scanned, esc: key.esc, seen: key.seen}
	if len(key.raw) > 0 {
		r.off = int32(cap(span) - cap(key.raw))
		r.end = r.off + int32(len(key.raw))
	}
	if len(key.by) > 0 {
		r.byOff = int32(cap(span) - cap(key.by))
		r.byEnd = r.byOff + int32(len(key.by))
	}
	for i, name := range roleCodes {
		if i > 0 && key.role == name {
			r.role = uint8(i)
		}
	}
	return r
}
