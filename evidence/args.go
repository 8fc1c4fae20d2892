package evidence

// ArgValues are the values of one tool call's arguments (§6.2): the raw
// JSON is parsed and walked in JavaScript enumeration order; every string
// leaf gives its tokens and every number leaf its JavaScript print,
// normalized; keys, booleans and nulls give nothing. The first TokenLimit
// tokens go through §2, de-duplicated. Arguments that are not JSON give
// none.
func ArgValues(raw []byte) []Value {
	v, ok := parseJSON(jsTrim(string(raw)))
	if !ok {
		return nil
	}
	c := newCollector()
	n := 0
	var walk func(*jsonValue) bool
	take := func(tok string) bool {
		c.add(tok)
		n++
		return n < TokenLimit
	}
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
			eachToken(v.str, -1, func(tok string) bool {
				more = take(tok)
				return more
			})
			return more
		case jNumber:
			s, _ := jsNumberString(v.str)
			if tok := Normalize(s); tok != "" {
				return take(tok)
			}
		}
		return true
	}
	walk(v)
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
	var walk func(*jsonValue)
	walk = func(v *jsonValue) {
		switch v.kind {
		case jObject, jArray:
			for _, e := range v.elems {
				walk(e)
			}
		case jString:
			out = append(out, v.str)
		case jNumber:
			s, _ := jsNumberString(v.str)
			out = append(out, s)
		}
	}
	walk(v)
	return out
}
