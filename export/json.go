package export

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// jsonOut writes the pieces of a call (encodeCall) as encoding/json
// writes them without HTML escaping, by hand: the same bytes, without
// reflection. It writes only what it is sure of: a string that is not
// UTF-8 (a lone surrogate, say, which withSurrogates writes as the
// library would), a number encoding/json refuses, or raw JSON that does
// not compact sets bad, and the caller encodes that piece with
// encoding/json instead. termtext.JSON is the caller's, as for
// encoding/json's output.
type jsonOut struct {
	b         []byte
	bad       bool
	contentAt int          // where message wrote the content's string, after its opening quote
	html      bool         // < > & escaped too, as json.Marshal does (a record's strings)
	raw       bytes.Buffer // raw JSON compacted
}

const hexDigits = "0123456789abcdef"

// str is encoding/json's string: ", \ and the controls below U+0020
// escaped (\b \f \n \r \t by name, the others \u00XX), U+2028 and U+2029
// as \u2028 and \u2029, with o.html < > & as \u003c \u003e \u0026,
// everything else as it is.
func (o *jsonOut) str(s string) {
	b := append(o.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if !o.html {
			i += plainJSON(s[i:], false)
			if i == len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && !(o.html && (c == '<' || c == '>' || c == '&')) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			o.bad = true
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	o.b = append(append(b, s[start:]...), '"')
}

// plainJSON is the length of the ASCII that s starts with that a JSON
// string holds as it is (no control, " or \\), and with del no DEL
// either (which termtext.JSON escapes), read eight bytes at a time: a
// message's text is mostly that.
func plainJSON(s string, del bool) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var carry uint64 // DEL, which x+ones carries to 0x80, when del
	if del {
		carry = ones
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// a byte below 0x20, a zero byte of q or bs, DEL under del, or a
		// byte of 0x80 or more sets the top bit of its byte here
		if ((x-ones*0x20)|(q-ones)|(bs-ones)|(x+carry)|x)&highs != 0 {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\' && !(del && s[i] == 0x7f) {
		i++
	}
	return i
}

func (o *jsonOut) int(n int) { o.b = strconv.AppendInt(o.b, int64(n), 10) }

func (o *jsonOut) bool(v bool) { o.b = strconv.AppendBool(o.b, v) }

// float is encoding/json's float64: plain notation from 1e-6 to 1e21,
// else exponent notation without a leading zero in the exponent.
func (o *jsonOut) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		o.bad = true
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(o.b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	o.b = b
}

// rawJSON is encoding/json's json.RawMessage: null for none, else
// compacted.
func (o *jsonOut) rawJSON(r json.RawMessage) {
	if r == nil {
		o.null()
		return
	}
	o.raw.Reset()
	if json.Compact(&o.raw, r) != nil {
		o.bad = true
		return
	}
	o.b = append(o.b, o.raw.Bytes()...)
}

// lit writes JSON text as it is (a key with its colon, and the comma
// before it but for the first).
func (o *jsonOut) lit(s string) { o.b = append(o.b, s...) }

func (o *jsonOut) null() { o.b = append(o.b, "null"...) }

func (o *jsonOut) strOrNull(s *string) {
	if s == nil {
		o.null()
		return
	}
	o.str(*s)
}

// intKey, strKey, strOrNullKey and boolKey write one member of an
// object: key is its name with the colon, after the comma before it or
// the object's opening brace.
func (o *jsonOut) intKey(key string, n int) {
	o.b = strconv.AppendInt(append(o.b, key...), int64(n), 10)
}

// intKeyOmit is intKey, nothing when n is 0 (omitempty).
func (o *jsonOut) intKeyOmit(key string, n int) {
	if n != 0 {
		o.intKey(key, n)
	}
}

func (o *jsonOut) strKey(key, s string) {
	o.lit(key)
	o.str(s)
}

func (o *jsonOut) strOrNullKey(key string, s *string) {
	if o.lit(key); s == nil {
		o.null()
	} else {
		o.str(*s)
	}
}

func (o *jsonOut) boolKey(key string, v bool) {
	o.lit(key)
	o.bool(v)
}

// list writes xs as a JSON array, each element by elem, and a nil slice
// as null, as encoding/json writes them.
func list[T any](o *jsonOut, xs []T, elem func(*jsonOut, *T)) {
	if xs == nil {
		o.null()
		return
	}
	o.b = append(o.b, '[')
	for i := range xs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		elem(o, &xs[i])
	}
	o.b = append(o.b, ']')
}

// message is a model.Message as its struct tags say.
func (o *jsonOut) message(m *model.Message) {
	o.strKey(`{"role":`, m.Role)
	o.lit(`,"content":`)
	o.contentAt = len(o.b) + 1
	o.str(m.Content)
	if m.ToolCallID != "" {
		o.strKey(`,"toolCallId":`, m.ToolCallID)
	}
	if m.ToolName != "" {
		o.strKey(`,"toolName":`, m.ToolName)
	}
	if len(m.ToolCalls) > 0 {
		o.lit(`,"toolCalls":`)
		list(o, m.ToolCalls, (*jsonOut).toolCall)
	}
	if m.Ephemeral {
		o.lit(`,"ephemeral":true`)
	}
	if m.ToolChars != nil {
		o.lit(`,"toolChars":`)
		o.float(*m.ToolChars)
	}
	if m.Placeholder {
		o.lit(`,"placeholder":true`)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) toolCall(tc *model.ToolCall) {
	o.strKey(`{"id":`, tc.ID)
	o.strKey(`,"name":`, tc.Name)
	if len(tc.Args) > 0 {
		o.lit(`,"args":`)
		o.rawJSON(tc.Args)
	}
	o.b = append(o.b, '}')
}

// head is the call's CallHead without its closing brace.
func (o *jsonOut) head(h *CallHead) {
	o.intKey(`{"call":`, h.Call)
	o.intKey(`,"run":`, h.Run)
	o.strKey(`,"runId":`, h.RunID)
	o.lit(`,"conversation":`)
	if h.Conversation == nil {
		o.null()
	} else {
		o.int(*h.Conversation)
	}
	o.strKey(`,"agent":`, h.Agent)
	o.intKey(`,"iteration":`, h.Iteration)
	o.intKey(`,"pass":`, h.Pass)
	if h.Composition {
		o.lit(`,"composition":true`)
	}
	if h.File != "" {
		o.strKey(`,"file":`, h.File)
	}
	if h.Line != 0 {
		o.intKey(`,"line":`, h.Line)
	}
	o.request(&h.Request)
}
