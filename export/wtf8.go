package export

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// A lone surrogate in a message (model.DecodeRune) is exported as the
// escape the library's JSON.stringify writes for it, "\ud83d".
// encoding/json writes "\ufffd" for each byte of a string that is not
// UTF-8, WTF-8 surrogates included, and writes U+FFFD itself unescaped;
// so only an encoding holding "\ufffd" can have lost a surrogate. Such a
// value is encoded again from a copy in which each surrogate is written
// M and its four hex digits, M a private-use character the first
// encoding does not hold, and each such mark becomes \uDXXX. A byte that
// is not UTF-8 and not a surrogate stays "\ufffd".

// withSurrogates re-encodes v, whose encoding is out, when out may have
// lost a surrogate; otherwise it returns out.
func withSurrogates(v any, out []byte) ([]byte, error) {
	if !bytes.Contains(out, []byte(`\ufffd`)) {
		return out, nil
	}
	m, ok := absentMark(out)
	if !ok {
		return out, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(markedCopy(reflect.ValueOf(v), m).Interface()); err != nil {
		return nil, err
	}
	b, mark := buf.Bytes(), utf8.AppendRune(nil, m)
	res := make([]byte, 0, len(b))
	for {
		i := bytes.Index(b, mark)
		if i < 0 {
			return append(res, b...), nil
		}
		res = append(append(res, b[:i]...), `\u`...)
		b = b[i+len(mark):] // four hex digits follow, kept
	}
}

// absentMark is a private-use character b does not hold (encoding/json
// never escapes one), found in one pass.
func absentMark(b []byte) (rune, bool) {
	var held model.Marks
	held.HoldText(b)
	return held.Free()
}

// markedCopy is a copy of v whose strings have each surrogate written as
// m and its four hex digits. What it does not reach (unexported fields,
// raw JSON) is shared with v, never changed.
func markedCopy(v reflect.Value, m rune) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		return reflect.ValueOf(markText(v.String(), m)).Convert(v.Type())
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(markedCopy(v.Elem(), m))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(markedCopy(v.Elem(), m))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				c.Field(i).Set(markedCopy(v.Field(i), m))
			}
		}
		return c
	case reflect.Slice:
		if v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(markedCopy(v.Index(i), m))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			c.Index(i).Set(markedCopy(v.Index(i), m))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(markedCopy(it.Key(), m), markedCopy(it.Value(), m))
		}
		return c
	}
	return v
}

// markText writes each surrogate of s as m and its four hex digits.
func markText(s string, m rune) string {
	var out []byte
	done := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := model.DecodeRune(s[i:])
		if model.IsSurrogate(r) {
			out = utf8.AppendRune(append(out, s[done:i]...), m)
			out = strconv.AppendInt(out, int64(r), 16)
			done = i + size
		}
		i += size
	}
	if out == nil {
		return s
	}
	return string(append(out, s[done:]...))
}
