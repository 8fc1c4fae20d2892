package loader

// fastDecoder reads the lines of the usual shape in one pass over their
// bytes, validating everything and decoding only what the builder uses.
// Each worker has its own.
type fastDecoder struct {
	lastRun, lastComp, lastSub string // the last meta values, reused while they repeat
	lastType                   string // the last event type, and its kind
	lastKind                   kind
	scratch                    []byte
	seen                       seenStrings
	keys                       keyMemo
	elems                      elemMemo
	histLen                    int // how many messages the last history held
}

// line decodes one event into p and reports whether it could; a line it
// cannot read goes to decodeReference, which is the definition.
func (f *fastDecoder) line(data []byte, at loc, p *parsed) bool {
	_, ok := f.read(data, at, p, false)
	return ok
}

// lineIn is line for the line data begins with, data running on past it
// (the rest of a block): it also says where the line ends, at its
// newline or at the end of data. The line's end is found by reading the
// line, not by a search before it. False is a line it cannot read, or
// whose event does not end the line: line, given the line, is the
// definition.
func (f *fastDecoder) lineIn(data []byte, at loc, p *parsed) (end int, ok bool) {
	return f.read(data, at, p, true)
}

// read is line, or lineIn when nl is set.
func (f *fastDecoder) read(data []byte, at loc, p *parsed, nl bool) (int, bool) {
	p.reset(at)
	s := scanner{b: data, seen: &f.seen, keys: &f.keys, nl: nl}
	ok := f.event(&s, p)
	return s.i, ok
}

// event decodes the event s is at into p.
func (f *fastDecoder) event(s *scanner, p *parsed) bool {
	data := s.b
	if !s.eat('{') {
		return false
	}
	var payload []byte
	haveType, havePayload, haveMeta, decoded := false, false, false, false
	for first, pos := true, 0; s.more('}', &first); pos++ {
		i, ok := s.keys.known(s, shapeEvent, pos)
		if !ok {
			s.ws()
			q := s.i
			var k []byte
			if k, i, ok = s.fieldKey(eventFields); !ok {
				return false
			}
			if s.i-q == len(k)+3 {
				s.keys.learn(s.b[q:s.i], shapeEvent, pos, i)
			}
		}
		switch i {
		case 0:
			raw, esc, ok := s.str()
			if haveType || !ok || esc || len(raw) == 0 {
				return false
			}
			haveType, p.kind = true, f.kindOf(raw)
		case 1:
			if havePayload {
				return false
			}
			havePayload, decoded = true, haveType
			start := s.i
			if decoded && !f.payload(s, p) || !decoded && !s.skip() {
				return false
			}
			payload = data[start:s.i]
		case 2:
			if haveMeta || !f.meta(s, p) {
				return false
			}
			haveMeta = true
		default:
			if !s.skip() {
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
	sub := scanner{b: payload, seen: &f.seen, keys: &f.keys}
	return f.payload(&sub, p) && sub.end()
}

// eventFields are the keys of an event the decoder reads, by number.
var eventFields = []string{"type", "payload", "meta"}

// kindOf is kindOf(typ), found with one compare when typ is the type
// of the last event (a run of injections, of tool calls). Only the named
// types are remembered, by their name: no copy of a line's text.
func (f *fastDecoder) kindOf(typ []byte) kind {
	if f.lastType != "" && string(typ) == f.lastType {
		return f.lastKind
	}
	k := kindOf(typ)
	if int(k) < len(kindNames) {
		f.lastType, f.lastKind = kindNames[k], k
	}
	return k
}

// needsPayload reports whether the builder reads the kind's payload.
func needsPayload(k kind) bool {
	return int(k) < len(payloadFields) && payloadFields[k] != nil
}

// metaFields are the meta keys the builder reads.
var metaFields = []string{"runId", "compositionPath", "subflowPath"}

// meta reads meta.runId, compositionPath and subflowPath, and skips the rest.
func (f *fastDecoder) meta(s *scanner, p *parsed) bool {
	if s.null() {
		return true
	}
	return s.members(shapeMeta, metaFields, func(i int) bool {
		switch i {
		case 1:
			return f.path(s, &p.comp, &f.lastComp)
		case 2:
			return f.path(s, &p.sub, &f.lastSub)
		}
		if s.null() {
			return true
		}
		raw, esc, ok := s.str()
		if !ok {
			return false
		}
		if esc || string(raw) != f.lastRun {
			f.lastRun = text(raw, esc)
		}
		p.runID, p.hasRunID = f.lastRun, true
		return true
	})
}

// path reads an array of strings as an encoded path (path.go). The text
// is reused while it repeats. An entry that is not a string goes to the
// reference decoder.
func (f *fastDecoder) path(s *scanner, out *string, last *string) bool {
	if s.null() {
		return true
	}
	if !s.eat('[') {
		return false
	}
	buf := f.scratch[:0]
	for more := true; s.more(']', &more); {
		raw, esc, ok := s.str()
		if !ok {
			return false
		}
		if esc {
			buf = appendEntry(buf, []byte(unquote(raw)))
		} else {
			buf = appendEntry(buf, raw)
		}
	}
	f.scratch = buf
	if string(buf) != *last {
		*last = string(buf)
	}
	*out = *last
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

// members reads a JSON object of which only the fields names matter:
// read reads the value of field i (each at most once); other keys are
// skipped, and a key encoding/json would fold into one of names sends the
// line to the reference decoder. False is anything it does not accept.
// sh names the kind of object, whose keys the scanner's memo remembers.
func (s *scanner) members(sh shape, names []string, read func(i int) bool) bool {
	if !s.eat('{') {
		return false
	}
	var seen uint8
	pos := 0
	for first := true; s.more('}', &first); pos++ {
		i, ok := s.keys.known(s, sh, pos)
		if !ok {
			s.ws()
			q := s.i
			var k []byte
			if k, i, ok = s.fieldKey(names); !ok {
				return false
			}
			if s.i-q == len(k)+3 { // '"', the key, '"', ':' and no space between
				s.keys.learn(s.b[q:s.i], sh, pos, i)
			}
		}
		if i < 0 {
			if !s.skip() {
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

// fieldKey consumes a key and its colon and returns it and its number
// among names, -1 for another key; false for a key the fast path does
// not read (see key) or one encoding/json would fold into one of names.
func (s *scanner) fieldKey(names []string) ([]byte, int, bool) {
	k, ok := s.key()
	if !ok {
		return nil, 0, false
	}
	i := fieldIndex(k, names)
	if i < 0 && foldsTo(k, names...) {
		return nil, 0, false
	}
	return k, i, true
}

// fieldIndex is the number of key among names, -1 if it is none of them.
func fieldIndex(key []byte, names []string) int {
	for i, n := range names {
		if string(key) == n {
			return i
		}
	}
	return -1
}
