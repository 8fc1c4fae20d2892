package export

import (
	"bufio"
	"bytes"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
)

// A message's JSON is the same in every call that holds it: encodeCall
// writes it once and keeps it while the message is in the calls it
// writes (msgCache). A message whose content needs no escape at all (by
// encoding/json or termtext.JSON), the bulk of a log in bytes, is kept as
// the JSON before its content and the JSON after it, the content written
// from the message itself in between: nothing of that size is copied to
// be kept.

// msgJSON is one message's JSON as written: head, then the content when
// plain, then tail.
type msgJSON struct {
	head, tail []byte
	plain      bool
	call       int // the last call that wrote it
}

// msgCache is the JSON of the messages of the last calls written.
type msgCache map[*model.Message]*msgJSON

// keepOnly forgets the messages call did not write, once they are as many
// as those it wrote (written, which keeps the cache's size in proportion
// to the windows).
func (mc msgCache) keepOnly(call, written int) {
	if len(mc) < 2*written+64 {
		return
	}
	for m, j := range mc {
		if j.call != call {
			delete(mc, m)
		}
	}
}

// messages writes ms as a JSON array, each message's JSON found in e.msgs
// or made and filed there.
func (e *jsonEncoder) messages(w *bufio.Writer, ms []*model.Message) error {
	if ms == nil {
		w.WriteString("null")
		return nil
	}
	if e.msgs == nil {
		e.msgs = msgCache{}
	}
	w.WriteByte('[')
	for i, m := range ms {
		j := e.msgs[m]
		if j == nil {
			var err error
			if j, err = e.message(m); err != nil {
				return err
			}
			e.msgs[m] = j
		}
		j.call = e.calls
		if i > 0 {
			w.WriteByte(',')
		}
		w.Write(j.head)
		if j.plain {
			w.WriteString(m.Content)
			w.Write(j.tail)
		}
	}
	w.WriteByte(']')
	return nil
}

// message is m's JSON after termtext.JSON: cut around its content when
// that is plain, else whole in head.
func (e *jsonEncoder) message(m *model.Message) (*msgJSON, error) {
	if plainJSON(m.Content, true) == len(m.Content) { // written as it is by encoding/json and termtext.JSON
		o := &e.out
		o.b, o.bad = o.b[:0], false
		bare := *m
		bare.Content = ""
		o.message(&bare)
		if !o.bad { // o.b[o.contentAt] is the content's closing quote
			head, tail := termtext.JSON(o.b[:o.contentAt]), termtext.JSON(o.b[o.contentAt:])
			both := append(append(make([]byte, 0, len(head)+len(tail)), head...), tail...)
			return &msgJSON{head: both[:len(head):len(head)], tail: both[len(head):], plain: true}, nil
		}
	}
	enc, err := e.piece(func(o *jsonOut) { o.message(m) }, func() any { return m }, 0, 0)
	if err != nil {
		return nil, err
	}
	return &msgJSON{head: bytes.Clone(termtext.JSON(enc))}, nil
}
