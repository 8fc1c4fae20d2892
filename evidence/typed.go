package evidence

import "strings"

// Values are compared normalized (§1: lower-cased, punctuation trimmed,
// numbers reprinted); a reader wants to see them as the model typed them.

// Typed maps each value of text (Candidates) to the piece of text it was
// first read from, as typed but for the sentence's punctuation after it:
// `WEB-3E6F14` for web-3e6f14, `41200IOPS` for 41200, `$1,250/month`
// for 1,250/month.
func Typed(text string) map[string]string {
	out := map[string]string{}
	n := 0
	eachPiece(text, func(piece string) bool {
		tok := Normalize(piece)
		if tok == "" {
			return true
		}
		n++
		if v, ok := classify(tok); ok {
			if _, seen := out[v.Value]; !seen {
				out[v.Value] = typedPiece(piece)
			}
		}
		return n < TokenLimit
	})
	return out
}

// typedPiece is a piece without the full stops, commas and colons that
// end it (a sentence's, not the value's).
func typedPiece(piece string) string {
	return strings.TrimRight(piece, ".,:")
}

// ArgTyped is Typed for one tool call's arguments (ArgValues): a string
// leaf's pieces as typed, a number leaf as its literal.
func ArgTyped(raw []byte) map[string]string {
	out := map[string]string{}
	v, ok := parseJSON(jsTrim(string(raw)))
	if !ok {
		return out
	}
	n := 0
	take := func(piece string, tok string) bool {
		if tok == "" {
			return true
		}
		n++
		if v, ok := classify(tok); ok {
			if _, seen := out[v.Value]; !seen {
				out[v.Value] = typedPiece(piece)
			}
		}
		return n < TokenLimit
	}
	var walk func(*jsonValue) bool
	walk = func(v *jsonValue) bool {
		switch v.kind {
		case jObject, jArray:
			for _, e := range v.elems {
				if !walk(e) {
					return false
				}
			}
		case jString:
			more := true
			eachPiece(v.str, func(piece string) bool {
				more = take(piece, Normalize(piece))
				return more
			})
			return more
		case jNumber:
			s, _ := jsNumberString(v.str)
			return take(v.str, Normalize(s))
		}
		return true
	}
	walk(v)
	return out
}
