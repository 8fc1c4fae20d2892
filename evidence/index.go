package evidence

// Index is one of §3's sets (evidence or exempt): distinct lookup forms,
// added in order, at most FormLimit of them.
type Index struct {
	forms map[string]struct{}
	only  *askedForms // nil: every form is kept; else only these (asked.go)
	met   int         // with only: the forms met, repeats counted
	loose bool        // with only: met bounds text without a digit by its length
	// order, when kept (ordered), is the forms in the order first added
	order   []string
	ordered bool
}

// NewIndex is an empty set.
func NewIndex() *Index { return &Index{} }

// add files form f (the map is made with the first: most restricted
// indexes hold none).
func (x *Index) add(f string) {
	if x.forms == nil {
		x.forms = map[string]struct{}{}
	}
	if _, ok := x.forms[f]; ok {
		return // most of a text's tokens are repeats
	}
	x.forms[f] = struct{}{}
	if x.ordered {
		x.order = append(x.order, f)
	}
}

// Truncated reports whether the set reached FormLimit (also when that
// happened to be every form).
// A restricted index (asked.go) is truncated when it met FormLimit forms:
// it is then no longer known to be exact.
func (x *Index) Truncated() bool {
	if x.only != nil {
		return x.met >= FormLimit
	}
	return len(x.forms) >= FormLimit
}

// list is the forms held, in no order.
func (x *Index) list() []string {
	out := make([]string, 0, len(x.forms))
	for f := range x.forms {
		out = append(out, f)
	}
	return out
}

// Len is the number of forms held.
func (x *Index) Len() int { return len(x.forms) }

// Has reports whether any lookup form of the normalized value v is held.
func (x *Index) Has(v string) bool {
	if x == nil {
		return false
	}
	for _, f := range LookupForms(v) {
		if _, ok := x.forms[f]; ok {
			return true
		}
	}
	return false
}

// addNormalized adds the lookup forms of an already normalized value.
func (x *Index) addNormalized(v string) {
	if x.only != nil {
		x.addAsked(v)
		return
	}
	if v == "" {
		return
	}
	for _, f := range LookupForms(v) {
		if len(x.forms) >= FormLimit {
			return
		}
		x.add(f)
	}
}

// AddWhole adds a whole string (a JSON key or string leaf), normalized
// exactly once.
func (x *Index) AddWhole(raw string) {
	if x.only != nil && x.only.none(raw) {
		x.met++
		return
	}
	x.addNormalized(Normalize(raw))
}

// AddText adds the tokens of text (each normalized a second time, which
// changes nothing for a token).
func (x *Index) AddText(text string) {
	if x.Truncated() {
		return
	}
	if x.only != nil {
		x.addTextAsked(text)
		return
	}
	// a long text says the same words again and again: a piece met
	// before in it added its forms then (what it adds is a function of
	// the piece), so it is not normalized and looked up a second time;
	// the last piece met in each of 64 slots is compared before the map
	var met map[string]struct{}
	var last [64]string
	if len(text) >= memoText {
		met = map[string]struct{}{}
	}
	eachPiece(text, func(piece string) bool {
		if met != nil && piece != "" {
			slot := (len(piece)*31 + int(piece[0])*7 + int(piece[len(piece)-1])) & 63
			if last[slot] == piece {
				return true
			}
			last[slot] = piece
			if _, ok := met[piece]; ok {
				return true
			}
			met[piece] = struct{}{}
		}
		if tok := Normalize(piece); tok != "" { // as eachToken
			x.addNormalized(Normalize(tok))
			return !x.Truncated()
		}
		return true
	})
}

// memoText is the length from which AddText remembers the pieces it met.
const memoText = 512

// AddToolResult indexes one tool message's content as the library does
// (§3): a trimmed content starting with { or [ that JSON.parse accepts is
// walked (absence frames at the top level only); anything else is text.
func (x *Index) AddToolResult(content string) {
	if x.Truncated() {
		return
	}
	if len(content) >= cachedResult {
		if x.only == nil {
			x.addCachedResult(content)
			return
		}
		if formsOf(content).full != nil {
			// a restricted index meets at least the distinct forms the
			// whole one holds: this one would reach FormLimit too, and be
			// indexed whole instead (newPart), so it is not walked
			x.met = max(x.met, FormLimit)
			return
		}
	}
	x.addToolResult(content)
}

func (x *Index) addToolResult(content string) {
	if v, ok := parseResult(content); ok {
		x.walk(absenceView(v))
		return
	}
	x.AddText(content)
}

// parseResult is a tool result parsed as the library parses it (§3): a
// trimmed content starting with { or [ that JSON.parse accepts.
func parseResult(content string) (*jsonValue, bool) {
	t := jsTrim(content)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		return parseJSON(t)
	}
	return nil, false
}

// absenceView is what of a parsed result is indexed: for an absence
// frame only [checked, not_checked, cannot_cover]; for a coverage ledger
// around one, [af_coverage, checked, not_checked, cannot_cover]; else the
// whole value.
func absenceView(v *jsonValue) *jsonValue {
	if lists, ok := absenceLists(v); ok {
		return &jsonValue{kind: jArray, elems: lists}
	}
	if v.kind != jObject {
		return v
	}
	cov, res := v.member("af_coverage"), v.member("result")
	if cov == nil || cov.kind != jObject || res == nil {
		return v
	}
	if lists, ok := absenceLists(res); ok {
		return &jsonValue{kind: jArray, elems: append([]*jsonValue{cov}, lists...)}
	}
	return v
}

// absenceLists: an object whose af_absent is true and whose checked is a
// non-empty array gives its three lists (missing or null: empty).
func absenceLists(v *jsonValue) ([]*jsonValue, bool) {
	if v.kind != jObject {
		return nil, false
	}
	a, c := v.member("af_absent"), v.member("checked")
	if a == nil || a.kind != jBool || a.str != "true" || c == nil || c.kind != jArray || len(c.elems) == 0 {
		return nil, false
	}
	out := []*jsonValue{c}
	for _, k := range []string{"not_checked", "cannot_cover"} {
		m := v.member(k)
		if m == nil || m.kind == jNull {
			m = &jsonValue{kind: jArray}
		}
		out = append(out, m)
	}
	return out, true
}

// walk adds a parsed value: keys whole, strings whole and as tokens,
// numbers as JavaScript prints them, booleans as words.
func (x *Index) walk(v *jsonValue) {
	if x.Truncated() {
		return
	}
	switch v.kind {
	case jObject:
		for i, k := range v.keys {
			x.AddWhole(k)
			x.walk(v.elems[i])
		}
	case jArray:
		for _, e := range v.elems {
			x.walk(e)
		}
	case jString:
		x.AddWhole(v.str)
		x.AddText(v.str)
	case jNumber:
		s, _ := jsNumberString(v.str)
		x.AddWhole(s)
	case jBool:
		x.AddWhole(v.str)
	}
}
