package evidence

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// jsonStringify is JavaScript's JSON.stringify of a parsed value: no
// spaces, members in their (enumeration) order, numbers as JavaScript
// prints the double (a non-finite one as null), strings escaped as the
// well-formed stringify does (a lone surrogate as \uXXXX).
func jsonStringify(v *jsonValue) string {
	var b strings.Builder
	stringifyTo(&b, v)
	return b.String()
}

func stringifyTo(b *strings.Builder, v *jsonValue) {
	switch v.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		b.WriteString(v.str)
	case jNumber:
		if f, _ := strconv.ParseFloat(v.str, 64); math.IsInf(f, 0) {
			b.WriteString("null") // a literal past the largest double
			return
		}
		s, _ := jsNumberString(v.str)
		b.WriteString(s)
	case jString:
		quoteJS(b, v.str)
	case jArray, jObject:
		open, close := byte('['), byte(']')
		if v.kind == jObject {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			if v.kind == jObject {
				quoteJS(b, v.keys[i])
				b.WriteByte(':')
			}
			stringifyTo(b, e)
		}
		b.WriteByte(close)
	}
}

// quoteJS writes s as JSON.stringify quotes a string.
func quoteJS(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xF])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := model.DecodeRune(s[i:])
		if model.IsSurrogate(r) {
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>shift)&0xF])
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
