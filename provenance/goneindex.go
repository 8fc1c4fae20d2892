package provenance

import (
	"cmp"
	"slices"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// A run's chain loses messages call after call: looking for each
// never-read value of every call in every message gone from its chain
// costs the calls times the messages gone, quadratic in a run's length
// under a policy that keeps more. The messages gone are indexed instead,
// each once, as they leave (extendGone): a value is looked up, and only
// the messages the lookup names are asked what the plain scan asked,
// in the order of the messages gone, so the answer is the scan's.

// goneIndexed: the flags look a value up in the indexes below, not in
// every message gone (a variable for the test that compares the two).
var goneIndexed = true

// leftIndex is the tool messages of one goneAt by the runs of digits of
// their contents (evidence.DigitRuns): a content that may hold a value
// between atom boundaries (evidence.MayHoldBounded) has each run of
// digits of the lookup form it holds as one of its own.
type leftIndex struct {
	runs map[string][]*model.Message
}

// digitRuns is m's content's runs of digits, read once per message.
func (b *Book) digitRuns(m *model.Message) []string {
	if rs, ok := b.runsOf[m]; ok {
		return rs
	}
	if b.runsOf == nil {
		b.runsOf = map[*model.Message][]string{}
	}
	rs := evidence.DigitRuns(m.Content)
	b.runsOf[m] = rs
	return rs
}

// addLeft indexes m, a message that joined the messages gone, when they
// are indexed already.
func (b *Book) addLeft(x *leftIndex, m *model.Message) {
	if x == nil || m.Role != model.RoleTool {
		return
	}
	for _, r := range b.digitRuns(m) {
		x.runs[r] = append(x.runs[r], m)
	}
}

// leftAt is the index of the messages gone at call i (b.last), made when
// first asked; nil when b.last is not gone (the caller scans gone).
func (b *Book) leftAt(i int, gone []*model.Message) *leftIndex {
	if b.last.call != i || len(b.last.msgs) != len(gone) || (len(gone) > 0 && &b.last.msgs[0] != &gone[0]) {
		return nil
	}
	if b.last.left == nil {
		x := &leftIndex{runs: map[string][]*model.Message{}}
		for _, m := range b.last.msgs {
			b.addLeft(x, m)
		}
		b.last.left = x
	}
	return b.last.left
}

// leftCandidates is the messages gone at call i that may hold v between
// atom boundaries, in the order of the messages gone; false when the
// index cannot tell (a lookup form with no digit: the caller scans).
func (b *Book) leftCandidates(i int, x *leftIndex, v string) ([]*model.Message, bool) {
	forms, ok := evidence.ValueDigitRuns(v)
	if !ok {
		return nil, false
	}
	type at struct {
		m   *model.Message
		pos int
	}
	var out []at
	seen := map[*model.Message]bool{}
	for _, runs := range forms {
		// every run of the form is one of a holding content's: the
		// fewest messages stand under the rarest
		best := x.runs[runs[0]]
		for _, r := range runs[1:] {
			if l := x.runs[r]; len(l) < len(best) {
				best = l
			}
		}
		for _, m := range best {
			if seen[m] {
				continue
			}
			seen[m] = true
			pos, ok := b.findGone(m, i)
			if !ok {
				return nil, false // (never: each indexed message is gone)
			}
			out = append(out, at{m, pos})
		}
	}
	slices.SortFunc(out, func(a, b at) int { return cmp.Compare(a.pos, b.pos) })
	msgs := make([]*model.Message, len(out))
	for k, a := range out {
		msgs[k] = a.m
	}
	return msgs, true
}

// nearIndexAfter is how many values scan a message gone before it is
// indexed for nearest: indexing a result costs some tens of scans of it
// (every form's deletions), so a message only a few values ask of is
// scanned, and one that many ask of is indexed once (a variable for the
// tests, which index every message at once).
var nearIndexAfter = 64

// nearVariantMax is the longest form, in runes, indexed by its
// deletions; a longer one is listed by its length and compared with the
// values of about that length.
const nearVariantMax = 20

// nearIndex is the tool results of one goneAt that nearest looks in,
// by their distinct forms: a form within k edits (optimal string
// alignment) of a value shares with it a string both reach by at most k
// deletions — a substitution or a swap deletes one character on each
// side, an insertion one on one side —, so each form is indexed under
// every string it reaches by at most MaxNear deletions, and a value
// looks up those it reaches by at most its own limit. The forms met
// there are then measured, and only the earliest message (in the order
// of the messages gone) holding one at the least distance is asked what
// the scan asked.
//
// The deletion strings are kept as their hashes, and the forms under
// each as a chain in two flat slices: a long run indexes millions of
// them, and strings and a slice per string made the index most of what
// the collector walked and the hash map's growth most of the time. A
// hash two strings share only adds forms to measure, never hides one.
type nearIndex struct {
	pending []pendingNear // not indexed yet: scanned by each value
	asked   int           // values looked up so far
	ids     map[string]int32
	forms   []nearForm
	hash    polyHasher
	heads   chainHeads      // deletion hash → its last entry in post, +1
	post    []int32         // form id<<2 | deletions
	prev    []int32         // the entry before in its chain, +1 (0: none)
	long    map[int][]int32 // longer forms by their length in runes
	// made once and reused: one form's or value's deletions, and which
	// forms one lookup has measured (seen[id] == pass)
	dels []deletion
	seen []uint32
	pass uint32
}

type pendingNear struct {
	m     *model.Message
	since int // asked when it joined
}

// nearForm is one distinct form and the earliest message gone holding it.
type nearForm struct {
	s     string
	first *model.Message
}

func newNearIndex() *nearIndex {
	return &nearIndex{ids: map[string]int32{}, hash: polyHasher{base: polyBase()}, long: map[int][]int32{}}
}

// formsOf is tool result m's forms (evidence.Forms), made once.
func (b *Book) formsOf(m *model.Message, view evidence.View) []string {
	if b.forms == nil {
		b.forms = map[*model.Message][]string{}
	}
	forms, ok := b.forms[m]
	if !ok {
		forms = evidence.Forms(m, view)
		b.forms[m] = forms
	}
	return forms
}

// nearLooks reports whether nearest looks in m.
func nearLooks(m *model.Message) bool {
	return m.Role == model.RoleTool && len(m.Content) <= nearestMaxContent
}

// addNear adds m, a message that joined the messages gone, to x when
// they are indexed already.
func addNear(x *nearIndex, m *model.Message) {
	if x != nil && nearLooks(m) {
		x.pending = append(x.pending, pendingNear{m: m, since: x.asked})
	}
}

// nearAt is the index of the messages gone at call i (b.last), made when
// first asked; nil when b.last is not gone.
func (b *Book) nearAt(i int, gone []*model.Message) *nearIndex {
	if b.last.call != i || len(b.last.msgs) != len(gone) || (len(gone) > 0 && &b.last.msgs[0] != &gone[0]) {
		return nil
	}
	if b.last.near == nil {
		x := newNearIndex()
		for _, m := range b.last.msgs {
			addNear(x, m)
		}
		b.last.near = x
	}
	return b.last.near
}

// index adds m's forms to x (call i: the order of the messages gone is
// b.last's).
func (b *Book) indexNear(x *nearIndex, i int, m *model.Message, view evidence.View) {
	pos, _ := b.findGone(m, i)
	for _, s := range b.formsOf(m, view) {
		if id, ok := x.ids[s]; ok {
			if p, _ := b.findGone(x.forms[id].first, i); pos < p {
				x.forms[id].first = m
			}
			continue
		}
		id := int32(len(x.forms))
		x.ids[s] = id
		x.forms = append(x.forms, nearForm{s: s, first: m})
		r := []rune(s)
		if len(r) > nearVariantMax {
			x.long[len(r)] = append(x.long[len(r)], id)
			continue
		}
		for _, d := range x.deletions(r, evidence.MaxNear) {
			x.post = append(x.post, id<<2|int32(d.k))
			x.prev = append(x.prev, x.heads.push(d.h, int32(len(x.post))))
		}
	}
}

// deletionMix is the last step of a deletion string's hash (a variable
// for the test that makes most of them share one).
var deletionMix = mix

// deletion is a string reached by deleting runes, as its hash, and the
// fewest deletions that reach it.
type deletion struct {
	h uint64
	k uint8
}

// deletions is every string r reaches by deleting at most k (≤ 2) of its
// runes, each with the deletions that reach it (in x.dels, valid until
// the next call). A string reached by deleting either of two equal
// runes side by side is listed once for them; one reached both by fewer
// and by more deletions is listed twice (a lookup keeps the fewer).
func (x *nearIndex) deletions(r []rune, k int) []deletion {
	out := x.dels[:0]
	p := &x.hash
	p.load(r)
	n := len(r)
	out = append(out, deletion{deletionMix(p.pre[n]), 0})
	if k >= 1 {
		for a := range n {
			if a > 0 && r[a] == r[a-1] {
				continue // as deleting a-1
			}
			out = append(out, deletion{deletionMix(p.join(p.pre[a], p.span(a+1, n), n-1-a)), 1})
		}
	}
	if k >= 2 {
		for a := range n {
			if a > 0 && r[a] == r[a-1] {
				continue // as deleting a-1 and c
			}
			for c := a + 1; c < n; c++ {
				if c > a+1 && r[c] == r[c-1] {
					continue // as deleting a and c-1
				}
				h := p.join(p.join(p.pre[a], p.span(a+1, c), c-a-1), p.span(c+1, n), n-1-c)
				out = append(out, deletion{deletionMix(h), 2})
			}
		}
	}
	x.dels = out
	return out
}

// nearGone is what nearest's scan of the messages gone at call i finds
// for the never-read v within limit edits: the first message at the
// least distance, its form and the distance; false for none. sure is
// false when the index and the scan would disagree (never: every form of
// every indexed message is under its deletions): the caller scans.
func (b *Book) nearGone(i int, x *nearIndex, v string, limit int, view evidence.View) (m *model.Message, form string, dist int, found, sure bool) {
	type hit struct {
		m   *model.Message
		d   int
		pos int
	}
	var best *hit
	consider := func(m *model.Message, d int) {
		pos, _ := b.findGone(m, i)
		if best == nil || d < best.d || d == best.d && pos < best.pos {
			best = &hit{m, d, pos}
		}
	}
	x.asked++
	keep := x.pending[:0]
	var ripe []*model.Message
	for _, p := range x.pending {
		b.goneAsked++
		if _, d, ok := evidence.NearestForm(v, b.formsOf(p.m, view), limit); ok {
			consider(p.m, d)
		}
		if x.asked-p.since >= nearIndexAfter {
			ripe = append(ripe, p.m)
		} else {
			keep = append(keep, p)
		}
	}
	x.pending = keep
	r := []rune(v)
	if len(x.seen) < len(x.forms) {
		x.seen = append(x.seen, make([]uint32, len(x.forms)-len(x.seen))...)
	}
	x.pass++
	if x.pass == 0 { // wrapped: no stamp is of this pass
		clear(x.seen)
		x.pass = 1
	}
	measure := func(id int32) {
		if x.seen[id] == x.pass {
			return
		}
		x.seen[id] = x.pass
		f := x.forms[id]
		if d := evidence.Distance(v, f.s, limit); d <= limit {
			consider(f.first, d)
		}
	}
	for _, d := range x.deletions(r, limit) {
		for e := x.heads.get(d.h); e != 0; e = x.prev[e-1] {
			if p := x.post[e-1]; int(p&3) <= limit {
				measure(p >> 2)
			}
		}
	}
	for n := max(len(r)-limit, nearVariantMax+1); n <= len(r)+limit; n++ {
		for _, id := range x.long[n] {
			measure(id)
		}
	}
	for _, m := range ripe { // (after: what it holds was scanned above)
		b.indexNear(x, i, m, view)
	}
	if best == nil {
		return nil, "", 0, false, true
	}
	form, d, ok := evidence.NearestForm(v, b.formsOf(best.m, view), limit)
	if !ok || d != best.d {
		return nil, "", 0, false, false
	}
	return best.m, form, d, true, true
}
