package loader

import (
	"strconv"

	"github.com/afinspect/inspect/model"
)

// The values of the fields the fast decoder reads. Each accepts what
// encoding/json would put in the Go field without an error (null leaves
// the zero value) and fails on anything else.

// parseHash reads a contentHash as strconv.ParseUint(s, 16, 32) would.
func parseHash(raw []byte) (uint32, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range raw {
		d := hexDigit(c)
		if d < 0 {
			return 0, false
		}
		if v = v<<4 | uint64(d); v > 0xffffffff {
			return 0, false
		}
	}
	return uint32(v), true
}

// stringValue reads a string field: a string, or null for "".
func stringValue(s *scanner) (string, bool) {
	if s.null() {
		return "", true
	}
	raw, esc, ok := s.str()
	return text(raw, esc), ok
}

// intValue reads an int field: an integer, or null for 0.
func intValue(s *scanner) (int, bool) {
	if s.null() {
		return 0, true
	}
	return s.integer()
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

// usageValue reads llm_end usage {input, output}.
func usageValue(s *scanner, u *model.Usage) bool {
	if s.null() {
		return true
	}
	return s.members(usageFields, func(i int) bool {
		n := &u.Input
		if i == 1 {
			n = &u.Output
		}
		var ok bool
		*n, ok = intValue(s)
		return ok
	})
}

var usageFields = []string{"input", "output"}
