package loader

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// unquote decodes the inside of a JSON string (between its quotes) the
// way encoding/json does — escapes resolved, each byte of bad UTF-8
// becomes U+FFFD — except that a lone surrogate escape is kept as the
// UTF-16 unit it is, in WTF-8 (model.DecodeRune), where encoding/json
// writes U+FFFD. It never fails: a stray byte it cannot read as an
// escape is kept as it is.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw)+utf8.UTFMax)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			r, n := unescape(raw[i:])
			if n == 0 {
				out = append(out, c)
				i++
				continue
			}
			if model.IsSurrogate(r) {
				out = model.AppendSurrogate(out, r)
			} else {
				out = utf8.AppendRune(out, r)
			}
			i += n
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out)
}

// unescape decodes the escape b starts with: the rune and how many bytes
// it took (0 if b does not start with a valid escape). A \u surrogate
// pair is one rune; a surrogate without its pair is itself.
func unescape(b []byte) (rune, int) {
	if escapeLen(b) == 0 {
		return 0, 0
	}
	switch b[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
	default:
		return rune(b[1]), 2
	}
	r := hex4(b[2:6])
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
		if r2 := hex4(b[8:12]); r2 >= 0 {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
	}
	return r, 6
}
