package evidence

import (
	"encoding/binary"
	"math/bits"
)

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
	// first: the first atom of each form (inviewtext.go), made when
	// first needed
	first map[string]struct{}
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
// when only is nil); loose, it bounds the forms of text without a digit
// by its length instead of counting its pieces (addTextLoose).
func newIndexFor(only *askedForms, loose bool) *Index {
	x := NewIndex()
	x.only, x.loose = only, loose && only != nil
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

// addAsked adds the asked ones among the lookup forms of the normalized
// value v, counting every form met.
func (x *Index) addAsked(v string) {
	if v == "" {
		return
	}
	x.met++
	if _, ok := x.only.forms[v]; ok {
		x.add(v)
	}
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' { // LookupForms' second form
		x.met++
		if _, ok := x.only.forms[v[2:]]; ok {
			x.add(v[2:])
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
	switch {
	case !x.only.digits:
		eachPiece(text, add)
		return
	case x.loose:
		x.addTextLoose(text, add)
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

// addTextLoose finds the runs of token characters that hold a digit,
// eight bytes at a time, and cuts those into pieces (add); the text
// between them, which holds no asked form, is only bounded: its pieces
// are separated by at least one byte, so it has at most half its length
// of them, rounded up.
func (x *Index) addTextLoose(text string, add func(string) bool) {
	done := 0 // text[:done] is counted
	for done < len(text) {
		d := indexDigit(text[done:])
		if d < 0 {
			x.met += (len(text) - done + 1) / 2
			return
		}
		start, end := done+d, done+d+1
		for start > done && byteClass[text[start-1]]&classToken != 0 {
			start--
		}
		for end < len(text) && byteClass[text[end]]&classToken != 0 {
			end++
		}
		x.met += (start - done + 1) / 2
		if !splitCommas(text[start:end], add) {
			return
		}
		done = end
	}
}

// indexDigit is the index of the first ASCII digit of s, or -1.
func indexDigit(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		y := x &^ highs // each byte below 0x80: the sums below do not carry
		// top bit: the byte is at least '0', at least ':', at least 0x80
		if d := (y + ones*(0x80-'0')) &^ (y + ones*(0x80-':')) &^ x & highs; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for ; i < len(s); i++ {
		if isDigit(s[i]) {
			return i
		}
	}
	return -1
}
