package evidence

// The library's §2 makes a number a value from MinDigits digits on; a
// summary's "p99 802 ms" is then no value, and its reading is never
// judged, while the "3617" beside it is. inspect judges such a number
// itself where it is plainly a reading — a number with a unit — and says
// that it goes beyond the library (docs/rules/flags.md §10.5). A single
// digit is no reading (every text holds one).

// FloorDigits is the fewest digits a number below the library's floor
// needs to be judged by inspect.
const FloorDigits = 2

// BelowFloor is the numbers of text that the library's §2 leaves out for
// having fewer than MinDigits digits (but at least FloorDigits) and that
// carry a unit: a short letter tail of §2 rule 3 (`504s`, `802ms`), or a
// next token of one to five letters that is no joining word (`802 ms`,
// not `32 to`); a number that a list or a range joins to such a one
// shares its unit (`809 and 992 ms`, `807, 882 ms`, `800 to 900 ms`). Of
// the text's first TokenLimit tokens, normalized, each number once, the
// first appearance kept; shape number.
func BelowFloor(text string) []Value {
	var toks []string
	eachToken(text, func(tok string) bool {
		toks = append(toks, tok)
		return len(toks) < TokenLimit
	})
	var out []Value
	seen := map[string]bool{}
	for k := range toks {
		num, ok := unitNumber(toks, k)
		if !ok {
			continue
		}
		v := Normalize(num)
		if n := digitCount(v); n < FloorDigits || n >= MinDigits || !isPlainNumber(v) || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, Value{v, ShapeNumber})
	}
	return out
}

// unitNumber is the number of token k of toks when it carries a unit
// (BelowFloor), and whether it does.
func unitNumber(toks []string, k int) (string, bool) {
	tok := toks[k]
	if !hasDigit(tok) || isRatio(tok) {
		return "", false
	}
	if num, tail := shortTail(tok); tail {
		return num, true
	}
	if !isPlainNumber(tok) {
		return "", false
	}
	// the unit after it, or after the list or range it starts
	for j := k + 1; j < len(toks); j++ {
		next := toks[j]
		switch {
		case unitWord(next):
			return tok, true
		case joins[next] || isPlainNumber(next):
			continue
		default:
			_, tail := shortTail(next)
			return tok, tail
		}
	}
	return "", false
}

// joins are the words that join numbers in a list or a range; nor they
// nor the other short words a sentence is made of are units.
var joins = map[string]bool{"and": true, "or": true, "to": true}

var notUnits = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "in": true, "at": true, "on": true, "by": true,
	"for": true, "from": true, "with": true, "is": true, "are": true, "was": true, "were": true,
	"be": true, "as": true, "than": true, "then": true, "but": true, "not": true, "no": true,
	"so": true, "it": true, "its": true, "this": true, "that": true, "via": true, "vs": true, "i": true,
	"we": true, "they": true, "up": true, "out": true, "over": true, "under": true, "after": true,
}

// unitWord: one to five ASCII letters (tokens are lower case) that are
// no joining word of a sentence.
func unitWord(tok string) bool {
	return len(tok) >= 1 && len(tok) <= 5 && lettersAt(tok, 0) == len(tok) && !joins[tok] && !notUnits[tok]
}

// FloorTyped maps each number of text (as BelowFloor reads them, any
// number of digits) to the piece it was first read from, as typed: `504s`
// for 504.
func FloorTyped(text string) map[string]string {
	out := map[string]string{}
	f := limitedTokens{take: func(piece, tok string) {
		num, tail := shortTail(tok)
		if !tail {
			if !isPlainNumber(tok) {
				return
			}
			num = tok
		}
		if v := Normalize(num); out[v] == "" {
			out[v] = typedPiece(piece)
		}
	}}
	f.text(text)
	return out
}
