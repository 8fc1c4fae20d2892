package evidence

// Shapes of a value.
const (
	ShapeNumber     = "number"
	ShapeIdentifier = "identifier"
)

// Library defaults (§2).
const (
	MinDigits   = 4      // a number needs at least this many digits
	TokenLimit  = 20000  // tokens of one text looked at
	FormLimit   = 200000 // distinct lookup forms one set holds
	ClipUnits   = 64     // an unsupported value in the event, in UTF-16 units
	ListedLimit = 12     // unsupported values the event lists
)

// Value is one candidate of a text: its normalized spelling and shape.
type Value struct {
	Value string `json:"value"`
	Shape string `json:"shape"`
}

// classify applies §2's rules, in order, to one normalized token.
func classify(tok string) (Value, bool) {
	if !hasDigit(tok) { // rule 1
		return Value{}, false
	}
	if isRatio(tok) { // rule 2
		return Value{}, false
	}
	if num, ok := shortTail(tok); ok { // rule 3: the number alone
		v := Normalize(num)
		if digitCount(v) >= MinDigits {
			return Value{v, ShapeNumber}, true
		}
		return Value{}, false
	}
	if isPlainNumber(tok) { // rule 4
		if digitCount(tok) >= MinDigits {
			return Value{tok, ShapeNumber}, true
		}
		return Value{}, false
	}
	if len(tok) < 4 { // rule 5 (tokens are ASCII: bytes are units)
		return Value{}, false
	}
	if !identifierish(tok) { // rule 6
		return Value{}, false
	}
	return Value{tok, ShapeIdentifier}, true // rule 7
}

// identifierish: an ASCII letter or one of : _ - / .
func identifierish(tok string) bool {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return true
		}
		switch c {
		case ':', '_', '-', '/', '.':
			return true
		}
	}
	return false
}

// Candidates are the values of text (§2): its first TokenLimit tokens,
// classified, de-duplicated by value with the first appearance kept.
func Candidates(text string) []Value {
	c := newCollector()
	if len(text) < 2*TokenLimit-1 {
		// fewer than TokenLimit tokens (each takes a byte and a separator
		// but the last): none is left out, and a piece without a digit
		// gives none of rule 1's values (normalizing makes no digit)
		eachPiece(text, func(piece string) bool {
			if hasDigit(piece) {
				if tok := Normalize(piece); tok != "" {
					c.add(tok)
				}
			}
			return true
		})
		return c.out
	}
	f := limitedTokens{take: func(_, tok string) { c.add(tok) }}
	f.text(text)
	return c.out
}

// collector de-duplicates values in order of first appearance.
type collector struct {
	seen map[string]bool
	out  []Value
}

func newCollector() *collector { return &collector{} }

func (c *collector) add(tok string) {
	v, ok := classify(tok)
	if !ok || c.seen[v.Value] {
		return
	}
	if c.seen == nil { // made with the first value: most texts have none
		c.seen = map[string]bool{}
	}
	c.seen[v.Value] = true
	c.out = append(c.out, v)
}

// JSONNumber reads an answer value that is a JSON member's number as the
// library's tokenizer leaves it, a colon then [-+]?\d+(\.\d+)? (§9.5:
// `"p99_ms":3727` gives `:3727`): ok when v is one, and num the number
// normalized and classified (§1, §2), its Shape "" when it is no value
// (fewer than MinDigits digits).
func JSONNumber(v string) (num Value, ok bool) {
	if len(v) < 2 || v[0] != ':' || !isPlainNumber(v[1:]) {
		return Value{}, false
	}
	n := Normalize(v[1:])
	if got, isValue := classify(n); isValue {
		return got, true
	}
	return Value{Value: n}, true
}
