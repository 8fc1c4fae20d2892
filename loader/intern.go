package loader

import (
	"bytes"
	"hash/maphash"

	"github.com/afinspect/inspect/model"
)

// A recorded window repeats its messages call after call; the builder
// keeps each once (interning), filed by its text as the file spells it.
// A table is keyed by a 64-bit hash of that text: the decoders, which
// run beside the builder, hash the long strings as they check them
// (skipSeen), so the builder mostly compares instead of hashing, and a
// growing table never hashes its texts again.

// textSeed is the hash seed the decoders and the builder share.
var textSeed = maphash.MakeSeed()

// internKey splits the interned messages by role and delivery, and a
// history's deliveries by their injectedBy: each is a message of its own.
type internKey struct {
	role      string
	delivered bool
	by        string
}

// internTable is one role and delivery's messages by text.
type internTable struct {
	byHash map[uint64]internEntry
	more   map[string]*model.Message // texts whose hash another text holds
}

type internEntry struct {
	text string
	m    *model.Message
}

// filed is a text to file or look up: its bytes in the line, its hash,
// and the decoder's Go string of it when there is one (seenText).
type filed struct {
	b    []byte
	h    uint64
	text string
}

// same reports whether s is f's text: with the decoder's string, often
// the very memory s is, which the compare sees at once.
func (f filed) same(s string) bool {
	if f.text != "" {
		return s == f.text
	}
	return s == string(f.b)
}

// str is f's text as a string to keep: the decoder's, else a copy.
func (f filed) str() string {
	if f.text != "" {
		return f.text
	}
	return string(f.b)
}

// get is the message filed under f, or nil.
func (t *internTable) get(f filed) *model.Message {
	e, ok := t.byHash[f.h]
	switch {
	case !ok:
		return nil
	case f.same(e.text):
		return e.m
	}
	return t.more[string(f.b)]
}

// put files m under f unless a message is there.
func (t *internTable) put(f filed, m *model.Message) {
	e, ok := t.byHash[f.h]
	switch {
	case !ok:
		t.byHash[f.h] = internEntry{text: stored(f, m), m: m}
	case !f.same(e.text) && t.more[string(f.b)] == nil:
		if t.more == nil {
			t.more = map[string]*model.Message{}
		}
		t.more[stored(f, m)] = m
	}
}

// intern returns the recorded message with key, making it with make the
// first time: a window repeated in every call is held once, and looking it
// up costs a compare of its text, not a decode.
func (b *builder) intern(key textKey, make func() *model.Message) *model.Message {
	t, f := b.internTable(key)
	if m := t.get(f); m != nil {
		return m
	}
	m := b.message(make())
	t.put(f, m)
	return m
}

// internAs files m, a message already made, under key unless one is there.
func (b *builder) internAs(key textKey, m *model.Message) {
	t, f := b.internTable(key)
	t.put(f, m)
}

// internTable is the table key belongs in, and the text it is filed by
// (see plainText).
func (b *builder) internTable(key textKey) (*internTable, filed) {
	k := internKey{key.role, key.delivered, string(key.by)}
	t := b.interned[k]
	if t == nil {
		t = &internTable{byHash: map[uint64]internEntry{}}
		b.interned[k] = t
	}
	text, plain := plainText(key)
	if plain && key.seen.ok {
		return t, filed{b: text, h: key.seen.hash, text: key.seen.text}
	}
	return t, filed{b: text, h: maphash.Bytes(textSeed, text)}
}

// plainText is the text key is filed by: a content with no escape by its
// text (inside the quotes), any other by its JSON (with the quotes, so the
// two never meet). plain says it is the former.
func plainText(key textKey) ([]byte, bool) {
	raw := key.raw
	switch {
	case key.scanned: // a string, quotes and all: its bytes need no look
		if !key.esc {
			return raw[1 : len(raw)-1], true
		}
	case len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0:
		return raw[1 : len(raw)-1], true
	}
	return raw, false
}

// stored is the text to file m under: the message's own content when
// they are the same text, so that the table costs no copy.
func stored(f filed, m *model.Message) string {
	if f.same(m.Content) {
		return m.Content
	}
	return f.str()
}
