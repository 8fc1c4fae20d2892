package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/afinspect/inspect/termtext"
)

// callsTail is how an Doc with no calls ends: "calls" is its last
// field, which is what lets the calls be written after everything else.
const callsTail = `"calls":[]}` + "\n"

// Write writes doc, whose Calls is empty, with n calls in its
// place, each made by call(i) and encoded as it comes. The bytes are the
// ones encoding the whole document at once would give (encoding/json
// without HTML escaping, then termtext.JSON, which escapes per character
// and so may run call by call), but memory holds a few calls, not all.
// Calls are made on this goroutine and encoded on another, in order, so
// that the two overlap on two cores.
func Write(w io.Writer, doc Doc, n int, call func(int) Call) error {
	var enc jsonEncoder
	head, err := enc.encode(doc)
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(head, []byte(callsTail)) {
		return fmt.Errorf("export: the document does not end with its calls")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(termtext.JSON(head[:len(head)-len("]}\n")]))
	calls := make(chan Call, 64)
	done := make(chan error, 1)
	go func() {
		var err error
		first := true
		for c := range calls {
			if err != nil {
				continue // drain: the maker is not stopped mid-call
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			err = enc.encodeCall(bw, c)
		}
		done <- err
	}()
	for i := range n {
		calls <- call(i)
	}
	close(calls)
	if err := <-done; err != nil {
		return err
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// jsonEncoder encodes values as `inspect export` writes them, reusing its
// buffer: what encode returns is valid until the next call.
type jsonEncoder struct {
	buf   bytes.Buffer
	enc   *json.Encoder
	out   jsonOut // the pieces of a call, written by hand
	msgs  msgCache
	calls int // calls encoded
}

// writeDoc writes v as one line of JSON: encoding/json without HTML
// escaping, a lone surrogate of a name or a path written back, and what a
// terminal would act on escaped.
func writeDoc(w io.Writer, v any) error {
	var e jsonEncoder
	out, err := e.encode(v)
	if err != nil {
		return err
	}
	_, err = w.Write(termtext.JSON(out))
	return err
}

func (e *jsonEncoder) encode(v any) ([]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return withSurrogates(v, e.buf.Bytes())
}

// piece is the JSON write (a jsonOut method) writes, or when that is not
// sure of it (jsonOut.bad), encoding/json's of value() without the
// newline, cut by trim bytes in front and behind; either way before
// termtext.JSON. It is valid until the next piece.
func (e *jsonEncoder) piece(write func(*jsonOut), value func() any, front, back int) ([]byte, error) {
	e.out.b, e.out.bad = e.out.b[:0], false
	write(&e.out)
	if !e.out.bad {
		return e.out.b, nil
	}
	b, err := e.encode(value())
	if err != nil {
		return nil, err
	}
	return b[front : len(b)-1-back], nil
}

// encodeCall writes c as termtext.JSON of its encoding without the
// newline, piece by piece: the fields before the window, each message of
// the window and of the evicted (a message's JSON is taken from the last
// call when it was there), the fields after. Each piece is a whole JSON
// value or a run of whole members, and both encoding/json's output for a
// struct and termtext.JSON are the concatenation of their pieces', so the
// bytes are the same as encoding c at once.
func (e *jsonEncoder) encodeCall(w *bufio.Writer, c Call) error {
	head, err := e.piece(func(o *jsonOut) { o.head(&c.CallHead) }, func() any { return c.CallHead }, 0, 1) // without "}"
	if err != nil {
		return err
	}
	w.Write(termtext.JSON(head))
	w.WriteString(`,"window":`)
	e.calls++
	if err := e.messages(w, c.Window); err != nil {
		return err
	}
	w.WriteString(`,"evicted":`)
	if err := e.messages(w, c.Evicted); err != nil {
		return err
	}
	e.msgs.keepOnly(e.calls, len(c.Window)+len(c.Evicted))
	tail, err := e.piece(func(o *jsonOut) { o.tail(&c.CallTail) }, func() any { return c.CallTail }, 1, 0) // without "{"
	if err != nil {
		return err
	}
	w.WriteByte(',')
	_, err = w.Write(termtext.JSON(tail))
	return err
}
