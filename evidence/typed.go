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
	f := limitedTokens{take: typedInto(out)}
	f.text(text)
	return out
}

// ArgTyped is Typed for one tool call's arguments (ArgValues): a string
// leaf's pieces as typed, a number leaf as its literal.
func ArgTyped(raw []byte) map[string]string {
	out := map[string]string{}
	f := limitedTokens{take: typedInto(out)}
	f.args(raw)
	return out
}

// typedInto files in out the piece each value was first read from.
func typedInto(out map[string]string) func(piece, tok string) {
	return func(piece, tok string) {
		if v, ok := classify(tok); ok {
			if _, seen := out[v.Value]; !seen {
				out[v.Value] = typedPiece(piece)
			}
		}
	}
}

// typedPiece is a piece without the full stops, commas and colons that
// end it (a sentence's, not the value's).
func typedPiece(piece string) string {
	return strings.TrimRight(piece, ".,:")
}
