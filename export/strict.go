package export

import (
	"io"
)

// Strict passes JSON text through to w with every lone surrogate escape
// ("\ud83d" with no low half after it, or a low half alone) written as
// "\ufffd": the export keeps a lone surrogate as the library's
// JSON.stringify wrote it, and some readers (jq 1.6, strict parsers)
// refuse one. Replaced counts them, for the command to say so. Close
// writes what a write cut inside an escape left.
type Strict struct {
	w        io.Writer
	carry    []byte // the start of an escape a write ended inside of
	buf      []byte
	Replaced int
}

// NewStrict is a Strict writing to w.
func NewStrict(w io.Writer) *Strict { return &Strict{w: w} }

func (s *Strict) Write(p []byte) (int, error) {
	data := p
	if len(s.carry) > 0 {
		data = append(s.carry, p...)
	}
	out, rest := s.rewrite(data, false)
	s.carry = append(s.carry[:0:0], rest...)
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close writes what is left; it does not close w.
func (s *Strict) Close() error {
	out, _ := s.rewrite(s.carry, true)
	s.carry = nil
	_, err := s.w.Write(out)
	return err
}

// rewrite is data with its lone surrogate escapes replaced, and (unless
// final) the start of an escape data ends inside of, kept back.
func (s *Strict) rewrite(data []byte, final bool) (out, rest []byte) {
	b := s.buf[:0]
	done := 0
	for i := 0; i < len(data); {
		if data[i] != '\\' {
			i++
			continue
		}
		if i+1 >= len(data) {
			if !final {
				s.buf = append(b, data[done:i]...)
				return s.buf, data[i:]
			}
			break
		}
		if data[i+1] != 'u' {
			i += 2 // \\ \" \n …: the second byte is not an escape's start
			continue
		}
		if i+6 > len(data) {
			if !final {
				s.buf = append(b, data[done:i]...)
				return s.buf, data[i:]
			}
			break
		}
		r, ok := hex4(data[i+2 : i+6])
		switch {
		case !ok || r < 0xd800 || r > 0xdfff:
			i += 6
			continue
		case r <= 0xdbff: // a high half: a low one must follow
			if i+12 > len(data) && !final {
				s.buf = append(b, data[done:i]...)
				return s.buf, data[i:]
			}
			if i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				if lo, ok := hex4(data[i+8 : i+12]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					i += 12
					continue
				}
			}
		}
		b = append(append(b, data[done:i]...), `\ufffd`...)
		s.Replaced++
		i += 6
		done = i
	}
	s.buf = append(b, data[done:]...)
	return s.buf, nil
}

func hex4(h []byte) (rune, bool) {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
