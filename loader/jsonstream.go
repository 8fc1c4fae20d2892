package loader

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jsonStream walks one JSON document on a bufio.Reader, object key by
// object key, so that a caller can keep the few values it names and skip
// the rest without ever holding them. An envelope's snapshot is ~100 MB
// of execution tree nested ~1600 levels deep; encoding/json would buffer
// all of it before skipping it, and a recursive decoder would go that deep.
//
// It checks only the structure it walks (braces, brackets, commas, colons,
// strings). A value it keeps is checked later by json.Unmarshal; a value
// it skips is trusted to be balanced.
type jsonStream struct {
	r   *bufio.Reader
	pos int64  // bytes consumed so far, for messages
	buf []byte // the last value kept by raw; reused
}

func newJSONStream(r *bufio.Reader) *jsonStream { return &jsonStream{r: r} }

// streamError is a malformed or cut-short document.
type streamError struct {
	pos int64
	msg string
	err error // the read error underneath, if any
}

func (e *streamError) Error() string { return fmt.Sprintf("at byte %d: %s", e.pos, e.msg) }
func (e *streamError) Unwrap() error { return e.err }

func (s *jsonStream) fail(format string, args ...any) error {
	return &streamError{pos: s.pos, msg: fmt.Sprintf(format, args...)}
}

// readFail turns a read error into a streamError; io.EOF inside a value
// means the document was cut short.
func (s *jsonStream) readFail(err error) error {
	if errors.Is(err, io.EOF) {
		return &streamError{pos: s.pos, msg: "unexpected end of input (cut off?)", err: io.ErrUnexpectedEOF}
	}
	return &streamError{pos: s.pos, msg: "read error: " + err.Error(), err: err}
}

func (s *jsonStream) discard(n int) {
	d, _ := s.r.Discard(n)
	s.pos += int64(d)
}

// peek returns the next byte that is not white space, without consuming it.
// At the end of input it returns io.EOF itself.
func (s *jsonStream) peek() (byte, error) {
	for {
		b, err := s.r.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\n', '\r':
			s.discard(1)
			continue
		}
		return b[0], nil
	}
}

func (s *jsonStream) expect(c byte) error {
	b, err := s.peek()
	if err != nil {
		return s.readFail(err)
	}
	if b != c {
		return s.fail("expected %q, found %q", c, b)
	}
	s.discard(1)
	return nil
}

// object consumes an object, calling fn for each key; fn must consume the
// key's value (with skip, raw, object or array).
func (s *jsonStream) object(fn func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	return s.members('}', func() error {
		key, err := s.key()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		return fn(key)
	})
}

// array consumes an array, calling fn for each element with its index;
// fn must consume the element.
func (s *jsonStream) array(fn func(i int) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	i := 0
	return s.members(']', func() error {
		err := fn(i)
		i++
		return err
	})
}

// members reads comma-separated members up to the closing byte.
func (s *jsonStream) members(closing byte, member func() error) error {
	c, err := s.peek()
	if err != nil {
		return s.readFail(err)
	}
	if c == closing {
		s.discard(1)
		return nil
	}
	for {
		if err := member(); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return s.readFail(err)
		}
		switch c {
		case ',':
			s.discard(1)
		case closing:
			s.discard(1)
			return nil
		default:
			return s.fail("expected ',' or %q, found %q", closing, c)
		}
	}
}

func (s *jsonStream) key() (string, error) {
	c, err := s.peek()
	if err != nil {
		return "", s.readFail(err)
	}
	if c != '"' {
		return "", s.fail("expected an object key, found %q", c)
	}
	raw, err := s.raw()
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return "", s.fail("bad object key: %v", err)
	}
	return k, nil
}

// skip consumes the next value without keeping it.
func (s *jsonStream) skip() error {
	_, err := s.value(nil, false)
	return err
}

// raw consumes the next value and returns its bytes. The slice is reused
// by the next call to raw.
func (s *jsonStream) raw() ([]byte, error) {
	var err error
	s.buf, err = s.value(s.buf[:0], true)
	return s.buf, err
}

func (s *jsonStream) value(dst []byte, keep bool) ([]byte, error) {
	c, err := s.peek()
	if err != nil {
		return dst, s.readFail(err)
	}
	switch c {
	case '"', '{', '[':
		return s.nested(dst, keep)
	case '}', ']', ',', ':':
		return dst, s.fail("expected a value, found %q", c)
	}
	return s.literal(dst, keep)
}

// nested scans a string, object or array chunk by chunk, counting depth
// outside strings, so depth costs nothing and nothing is held unless kept.
func (s *jsonStream) nested(dst []byte, keep bool) ([]byte, error) {
	depth := 0
	inString, escaped := false, false
	for {
		chunk, _ := s.r.Peek(s.r.Buffered())
		if len(chunk) == 0 {
			if _, err := s.r.Peek(1); err != nil {
				return dst, s.readFail(err)
			}
			continue
		}
		i, done := 0, false
	scan:
		for ; i < len(chunk); i++ {
			b := chunk[i]
			if inString {
				switch {
				case escaped:
					escaped = false
				case b == '\\':
					escaped = true
				case b == '"':
					inString = false
					if depth == 0 {
						i++
						done = true
						break scan
					}
				}
				continue
			}
			switch b {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth <= 0 {
					i++
					done = true
					break scan
				}
			}
		}
		if keep {
			dst = append(dst, chunk[:i]...)
		}
		s.discard(i)
		if done {
			return dst, nil
		}
	}
}

// literal scans a number, true, false or null up to the next delimiter.
func (s *jsonStream) literal(dst []byte, keep bool) ([]byte, error) {
	for n := 0; ; n++ {
		b, err := s.r.Peek(1)
		if err != nil {
			if errors.Is(err, io.EOF) && n > 0 {
				return dst, nil
			}
			return dst, s.readFail(err)
		}
		switch b[0] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return dst, nil
		}
		if keep {
			dst = append(dst, b[0])
		}
		s.discard(1)
	}
}
