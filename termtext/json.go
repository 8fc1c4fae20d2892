package termtext

import (
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf8"
)

// JSON escapes, in already encoded JSON, what a terminal or an editor
// would act on although encoding/json leaves it raw: DEL, C1 controls,
// U+2028/U+2029 and bidi controls become \uXXXX. Such characters only
// occur inside JSON strings, where the escape means the same. A byte
// that is not UTF-8 (raw JSON copied from a recording, a tool call's
// arguments, may hold one) becomes \ufffd, as encoding/json writes such a
// byte of a string, so the document is always UTF-8. It works character
// by character, so a document may go through it in pieces cut between
// characters.
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
		if size == 1 { // not UTF-8
			out = append(append(out, b[done:i]...), `\ufffd`...)
			i++
			done = i
			continue
		}
		if jsonEscaped(r) {
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
