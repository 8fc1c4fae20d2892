package evidence

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/afinspect/inspect/internal/jsonlex"
	"github.com/afinspect/inspect/model"
)

// jsonKind is the type of a parsed JSON value.
type jsonKind uint8

const (
	jNull jsonKind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// jsonValue is a value as JavaScript's JSON.parse leaves it: an object's
// members in JavaScript's enumeration order (integer-like keys first,
// ascending, then the others in the order they first appeared; a repeated
// key keeps its first place and its last value).
type jsonValue struct {
	kind  jsonKind
	str   string // string value, number literal, or "true"/"false"
	elems []*jsonValue
	keys  []string
}

func (v *jsonValue) member(key string) *jsonValue {
	for i, k := range v.keys {
		if k == key {
			return v.elems[i]
		}
	}
	return nil
}

// maxDepth bounds nesting so a hostile result cannot exhaust the stack;
// deeper text is read as text.
const maxDepth = 10000

// parseJSON is JSON.parse, strict: no NaN or Infinity, comments, trailing
// commas, leading zeros, or anything after the value but JSON whitespace.
func parseJSON(s string) (*jsonValue, bool) {
	p := &jsonParser{s: s}
	p.space()
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(s)
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) space() { p.i = jsonlex.Space(p.s, p.i) }

func (p *jsonParser) value(depth int) (*jsonValue, bool) {
	if p.i >= len(p.s) || depth > maxDepth {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		return &jsonValue{kind: jString, str: s}, ok
	case c == '-' || isDigit(c):
		return p.number()
	}
	for _, lit := range [...]struct {
		word string
		kind jsonKind
	}{{"true", jBool}, {"false", jBool}, {"null", jNull}} {
		if strings.HasPrefix(p.s[p.i:], lit.word) {
			p.i += len(lit.word)
			return &jsonValue{kind: lit.kind, str: lit.word}, true
		}
	}
	return nil, false
}

func (p *jsonParser) object(depth int) (*jsonValue, bool) {
	v := &jsonValue{kind: jObject}
	at := map[string]int{}
	ok := p.members('}', func() bool {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		k, ok := p.str()
		if !ok {
			return false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		e, ok := p.value(depth + 1)
		if !ok {
			return false
		}
		if j, dup := at[k]; dup {
			v.elems[j] = e
		} else {
			at[k] = len(v.keys)
			v.keys = append(v.keys, k)
			v.elems = append(v.elems, e)
		}
		return true
	})
	if !ok {
		return nil, false
	}
	enumerationOrder(v)
	return v, true
}

// enumerationOrder moves integer-like keys (array indices: canonical
// decimal integers below 2^32-1) to the front, ascending, as JavaScript
// enumerates an object's own keys.
func enumerationOrder(v *jsonValue) {
	anyIndex := false
	for _, k := range v.keys {
		if _, ok := arrayIndex(k); ok {
			anyIndex = true
			break
		}
	}
	if !anyIndex {
		return
	}
	idx := make([]int, len(v.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		na, oka := arrayIndex(v.keys[idx[a]])
		nb, okb := arrayIndex(v.keys[idx[b]])
		if oka && okb {
			return na < nb
		}
		return oka && !okb
	})
	keys := make([]string, len(idx))
	elems := make([]*jsonValue, len(idx))
	for i, j := range idx {
		keys[i], elems[i] = v.keys[j], v.elems[j]
	}
	v.keys, v.elems = keys, elems
}

func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var n uint64 // by hand: a key that is no number is the common case, and strconv's error for it allocates
	for i := 0; i < len(k); i++ {
		if !isDigit(k[i]) {
			return 0, false
		}
		n = n*10 + uint64(k[i]-'0')
	}
	return n, n < 1<<32-1
}

func (p *jsonParser) array(depth int) (*jsonValue, bool) {
	v := &jsonValue{kind: jArray}
	ok := p.members(']', func() bool {
		e, ok := p.value(depth + 1)
		v.elems = append(v.elems, e)
		return ok
	})
	if !ok {
		return nil, false
	}
	return v, true
}

// members reads the members of the array or object whose opening
// bracket is at p.i, each by member (called at its first byte past any
// space), separated by commas, through close.
func (p *jsonParser) members(close byte, member func() bool) bool {
	p.i++ // [ or {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == close {
		p.i++
		return true
	}
	for {
		p.space()
		if !member() {
			return false
		}
		p.space()
		switch {
		case p.i >= len(p.s):
			return false
		case p.s[p.i] == close:
			p.i++
			return true
		case p.s[p.i] != ',':
			return false
		}
		p.i++
	}
}

// number reads a JSON number and keeps the literal.
func (p *jsonParser) number() (*jsonValue, bool) {
	i, ok := jsonlex.Number(p.s, p.i)
	if !ok {
		return nil, false
	}
	v := &jsonValue{kind: jNumber, str: p.s[p.i:i]}
	p.i = i
	return v, true
}

// str reads a JSON string: no raw control characters, only the standard
// escapes. A lone surrogate escape is kept as that UTF-16 unit, in WTF-8
// (model.DecodeRune), as the loader keeps one in a message; it can never
// be part of an ASCII token either way.
func (p *jsonParser) str() (string, bool) {
	p.i++ // "
	var b strings.Builder
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			b.WriteString(p.s[start:p.i])
			p.i++
			return b.String(), true
		case c < 0x20:
			return "", false
		case c == '\\':
			b.WriteString(p.s[start:p.i])
			if !p.escape(&b) {
				return "", false
			}
			start = p.i
		default:
			p.i++
		}
	}
	return "", false
}

func (p *jsonParser) escape(b *strings.Builder) bool {
	if p.i+1 >= len(p.s) {
		return false
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return false
		}
		if utf16.IsSurrogate(r) && r < 0xDC00 && strings.HasPrefix(p.s[p.i:], `\u`) {
			save := p.i
			p.i += 2
			if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				b.WriteRune(utf16.DecodeRune(r, r2))
				return true
			}
			p.i = save
		}
		if utf16.IsSurrogate(r) {
			b.Write(model.AppendSurrogate(nil, r))
			return true
		}
		b.WriteRune(r)
	default:
		return false
	}
	return true
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}
