package loader

import (
	"encoding/json"
	"fmt"
	"math"
)

// refString reads a string field of p's payload into dst. Absent is the
// empty string; null is that too, said as a problem; any other type is a
// problem and the event is not used (false), as encoding/json would
// refuse it.
func refString(p *parsed, field string, raw json.RawMessage, dst *string) bool {
	switch {
	case len(raw) == 0:
		return true
	case string(raw) == "null":
		p.problem(fmt.Sprintf("%s %s is null; read as empty", p.kind.name(), field))
		return true
	}
	if err := unmarshal(raw, dst); err != nil {
		p.problem(fmt.Sprintf("%s payload: %q is a JSON %s, not a string; the event is not used", p.kind.name(), field, jsonType(raw)))
		return false
	}
	return true
}

// refCount reads a count field (iteration, messagesCount) into dst: a
// number that is not whole is read as its whole part and said, so that
// the call is kept; anything but a number is a problem and the event is
// not used (false), as encoding/json would refuse it.
func refCount(p *parsed, field string, raw json.RawMessage, dst *int) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var f float64
	if err := unmarshal(raw, &f); err != nil {
		if jsonType(raw) == "number" {
			// too large for any count (a double's range): the call is
			// kept, without it
			p.problem(fmt.Sprintf("%s %s is the JSON number %s, beyond any count; read as not given", p.kind.name(), field, clipLiteral(raw)))
			return true
		}
		p.problem(fmt.Sprintf("%s payload: %q is a JSON %s, not a number; the event is not used", p.kind.name(), field, jsonType(raw)))
		return false
	}
	*dst = int(max(min(math.Trunc(f), 1<<53), -(1 << 53)))
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		p.problem(fmt.Sprintf("%s %s %s is not a whole number; read as %d", p.kind.name(), field, raw, *dst))
	}
	return true
}

// jsonType names the JSON type of a value, as encoding/json's errors do.
func jsonType(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// clipLiteral is a number's text, its middle left out when long.
func clipLiteral(raw json.RawMessage) string {
	if len(raw) <= 24 {
		return string(raw)
	}
	return fmt.Sprintf("%s… (%d digits)", raw[:12], len(raw))
}
