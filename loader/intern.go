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

// internKey splits the interned messages by role and delivery.
type internKey struct {
	role      string
	delivered bool
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

// get is the message filed under text (hash h), or nil.
func (t *internTable) get(text []byte, h uint64) *model.Message {
	e, ok := t.byHash[h]
	switch {
	case !ok:
		return nil
	case e.text == string(text):
		return e.m
	}
	return t.more[string(text)]
}

// put files m under text unless a message is there.
func (t *internTable) put(text []byte, h uint64, m *model.Message) {
	e, ok := t.byHash[h]
	switch {
	case !ok:
		t.byHash[h] = internEntry{text: stored(text, m), m: m}
	case e.text != string(text) && t.more[string(text)] == nil:
		if t.more == nil {
			t.more = map[string]*model.Message{}
		}
		t.more[stored(text, m)] = m
	}
}

// intern returns the recorded message with key, making it with make the
// first time: a window repeated in every call is held once, and looking it
// up costs a compare of its text, not a decode.
func (b *builder) intern(key textKey, make func() *model.Message) *model.Message {
	t, text, h := b.internTable(key)
	if m := t.get(text, h); m != nil {
		return m
	}
	m := b.message(make())
	t.put(text, h, m)
	return m
}

// internAs files m, a message already made, under key unless one is there.
func (b *builder) internAs(key textKey, m *model.Message) {
	t, text, h := b.internTable(key)
	t.put(text, h, m)
}

// internTable is the table key belongs in, the text it is filed by (see
// plainText) and that text's hash.
func (b *builder) internTable(key textKey) (*internTable, []byte, uint64) {
	k := internKey{key.role, key.delivered}
	t := b.interned[k]
	if t == nil {
		t = &internTable{byHash: map[uint64]internEntry{}}
		b.interned[k] = t
	}
	text, plain := plainText(key)
	if plain && key.hashed {
		return t, text, key.hash
	}
	return t, text, maphash.Bytes(textSeed, text)
}

// plainText is the text key is filed by: a content with no escape by its
// text (inside the quotes), any other by its JSON (with the quotes, so the
// two never meet). plain says it is the former.
func plainText(key textKey) ([]byte, bool) {
	raw := key.raw
	if len(raw) >= 2 && raw[0] == '"' && (key.scanned && !key.esc || !key.scanned && bytes.IndexByte(raw, '\\') < 0) {
		return raw[1 : len(raw)-1], true
	}
	return raw, false
}

// stored is the map key to file text under: the message's own content
// when they are the same text, so that the table costs no copy.
func stored(text []byte, m *model.Message) string {
	if m.Content == string(text) {
		return m.Content
	}
	return string(text)
}
