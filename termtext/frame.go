package termtext

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Frame is the last guard before a screen reaches the terminal: it
// keeps newlines and colour (SGR: ESC [ digits ; : m) and shows every
// other control, escape or C1 character as its placeholder. Text that
// went through Screen comes out unchanged; anything that slipped past
// a printer cannot control the terminal.
func Frame(s string) string {
	i := frameBad(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == 0x1b:
			if n := sgrLen(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			b.WriteString("␛")
		case c == '\n':
			b.WriteByte(c)
		case c < 0x20:
			b.WriteRune(rune(0x2400 + int(c)))
		case c == 0x7f:
			b.WriteString("␡")
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				if u, ok := surrogate(s[i:]); ok { // a lone surrogate the loader kept
					fmt.Fprintf(&b, "<U+%04X>", u)
					size = 3
				} else {
					fmt.Fprintf(&b, `\x%02x`, c)
				}
			case r >= 0x80 && r <= 0x9f:
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	return b.String()
}

// frameBad is the index of the first byte Frame must look at, -1 when
// there is none: an escape that is not SGR, a control, a C1, bad UTF-8.
func frameBad(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			n := sgrLen(s[i:])
			if n == 0 {
				return i
			}
			i += n - 1
		case c == '\n', c >= 0x20 && c < 0x7f:
		case c < 0x20, c == 0x7f:
			return i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size <= 1) || (r >= 0x80 && r <= 0x9f) {
				return i
			}
			i += size - 1
		}
	}
	return -1
}

// sgrLen is the length of the SGR sequence s starts with, 0 if none.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 64; i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return 0
		}
	}
	return 0
}

// JSON escapes, in already encoded JSON, what a terminal or an editor
// would act on although encoding/json leaves it raw: DEL, C1 controls,
// U+2028/U+2029 and bidi controls become \uXXXX. Such characters only
// occur inside JSON strings, where the escape means the same. It works
// character by character, so a document may go through it in pieces cut
// between characters.
func JSON(b []byte) []byte {
	var out []byte
	done := 0 // b[:done] is in out
	for i := 0; i < len(b); {
		i += plainRun(b[i:])
		if i == len(b) {
			break
		}
		if b[i] == 0x7f {
			out = append(append(out, b[done:i]...), `\u007f`...)
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if size > 1 && jsonEscaped(r) {
			out = fmt.Appendf(append(out, b[done:i]...), `\u%04x`, r)
			done = i + size
		}
		i += size
	}
	if done == 0 {
		return b
	}
	return append(out, b[done:]...)
}

// plainRun is the length of the ASCII below DEL that b starts with, read
// eight bytes at a time: a JSON export is mostly that.
func plainRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// a byte of 0x80 or more has its top bit set, and so does
		// 0x7f + 1 (a byte below 0x80 plus one carries into no other)
		if (x|(x+0x0101010101010101))&0x8080808080808080 != 0 {
			break
		}
	}
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	return i
}

func jsonEscaped(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0x061C,
		r == 0x200E, r == 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Writer passes every write through Text and remembers the first error,
// so a command can say it could not write (and exit non-zero) at the end.
type Writer struct {
	w   io.Writer
	err error
}

// NewWriter wraps w, a stream where untrusted text is printed.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if _, err := io.WriteString(w.w, Text(string(p))); err != nil {
		w.err = err
		return 0, err
	}
	return len(p), nil
}

// Err is the first error a write returned, nil if none did.
func (w *Writer) Err() error { return w.err }
