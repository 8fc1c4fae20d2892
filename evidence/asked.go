package evidence

// A Judger told ahead of time every value it will be asked about
// (NewJudgerFor) indexes each message only by the lookup forms of those
// values (§3's sets, restricted to what is looked up): a set then answers
// Has for an asked value exactly as the whole set would, for much less
// work, since most of a tool result's tokens are never asked about.
//
// Two things keep it exact. First, a restricted index counts the forms it
// meets, repeats included: at least the distinct forms the whole index
// would hold, so while that count stays below FormLimit the whole index
// would not have been truncated either, and where it reaches FormLimit
// the message is indexed whole (newPart, windowSets.update). Second,
// every value a Judger is asked about has a digit (§2 rule 1), and so has
// each of its lookup forms but the part after a 0x; normalizing never
// makes a digit (lower-casing, trimming, stripping punctuation and
// commas, printing a number that already has digits), so a piece of text
// without a digit holds no asked form and is counted, not normalized.

// askedForms are the lookup forms of the values a Judger is asked about.
type askedForms struct {
	forms map[string]struct{}
	// digits: every asked form holds an ASCII digit, so text without
	// one holds none of them
	digits bool
}

func newAskedForms(values []Value) *askedForms {
	a := &askedForms{forms: make(map[string]struct{}, len(values)), digits: true}
	for _, v := range values {
		for _, f := range LookupForms(v.Value) {
			a.forms[f] = struct{}{}
			a.digits = a.digits && hasDigit(f)
		}
	}
	return a
}

func (a *askedForms) has(f string) bool {
	_, ok := a.forms[f]
	return ok
}

// covers: every lookup form of the normalized value v is asked, so a
// restricted index answers Has(v) as the whole one would.
func (a *askedForms) covers(v string) bool {
	for _, f := range LookupForms(v) {
		if _, ok := a.forms[f]; !ok {
			return false
		}
	}
	return true
}

// none reports whether raw, text or a whole string, can hold no asked
// form: it has no digit while every asked form has one.
func (a *askedForms) none(raw string) bool { return a.digits && !hasDigit(raw) }

// newIndexFor is an empty set holding only the forms of only (all forms
// when only is nil).
func newIndexFor(only *askedForms) *Index {
	x := NewIndex()
	x.only = only
	return x
}

// bound is at least the number of distinct forms the whole index would
// hold (exactly that for a whole index).
func (x *Index) bound() int {
	if x.only != nil {
		return x.met
	}
	return len(x.forms)
}

// restricted reports whether x keeps only the asked forms.
func (x *Index) restricted() bool { return x.only != nil }

// addAsked adds the asked ones among the lookup forms of the normalized
// value v, counting every form met.
func (x *Index) addAsked(v string) {
	if v == "" {
		return
	}
	x.met++
	if _, ok := x.only.forms[v]; ok {
		x.forms[v] = struct{}{}
	}
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' { // LookupForms' second form
		x.met++
		if _, ok := x.only.forms[v[2:]]; ok {
			x.forms[v[2:]] = struct{}{}
		}
	}
}

// addTextAsked is AddText for a restricted index: the pieces of a run of
// token characters without a digit are only counted (a comma splits such
// a run wherever it is).
func (x *Index) addTextAsked(text string) {
	add := func(piece string) bool {
		if x.only.none(piece) {
			x.met++ // at most one form, which is not asked
		} else if v := Normalize(piece); v != "" {
			x.addAsked(Normalize(v))
		}
		return x.met < FormLimit
	}
	if !x.only.digits {
		eachPiece(text, add)
		return
	}
	for i := 0; i < len(text); {
		if byteClass[text[i]]&classToken == 0 {
			i++
			continue
		}
		start, seen, commas := i, uint8(0), 0
		for ; i < len(text) && byteClass[text[i]]&classToken != 0; i++ {
			c := byteClass[text[i]]
			seen |= c
			if c&classComma != 0 {
				commas++
			}
		}
		if seen&classDigit == 0 {
			x.met += commas + 1
		} else {
			splitCommas(text[start:i], add)
		}
		if x.met >= FormLimit {
			return
		}
	}
}

// byteClass is what each byte is to the tokenizer (tokenByte, isDigit).
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		if tokenByte(byte(c)) {
			t[c] |= classToken
		}
		if isDigit(byte(c)) {
			t[c] |= classDigit
		}
		if c == ',' {
			t[c] |= classComma
		}
	}
	return t
}()

const (
	classToken = 1 << iota
	classDigit
	classComma
)
