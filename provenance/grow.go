package provenance

import (
	"maps"
	"slices"
	"sync/atomic"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A log followed as it is written is replayed again on every longer part
// of it, and the replay of a run's calls before the first that changed
// is what it was (window's grow.go): so are the lives of the messages in
// their windows. A book grown from the last part's keeps those, and
// follows only the calls from there. It never changes what the last
// part's book holds (that book may still be read): its lives are a layer
// over the last one's, and what it changes of those it copies first
// (lives.mine). A run changes from its last call on, so a book keeps its
// lives as of every call but its last too (before).

// flatAt is how many lives the layers over a book's first may hold
// before they are made one: a lookup reads at most three layers, and a
// grown book copies the lives its calls changed since the first.
const flatAt = 4096

// Grow is the book of r, a replay of rec grown from the replay of b
// (window.Grow), following only r's calls from the first that may have
// changed since b's; its answers are New's. Nil when r is not such a
// replay, or b keeps too little to grow from: then New.
func Grow(b *Book, rec *model.Recording, r *window.Replay) *Book {
	if b == nil || b.before == nil {
		return nil
	}
	old, from := b.r.Calls, b.beforeAt
	if len(r.Calls) < from {
		return nil
	}
	for k := range from {
		if !sameCall(&old[k], &r.Calls[k]) {
			return nil
		}
	}
	preds := r.Preds()
	at := mayChange(r)
	if at < from || !slices.Equal(preds[:from], b.preds[:from]) {
		return nil
	}
	n := len(r.Calls)
	gone := make([]*goneList, n)
	copy(gone, b.gone[:from])
	nb := &Book{rec: rec, r: r, judger: evidence.NewJudger(), memo: map[int]*CallEvidence{}, last: goneAt{call: -1}, keep: goneAt{call: -1},
		gone: gone, preds: preds, id: bookIDs.Add(1), from: b.id, shared: from}
	nb.before, nb.beforeAt = b.before.grown(n), at
	for i := from; i < at; i++ {
		nb.before.step(r, i, preds, gone)
	}
	nb.lives = nb.before.over(n)
	for i := at; i < n; i++ {
		nb.lives.step(r, i, preds, gone)
	}
	return nb
}

// mayChange is the first call of r that the loader may hand out changed
// when the file grows: the last call of a run not ended (its latest,
// settled on a copy); len(r.Calls) when there is none.
func mayChange(r *window.Replay) int {
	for i := range r.Calls {
		c := &r.Calls[i]
		if run := c.Run; !run.Complete && len(run.Calls) > 0 && run.Calls[len(run.Calls)-1] == c.Call {
			return i
		}
	}
	return len(r.Calls)
}

// GrowOn is Grow of a book the caller gives up (b must not be used
// again): the new book takes over b's judger, its answers for the calls
// they share, and what it knew of the messages gone at the last of
// those, so that asking about the calls after them in order costs what
// they cost, not what the run's length does (a log followed as it is
// written, judged as it grows).
func GrowOn(b *Book, rec *model.Recording, r *window.Replay) *Book {
	nb := Grow(b, rec, r)
	if nb == nil {
		return nil
	}
	nb.judger = b.judger
	for i, ce := range b.memo {
		if i < nb.shared {
			nb.memo[i] = ce
		}
	}
	switch {
	case b.last.call >= 0 && b.last.call < nb.shared:
		nb.last = b.last
	case b.keep.call >= 0 && b.keep.call < nb.shared:
		nb.last = b.keep
	}
	return nb
}

// sameCall: a and b are one call's replay, the same windows.
func sameCall(a, b *window.CallReplay) bool {
	return a.Call == b.Call && a.Conversation == b.Conversation && sameSlice(a.Visit.Before, b.Visit.Before) &&
		sameSlice(a.Visit.After, b.Visit.After) && sameSlice(a.Visit.Evicted, b.Visit.Evicted)
}

// sameSlice: a and b are the same messages in the same memory.
func sameSlice(a, b []*model.Message) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// over is a layer over ls, for a replay of calls calls: it knows ls's
// lives and lines, and changes none of them.
func (ls *lives) over(calls int) *lives {
	return &lives{of: map[*model.Message]*life{}, base: ls, lines: ls.lines.Grown(calls)}
}

// grown is a layer over ls as over does, but over at most one layer:
// those over ls's first are made one (newest first) in the new layer's
// own, or, past flatAt lives, all of them in one first layer.
func (ls *lives) grown(calls int) *lives {
	var layers []*lives // newest first
	for l := ls; l != nil; l = l.base {
		layers = append(layers, l)
	}
	out := ls.over(calls)
	first := layers[len(layers)-1]
	upper := 0
	for _, l := range layers[:len(layers)-1] {
		upper += len(l.of)
	}
	if upper == 0 {
		out.base = first
		return out
	}
	merge := layers[:len(layers)-1]
	out.base = first
	if upper > flatAt && upper > len(first.of)/8 {
		merge, out.base = layers, nil
	}
	for k := len(merge) - 1; k >= 0; k-- {
		maps.Copy(out.of, merge[k].of)
	}
	return out
}

// GrownFrom is how many first calls b shares with was, the book it was
// grown from (Grow): their answers are the same in both, a call's
// values being judged against the windows up to it. false when b was
// not grown from was.
func (b *Book) GrownFrom(was *Book) (int, bool) {
	if b == nil || was == nil || b.from == 0 || b.from != was.id {
		return 0, false
	}
	return b.shared, true
}

// bookIDs numbers the books.
var bookIDs atomic.Uint64

// Calls is how many calls b's replay has.
func (b *Book) Calls() int { return len(b.r.Calls) }
