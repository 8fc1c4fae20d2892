package loader

import "bytes"

// fastDecoder reads the lines of the usual shape in one pass over their
// bytes, validating everything and decoding only what the builder uses.
// Each worker has its own.
type fastDecoder struct {
	lastRun string // the last meta.runId, reused while it repeats
}

// line decodes one event into p and reports whether it could; a line it
// cannot read goes to decodeReference, which is the definition.
func (f *fastDecoder) line(data []byte, at loc, p *parsed) bool {
	p.reset(at)
	s := scanner{b: data}
	if !s.eat('{') {
		return false
	}
	var payload []byte
	haveType, havePayload, haveMeta, decoded := false, false, false, false
	for first := true; s.more('}', &first); {
		k, ok := s.key()
		if !ok {
			return false
		}
		switch string(k) {
		case "type":
			raw, esc, ok := s.str()
			if haveType || !ok || esc || len(raw) == 0 {
				return false
			}
			haveType, p.kind = true, kindOf(raw)
		case "payload":
			if havePayload {
				return false
			}
			havePayload, decoded = true, haveType
			start := s.i
			if decoded && !f.payload(&s, p) || !decoded && !s.skip() {
				return false
			}
			payload = data[start:s.i]
		case "meta":
			if haveMeta || !f.meta(&s, p) {
				return false
			}
			haveMeta = true
		default:
			if foldsTo(k, "type", "payload", "meta") || !s.skip() {
				return false
			}
		}
	}
	if !s.end() || !haveType {
		return false
	}
	if p.kind == kindNone {
		p.runID = ""
		return true
	}
	if p.kind == kindEvidence || p.kind == kindRepeated {
		return false // rare events the reference decoder reads whole
	}
	switch {
	case decoded || !needsPayload(p.kind):
		return true
	case !havePayload:
		return false // "has no payload": the reference words it
	}
	sub := scanner{b: payload}
	return f.payload(&sub, p) && sub.end()
}

// needsPayload reports whether the builder reads the kind's payload.
func needsPayload(k kind) bool {
	return int(k) < len(payloadFields) && payloadFields[k] != nil
}

// meta reads meta.runId and skips the rest.
func (f *fastDecoder) meta(s *scanner, p *parsed) bool {
	if s.null() {
		return true
	}
	if !s.eat('{') {
		return false
	}
	seen := false
	for first := true; s.more('}', &first); {
		k, ok := s.key()
		if !ok {
			return false
		}
		if string(k) != "runId" {
			if foldsTo(k, "runId") || !s.skip() {
				return false
			}
			continue
		}
		if seen {
			return false
		}
		seen = true
		if s.null() {
			continue
		}
		raw, esc, ok := s.str()
		if !ok {
			return false
		}
		if esc || string(raw) != f.lastRun {
			f.lastRun = text(raw, esc)
		}
		p.runID = f.lastRun
	}
	return !s.broken()
}

// text is a string's decoded text, given what is between its quotes as
// the scanner checked it.
func text(raw []byte, escaped bool) string {
	if escaped {
		return unquote(raw)
	}
	return string(raw)
}

// payloadFields are the payload keys each kind reads, by field number.
var payloadFields = [...][]string{
	kindRunConfig:    {"window"},
	kindTurnStart:    {"userPrompt"},
	kindIterationEnd: {"history"},
	kindLLMStart:     {"iteration", "messagesCount"},
	kindLLMEnd:       {"content", "usage", "stopReason"},
	kindToolStart:    {"toolName", "toolCallId", "args"},
	kindToolEnd:      {"toolCallId", "result", "error"},
	kindInjected:     {"slot", "contentHash", "position", "rawContent", "contentSummary"},
	kindPressure:     {"unit", "cap"},
}

// fieldIndex is the number of key among names, -1 if it is none of them.
// members reads a JSON object of which only the fields names matter:
// read reads the value of field i (each at most once); other keys are
// skipped, and a key encoding/json would fold into one of names sends the
// line to the reference decoder. False is anything it does not accept.
func (s *scanner) members(names []string, read func(i int) bool) bool {
	if !s.eat('{') {
		return false
	}
	var seen uint8
	for first := true; s.more('}', &first); {
		k, ok := s.key()
		if !ok {
			return false
		}
		i := fieldIndex(k, names)
		if i < 0 {
			if foldsTo(k, names...) || !s.skip() {
				return false
			}
			continue
		}
		if seen&(1<<i) != 0 || !read(i) {
			return false
		}
		seen |= 1 << i
	}
	return !s.broken()
}

func fieldIndex(key []byte, names []string) int {
	for i, n := range names {
		if string(key) == n {
			return i
		}
	}
	return -1
}

// payloadState is what a payload held that is settled only at its end.
type payloadState struct {
	slotMessages, hashOK bool
	result, errField     []byte
	// a system-prompt record: its rawContent and contentSummary (JSON
	// string bodies, valid while the line is)
	slotSystem         bool
	raw, summary       []byte
	rawEsc, summaryEsc bool
}

// payload reads the payload object of the kinds the builder uses and
// skips the others'. A payload that is null or not an object, or a field
// of another type, goes to the reference decoder, which words the problem.
func (f *fastDecoder) payload(s *scanner, p *parsed) bool {
	if !needsPayload(p.kind) {
		return s.skip()
	}
	var st payloadState
	if !s.members(payloadFields[p.kind], func(i int) bool { return f.field(s, p, &st, i) }) {
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
			p.text = text(st.raw, st.rawEsc)
			if p.text == "" {
				p.text = text(st.summary, st.summaryEsc)
			}
		}
		if !st.slotMessages {
			return true
		}
		p.ok = st.hashOK // a bad hash is a problem the reference words
		return p.ok
	case kindToolEnd:
		p.text = toolContent(st.result, st.errField)
		p.ok = true
	case kindTurnStart, kindLLMStart, kindLLMEnd, kindToolStart:
		p.ok = true
	}
	return true
}

// field reads field i of the payload's kind (see payloadFields).
func (f *fastDecoder) field(s *scanner, p *parsed, st *payloadState, i int) bool {
	var ok bool
	switch p.kind {
	case kindRunConfig:
		if s.null() {
			return true
		}
		p.text, ok = stringValue(s)
		p.ok = ok
	case kindTurnStart:
		p.text, ok = stringValue(s)
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
		n := &p.iteration
		if i == 1 {
			n = &p.messagesCount
		}
		*n, ok = intValue(s)
	case kindLLMEnd:
		ok = llmEndField(s, p, i)
	case kindToolStart, kindToolEnd:
		ok = toolField(s, p, st, i)
	case kindInjected:
		ok = injectedField(s, p, st, i)
	case kindIterationEnd:
		ok = f.history(s, p)
	}
	return ok
}

func toolField(s *scanner, p *parsed, st *payloadState, i int) bool {
	var ok bool
	if p.kind == kindToolStart {
		switch i {
		case 0:
			p.toolName, ok = stringValue(s)
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
		st.result, ok = rawValue(s)
	default:
		st.errField, ok = rawValue(s)
	}
	return ok
}

func injectedField(s *scanner, p *parsed, st *payloadState, i int) bool {
	if i == 2 {
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
	if !ok {
		return false
	}
	switch i {
	case 3:
		p.frame = rawFrame(raw, esc)
		st.raw, st.rawEsc = raw, esc
		return true
	case 4:
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
	default:
		p.hash, st.hashOK = parseHash(raw)
	}
	return true
}

// rawFrame is a JSON string's text when it is a compaction frame, else "".
// Only a string whose first bytes hold the prefix or an escape is decoded:
// without an escape there, the bytes are the text.
func rawFrame(raw []byte, esc bool) string {
	n := min(len(raw), len(compactedBytes))
	if bytes.HasPrefix(raw, compactedBytes) || esc && bytes.IndexByte(raw[:n], '\\') >= 0 {
		if esc {
			return frameText(unquote(raw))
		}
		return string(raw)
	}
	return ""
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
		return usageValue(s, &p.usage)
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
