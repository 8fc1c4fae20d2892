package loader

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// encoding/json reads a lone surrogate escape ("\ud83d" with no low half
// after it) as U+FFFD; the recording means the UTF-16 unit itself, and
// unquote keeps it (model.DecodeRune). unmarshal is how the reference
// decoder stays the definition of a line all the same: encoding/json
// still decodes everything, from a copy of the line in which each lone
// surrogate escape \uDXXX is written \uMMMMDXXX, M a private-use
// character the line does not hold in any spelling. Every M in a decoded
// string is then a surrogate (the four hex digits after it give its
// value), and every "\uMMMM" in a value kept raw is one too.

// unmarshal is json.Unmarshal(raw, v), except that a lone surrogate
// escape is decoded as unquote decodes it. Errors are those of raw as
// written.
func unmarshal(raw []byte, v any) error {
	if !hasLoneSurrogate(raw) {
		return json.Unmarshal(raw, v)
	}
	m, ok := markerFor(raw)
	if !ok { // the line holds every candidate: read as encoding/json does
		return json.Unmarshal(raw, v)
	}
	err := json.Unmarshal(markSurrogates(raw, m), v)
	restore(reflect.ValueOf(v), m)
	if err != nil { // worded on raw, whose offsets the marks do not shift
		err = json.Unmarshal(raw, reflect.New(reflect.TypeOf(v).Elem()).Interface())
	}
	return err
}

// loneSurrogate is the value of the lone surrogate escape b starts with
// ("\uDXXX" not followed by the other half), ok false if it does not.
func loneSurrogate(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	r := hex4(b[2:6])
	if !model.IsSurrogate(r) {
		return 0, false
	}
	if r < 0xDC00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if r2 := hex4(b[8:12]); r2 >= 0xDC00 && r2 <= 0xDFFF {
			return 0, false
		}
	}
	return r, true
}

// escapes calls f at every escape of raw, with its offset; f returns
// how many bytes the escape takes.
func escapes(raw []byte, f func(i int) int) {
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			return
		}
		i += j
		i += max(f(i), 1)
	}
}

// escapeSize is how many bytes the escape at raw[i:] takes: a surrogate
// pair is one escape of 12.
func escapeSize(raw []byte, i int) int {
	b := raw[i:]
	if len(b) < 2 {
		return 1
	}
	if b[1] != 'u' || len(b) < 6 {
		return 2
	}
	if r := hex4(b[2:6]); r >= 0xD800 && r < 0xDC00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if r2 := hex4(b[8:12]); r2 >= 0xDC00 && r2 <= 0xDFFF {
			return 12
		}
	}
	return 6
}

func hasLoneSurrogate(raw []byte) bool {
	found := false
	escapes(raw, func(i int) int {
		if _, ok := loneSurrogate(raw[i:]); ok {
			found = true
			return len(raw)
		}
		return escapeSize(raw, i)
	})
	return found
}

// markerFor is a private-use character raw holds neither as UTF-8 nor as
// the hex digits of an escape, in either case. Linear in raw, so a long
// line that holds many candidates costs no more than a short one.
func markerFor(raw []byte) (rune, bool) {
	var held model.Marks
	held.HoldText(raw)
	for i := 0; i+4 <= len(raw); i++ {
		held.Hold(hex4(raw[i : i+4])) // -1, not held, where no hex digits
	}
	return held.Free()
}

func markHex(m rune) []byte { return strconv.AppendInt(nil, int64(m), 16) }

// markSurrogates writes each lone surrogate escape \uDXXX of raw as
// \uMMMMDXXX.
func markSurrogates(raw []byte, m rune) []byte {
	out := make([]byte, 0, len(raw)+16)
	done := 0
	escapes(raw, func(i int) int {
		if _, ok := loneSurrogate(raw[i:]); ok {
			out = append(append(out, raw[done:i+2]...), markHex(m)...)
			done = i + 2
			return 6
		}
		return escapeSize(raw, i)
	})
	return append(out, raw[done:]...)
}

// restore undoes the marks in every string and raw value v holds: M and
// four hex digits become the surrogate (WTF-8), \uMMMM becomes \u.
func restore(v reflect.Value, m rune) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if e := v.Elem(); v.Kind() == reflect.Interface && e.Kind() != reflect.Pointer {
				c := reflect.New(e.Type()).Elem()
				c.Set(e)
				restore(c, m)
				v.Set(c)
			} else {
				restore(e, m)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				restore(v.Field(i), m)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if !v.IsNil() {
				v.SetBytes(bytes.ReplaceAll(v.Bytes(), []byte(`\u`+string(markHex(m))), []byte(`\u`)))
			}
			return
		}
		for i := range v.Len() {
			restore(v.Index(i), m)
		}
	case reflect.Array:
		for i := range v.Len() {
			restore(v.Index(i), m)
		}
	case reflect.Map:
		restoreMap(v, m)
	case reflect.String:
		v.SetString(unmarkText(v.String(), m))
	}
}

func restoreMap(v reflect.Value, m rune) {
	it := v.MapRange()
	type kv struct{ k, v reflect.Value }
	var all []kv
	for it.Next() {
		k, e := reflect.New(it.Key().Type()).Elem(), reflect.New(it.Value().Type()).Elem()
		k.Set(it.Key())
		e.Set(it.Value())
		all = append(all, kv{k, e})
	}
	for _, p := range all {
		v.SetMapIndex(p.k, reflect.Value{})
		restore(p.k, m)
		restore(p.v, m)
	}
	for _, p := range all {
		v.SetMapIndex(p.k, p.v)
	}
}

// unmarkText turns each M and the four hex digits after it into the
// surrogate they name.
func unmarkText(s string, m rune) string {
	mark := string(m)
	i := strings.Index(s, mark)
	if i < 0 {
		return s
	}
	out := make([]byte, 0, len(s))
	for ; i >= 0; i = strings.Index(s, mark) {
		out = append(out, s[:i]...)
		s = s[i+len(mark):]
		if len(s) >= 4 && model.IsSurrogate(hex4([]byte(s[:4]))) {
			out = model.AppendSurrogate(out, hex4([]byte(s[:4])))
			s = s[4:]
		} else { // cannot happen (M is only ever a mark): keep it
			out = append(out, mark...)
		}
	}
	return string(append(out, s...))
}
