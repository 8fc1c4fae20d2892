package evidence

// ArgValues are the values of one tool call's arguments (§6.2): the raw
// JSON is parsed and walked in JavaScript enumeration order; every string
// leaf gives its tokens and every number leaf its JavaScript print,
// normalized; keys, booleans and nulls give nothing. The first TokenLimit
// tokens go through §2, de-duplicated. Arguments that are not JSON give
// none.
func ArgValues(raw []byte) []Value {
	c := newCollector()
	f := limitedTokens{take: func(_, tok string) { c.add(tok) }}
	f.args(raw)
	return c.out
}

// ArgLeaves are the string and number leaves of a tool call's arguments as
// the model wrote them (strings as they are, numbers as JavaScript prints
// them), in order, for a one-line summary; none when they are not JSON.
func ArgLeaves(raw []byte) []string {
	v, ok := parseJSON(jsTrim(string(raw)))
	if !ok {
		return nil
	}
	var out []string
	eachLeaf(v, func(l *jsonValue) bool {
		s := l.str
		if l.kind == jNumber {
			s, _ = jsNumberString(l.str)
		}
		out = append(out, s)
		return true
	})
	return out
}

// eachLeaf calls leaf with each string and number leaf of v, in
// enumeration order, until leaf returns false; it reports whether it
// went to the end.
func eachLeaf(v *jsonValue, leaf func(*jsonValue) bool) bool {
	switch v.kind {
	case jObject, jArray:
		for _, e := range v.elems {
			if !eachLeaf(e, leaf) {
				return false
			}
		}
	case jString, jNumber:
		return leaf(v)
	}
	return true
}

// limitedTokens hands take the first TokenLimit tokens of a text, or of a
// tool call's arguments, each with the piece of text it was read from.
type limitedTokens struct {
	take func(piece, tok string)
	n    int
}

// token hands over tok (none when empty); false once TokenLimit were.
func (f *limitedTokens) token(piece, tok string) bool {
	if tok == "" {
		return true
	}
	f.take(piece, tok)
	f.n++
	return f.n < TokenLimit
}

// text hands over text's tokens; false once TokenLimit were.
func (f *limitedTokens) text(text string) bool {
	more := true
	eachPiece(text, func(piece string) bool {
		more = f.token(piece, Normalize(piece))
		return more
	})
	return more
}

// args hands over the tokens of a tool call's arguments (ArgValues): a
// string leaf's pieces, a number leaf's literal with its JavaScript
// print normalized.
func (f *limitedTokens) args(raw []byte) {
	v, ok := parseJSON(jsTrim(string(raw)))
	if !ok {
		return
	}
	eachLeaf(v, func(l *jsonValue) bool {
		if l.kind == jString {
			return f.text(l.str)
		}
		s, _ := jsNumberString(l.str)
		return f.token(l.str, Normalize(s))
	})
}
