package loader

import (
	"bytes"
	"math"
	"strconv"

	"github.com/afinspect/inspect/model"
)

// The values of the fields the fast decoder reads. Each accepts what
// encoding/json would put in the Go field without an error (null leaves
// the zero value) and fails on anything else.

// roleText is a role as a string, the usual ones without allocating.
func roleText(raw []byte) string {
	for _, r := range [...]string{model.RoleUser, model.RoleAssistant, model.RoleTool, model.RoleSystem} {
		if string(raw) == r {
			return r
		}
	}
	return string(raw)
}

// historyReason starts the context.injected reason of a message the
// window already held; any other reason is a delivery (§10.6).
const historyReason = "conversation history"

// finishInjected settles a context.injected of slot messages: a window
// message is known when it has a role and content.
func finishInjected(p *parsed, hasRole bool, reason []byte) {
	p.ok = true
	p.hasContent = p.hasContent && hasRole
	p.delivered = !bytes.HasPrefix(reason, []byte(historyReason))
}

// finalText is turn_end finalContent, when it is a string.
func finalText(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return unquote(raw[1 : len(raw)-1]), true
}

// stringValue reads a string field: a string, or null for "".
func stringValue(s *scanner) (string, bool) {
	if s.null() {
		return "", true
	}
	raw, esc, ok := s.str()
	return text(raw, esc), ok
}

// strictString reads a string field that must be one: null goes to the
// reference decoder, which says so.
func strictString(s *scanner) (string, bool) {
	if s.null() {
		return "", false
	}
	raw, esc, ok := s.str()
	return text(raw, esc), ok
}

// missing reports whether a raw value is absent or null.
func missing(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// intValue reads an int field: an integer, or null for 0.
func intValue(s *scanner) (int, bool) {
	if s.null() {
		return 0, true
	}
	return s.integer()
}

// countOf is a JSON value read as a count: a whole number from 0, and
// whether it is one (an absent value, or one that is not a count, is
// not). A count that does not fit is no reason to lose its event.
func countOf(raw []byte) (int, bool) {
	if len(raw) == 0 { // absent: no parse, whose error would be an allocation
		return 0, false
	}
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil || v < 0 || v != math.Trunc(v) || v > 1<<31 {
		return 0, false
	}
	return int(v), true
}

// floatValue reads a float64 field: a number in range, or null for 0.
func floatValue(s *scanner) (float64, bool) {
	if s.null() {
		return 0, true
	}
	num, ok := s.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(num), 64)
	return v, err == nil
}

// rawValue reads any value as its JSON text.
func rawValue(s *scanner) ([]byte, bool) {
	s.ws()
	start := s.i
	ok := s.skip()
	return s.b[start:s.i], ok
}

// usageValue reads llm_end usage {input, output}; measured says both
// were numbers, which makes the usage a reading (§7).
func usageValue(s *scanner, u *model.Usage, measured *bool) bool {
	if s.null() {
		return true
	}
	var number [2]bool
	ok := s.members(shapeUsage, usageFields, func(i int) bool {
		n := &u.Input
		if i == 1 {
			n = &u.Output
		}
		s.ws()
		number[i] = s.peek() != 'n'
		var ok bool
		*n, ok = intValue(s)
		return ok
	})
	*measured = number[0] && number[1]
	return ok
}

var usageFields = []string{"input", "output"}
