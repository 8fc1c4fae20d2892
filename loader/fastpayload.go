package loader

// The payloads of the event kinds the builder reads, field by field (see
// fastDecoder.payload); the others' payloads are checked and skipped.

// payloadFields are the payload keys each kind reads, by field number.
var payloadFields = [...][]string{
	kindRunConfig:    {"window", "agentId"},
	kindTurnStart:    {"userPrompt"},
	kindTurnEnd:      {"finalContent"},
	kindIterationEnd: {"history", "iterIndex", "toolCallCount"},
	kindLLMStart:     {"iteration", "messagesCount", "systemPromptChars", "systemPromptText", "tools", "toolsCount"},
	kindLLMEnd:       {"content", "usage", "stopReason"},
	kindToolStart:    {"toolName", "toolCallId", "args"},
	kindToolEnd:      {"toolCallId", "result", "error"},
	kindInjected:     {"slot", "position", "asRole", "rawContent", "sourceId", "reason", "contentSummary", "source"},
	kindPressure:     {"unit", "cap"},
	kindSlotComposed: {"slot", "iteration", "budget", "droppedCount", "droppedSummaries"},
}

// payloadState is what a payload held that is settled only at its end.
type payloadState struct {
	slotMessages, hasRole bool
	result, errField      []byte
	resultSeen            seenText // what the decoder knew of a string result
	reason                []byte
	// a system-prompt record's contentSummary (a JSON string body, valid
	// while the line is); its rawContent is p.content
	slotSystem, slotTools bool
	summary               []byte
	summaryEsc            bool
	// source is a record's source (its JSON), which only a system-prompt
	// or tools record keeps: most records are the messages slot's, and
	// would each make a request of their own for nothing
	source []byte
}

// payload reads the payload object of the kinds the builder uses and
// skips the others'. A payload that is null or not an object, or a field
// of another type, goes to the reference decoder, which words the problem.
func (f *fastDecoder) payload(s *scanner, p *parsed) bool {
	if !needsPayload(p.kind) {
		return s.skip()
	}
	var st payloadState
	if !s.members(shapePayload+shape(p.kind), payloadFields[p.kind], func(i int) bool { return f.field(s, p, &st, i) }) {
		return false
	}
	return finishPayload(p, &st)
}

// finishPayload settles what depends on several fields.
func finishPayload(p *parsed, st *payloadState) bool {
	switch p.kind {
	case kindInjected:
		if st.slotSystem {
			p.isSystem = true
			if p.hasContent {
				p.text = jsonText(p.content)
			}
			if p.text == "" {
				p.text, p.reqW().summary = text(st.summary, st.summaryEsc), true
			}
		}
		if st.slotSystem || st.slotTools {
			r := p.reqW()
			r.source, r.reason, r.isTools = st.source, string(st.reason), st.slotTools
			if st.slotTools && p.hasContent {
				p.text = jsonText(p.content)
			}
		}
		if st.slotMessages {
			finishInjected(p, st.hasRole, st.reason)
		}
	case kindRunConfig:
		p.ok = true
	case kindToolEnd:
		if missing(st.result) && missing(st.errField) {
			return false // "has no result": the reference words it
		}
		if t := st.resultSeen.text; t != "" && !errorText(st.errField) {
			p.text = t // the decoder's string of it: no copy
		} else {
			p.text = toolContent(st.result, st.errField)
		}
		p.ok = true
	case kindTurnStart, kindLLMStart, kindLLMEnd, kindToolStart, kindSlotComposed:
		p.ok = true
	}
	return true
}

// field reads field i of the payload's kind (see payloadFields).
func (f *fastDecoder) field(s *scanner, p *parsed, st *payloadState, i int) bool {
	var ok bool
	switch p.kind {
	case kindRunConfig:
		if i == 1 {
			p.agentID, ok = stringValue(s)
			break
		}
		p.hasText = true // the key is there: a window, or null for none
		if s.null() {
			return true
		}
		p.text, ok = stringValue(s)
	case kindTurnEnd:
		var raw []byte
		raw, ok = rawValue(s)
		p.text, p.hasText = finalText(raw)
	case kindTurnStart:
		p.text, ok = strictString(s)
	case kindPressure:
		if i == 0 {
			var unit string
			unit, ok = stringValue(s)
			p.ok = unit == "tokens"
		} else {
			var c float64
			c, ok = floatValue(s)
			p.threshold = int(c)
		}
	case kindLLMStart:
		if i >= 2 { // what the request held besides its messages
			p.reqW().vals[i-2], ok = rawValue(s)
			break
		}
		n := &p.iteration
		if i == 1 {
			n = &p.messagesCount
		}
		*n, ok = intValue(s)
	case kindSlotComposed:
		p.reqW().vals[i], ok = rawValue(s)
	case kindLLMEnd:
		ok = llmEndField(s, p, i)
	case kindToolStart, kindToolEnd:
		ok = toolField(s, p, st, i)
	case kindInjected:
		ok = injectedField(s, p, st, i)
	case kindIterationEnd:
		switch i {
		case 1:
			p.iterIndex, ok = intValue(s)
		case 2:
			var raw []byte
			raw, ok = rawValue(s)
			p.toolCallCount, p.hasToolCallCount = countOf(raw)
		default:
			ok = f.history(s, p)
		}
	}
	return ok
}

func toolField(s *scanner, p *parsed, st *payloadState, i int) bool {
	var ok bool
	if p.kind == kindToolStart {
		switch i {
		case 0:
			p.toolName, ok = strictString(s)
		case 1:
			p.toolCallID, ok = stringValue(s)
		default:
			var raw []byte
			raw, ok = rawValue(s)
			p.args = append([]byte(nil), raw...)
		}
		return ok
	}
	switch i {
	case 0:
		p.toolCallID, ok = stringValue(s)
	case 1:
		if s.peek() == '"' { // the history that follows holds it again
			st.result, ok = rawString(s)
			st.resultSeen = s.last
			break
		}
		st.result, ok = rawValue(s)
	default:
		st.errField, ok = rawValue(s)
	}
	return ok
}

func injectedField(s *scanner, p *parsed, st *payloadState, i int) bool {
	if i == 7 { // source: read by the builder, whatever its type
		var ok bool
		st.source, ok = rawValue(s)
		return ok
	}
	if i == 3 && s.peek() == '"' { // rawContent: kept as JSON, decoded only if new
		var ok bool
		p.content, ok = rawString(s)
		p.hasContent = true
		p.contentScanned, p.contentEsc = ok, s.esc
		p.contentSeen = s.last
		return ok
	}
	if i == 1 {
		if s.null() {
			return true
		}
		var ok bool
		p.position, ok = s.integer()
		p.hasPosition = ok
		return ok
	}
	if s.null() {
		return true
	}
	raw, esc, ok := s.str()
	if !ok || i == 3 {
		return false // rawContent of another type is for the reference to word
	}
	if i == 6 {
		st.summary, st.summaryEsc = raw, esc
		return true
	}
	if esc {
		raw = []byte(unquote(raw))
	}
	switch i {
	case 0:
		st.slotMessages = string(raw) == "messages"
		st.slotSystem = string(raw) == "system-prompt"
		st.slotTools = string(raw) == "tools"
	case 2:
		p.role, st.hasRole = roleText(raw), true
	case 4:
		p.sourceID = string(raw)
	case 5:
		st.reason = raw
	}
	return true
}

// llmEndField reads llm_end's content (0), usage (1) and stopReason (2):
// a stop reason that is not a string counts as absent.
func llmEndField(s *scanner, p *parsed, i int) bool {
	switch i {
	case 0:
		var ok bool
		p.text, ok = stringValue(s)
		return ok
	case 1:
		if s.null() {
			return true
		}
		p.hasUsage = true
		return usageValue(s, &p.usage, &p.measured)
	}
	raw, ok := rawValue(s)
	if ok && len(raw) > 0 && raw[0] == '"' {
		sub := scanner{b: raw}
		var r string
		if r, ok = stringValue(&sub); ok {
			p.stopReason = &r
		}
	}
	return ok
}
