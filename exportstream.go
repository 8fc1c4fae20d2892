package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/afinspect/inspect/termtext"
)

// callsTail is how an exportDoc with no calls ends: "calls" is its last
// field, which is what lets the calls be written after everything else.
const callsTail = `"calls":[]}` + "\n"

// streamExport writes doc, whose Calls is empty, with n calls in its
// place, each made by call(i) and encoded as it comes. The bytes are the
// ones encoding the whole document at once would give (encoding/json
// without HTML escaping, then termtext.JSON, which escapes per character
// and so may run call by call), but memory holds a few calls, not all.
// Calls are made on this goroutine and encoded on another, in order, so
// that the two overlap on two cores.
func streamExport(w io.Writer, doc exportDoc, n int, call func(int) exportCall) error {
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
	calls := make(chan exportCall, 64)
	done := make(chan error, 1)
	go func() {
		var err error
		first := true
		for c := range calls {
			if err != nil {
				continue // drain: the maker is not stopped mid-call
			}
			var b []byte
			if b, err = enc.encode(c); err == nil {
				if !first {
					bw.WriteByte(',')
				}
				first = false
				_, err = bw.Write(termtext.JSON(b[:len(b)-1])) // without the encoder's newline
			}
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
	buf bytes.Buffer
	enc *json.Encoder
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
