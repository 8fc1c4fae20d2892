package lineage

import (
	"container/heap"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// The candidates a fresh run may continue are looked up, not found by
// testing every earlier run: a log of 16,000 follow-ups would test 128
// million pairs. A candidate P explains W1 when W1 is pre (P's carried
// history, then the request) with one contiguous span of it gone and at
// most one notice in its place (§10.7), so W1 names where the span was:
// right before the request (W1 ends with a prefix of P's carried history,
// or that and a notice), right before P's last message, or further back
// (then W1 ends with P's last two messages). Each run is filed under every
// such shape its carried history offers, keyed by hashes of the messages
// around the span and, where a notice names the count, by the history's
// length. A first window is looked up under the few shapes it has, and
// what it finds is checked with Explains itself.
//
// In the buckets of the first shapes every member explains W1 alike
// (same prefix, same length, the same last message): the one the tie rule
// prefers (the latest not continued yet, union-find) is checked, and the
// others are counted, not checked. Only the last shape is checked member
// by member: runs whose histories end with the same two messages. A run
// joins the index once its end (turn_end, or its last event) is before
// the first event of the run being linked, so the index holds the
// candidates of §10.7 and §14.4 and no other.

// shape is how a first window may keep a candidate's carried history.
type shape uint8

const (
	whole       shape = iota // all of it (a first window of two)
	silentTail               // a prefix of it, the rest gone silently
	noticeTail               // a prefix of it and a notice naming the rest
	silentLast               // a prefix and its last message, the span between gone silently
	noticeLast               // a prefix, a notice, its last message
	lastTwo                  // a prefix, maybe a notice, then a suffix of two or more: checked one by one
	sameRequest              // resumeOnError: its last iteration_end history, for the same request text
)

// exact: every member of a bucket of the shape explains a first window
// that finds it (unless a hash collided or a message repeats around the
// span, which the check of the one chosen catches).
func (s shape) exact() bool { return s < lastTwo }

// entry is one run as a candidate: the history it offers, its end, and
// the nodes it is filed at.
type entry struct {
	run     int
	end     int
	form    Form
	carried []*model.Message
	ph      []uint64 // prefix hashes of carried, made on first use
	nodes   []int32
	cont    bool // continued by a follow-up
	gone    bool // resumed after it was filed: no candidate any more (§14.4)
	// two: carried is the history before the run's last call, whose
	// window is not in the log (tier minimal): two visits lie between it
	// and a follow-up's first window (§16.3)
	two bool
}

// A bucket is the entries filed under one key, latest last: its nodes are
// chained by prev, newest first. A node's free finds the latest node of
// its bucket at or before it not continued yet (union-find, -1 for none).
type bucket struct {
	shape shape
	last  int32 // its newest node
	live  int32 // nodes not gone
}

type node struct {
	entry  *entry
	bucket int32
	prev   int32 // the bucket's node before it, -1 for none
	free   int32
}

// family is the buckets of one shape and prefix length of one agent's
// entries. The four shapes keyed by a prefix would file an entry at
// every prefix length; a family is built only once a first window asks
// for it (a log's first windows have few lengths), then kept up.
type family struct {
	agent *model.Agent
	shape shape
	t     int
}

type index struct {
	seed     maphash.Seed
	hashes   map[*model.Message]uint64
	agents   map[*model.Agent]uint64
	keys     map[uint64]int32 // a bucket's key, hashed: its number
	buckets  []bucket
	nodes    []node
	entries  map[*model.Agent][]*entry // an agent's entries of the followUp forms, in order of their end
	families map[*model.Agent][]family // the families built
	// two are the entries explained across two visits (only a log that
	// keeps no last windows, tier minimal, has them), in order of their
	// end, filed under each message they carry: at most two spans gone fit
	// no shape, but every message of a first window they explain that is
	// neither a notice, a frame nor the request is one of theirs (twoKey).
	// twoAll are each agent's, for a first window with no such message.
	two     map[twoKey][]*entry
	twoAll  map[*model.Agent][]*entry
	twoSeen map[uint64]struct{} // scratch: the hashes fileTwo has filed an entry under
	built   map[family]bool
	filed   map[int][]*entry  // each run's entries, to mark it continued or gone
	pending endHeap           // runs linked but not yet ended before the run being linked
	waiting map[int]int       // each pending run's end, as last queued
	paused  map[textKey][]int // paused runs by the toolCallId they wait on (§10.7 rule 1)
	prefix  []uint64          // scratch: prefix hashes
}

// twoKey is an agent and a message's hash (index.hash).
type twoKey struct {
	agent *model.Agent
	h     uint64
}

// textKey is an agent and a text: a toolCallId.
type textKey struct {
	agent *model.Agent
	text  string
}

func newIndex() *index {
	return &index{seed: maphash.MakeSeed(), hashes: map[*model.Message]uint64{}, agents: map[*model.Agent]uint64{},
		keys: map[uint64]int32{}, entries: map[*model.Agent][]*entry{}, families: map[*model.Agent][]family{}, two: map[twoKey][]*entry{}, twoAll: map[*model.Agent][]*entry{}, twoSeen: map[uint64]struct{}{},
		built: map[family]bool{}, filed: map[int][]*entry{}, paused: map[textKey][]int{}}
}

// hash is a message's role and content hashed: equal by model.SameText,
// equal hash.
func (x *index) hash(m *model.Message) uint64 {
	if h, ok := x.hashes[m]; ok {
		return h
	}
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteString(m.Role)
	h.WriteByte(0)
	h.WriteString(m.Content)
	s := h.Sum64()
	x.hashes[m] = s
	return s
}

func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h * 0xff51afd7ed558ccd
}

// key hashes a bucket's key: the agent, the shape, the prefix length, the
// history length a notice names, the prefix's and the last messages'
// hashes. A collision only puts an entry where a check of it fails.
func (x *index) key(a *model.Agent, s shape, t, n int, h1, h2 uint64) uint64 {
	ah, ok := x.agents[a]
	if !ok {
		ah = uint64(len(x.agents)+1) * 0x100000001b3
		x.agents[a] = ah
	}
	return mix(mix(mix(mix(mix(ah, uint64(s)), uint64(t)), uint64(n)), h1), h2)
}

// prefixes are the hashes of ms[:0] … ms[:n], in x.prefix.
func (x *index) prefixes(ms []*model.Message, n int) []uint64 {
	x.prefix = append(x.prefix[:0], 0)
	h := uint64(0)
	for _, m := range ms[:n] {
		h = mix(h, x.hash(m))
		x.prefix = append(x.prefix, h)
	}
	return x.prefix
}

// file puts run i, ending at end, among the candidates, in one form.
func (x *index) file(i int, a *model.Agent, form Form, carried []*model.Message, request string, end int) {
	e := &entry{run: i, end: end, form: form, carried: carried}
	x.filed[i] = append(x.filed[i], e)
	if form == Reentered {
		x.add(x.key(a, sameRequest, 0, 0, maphash.String(x.seed, request), 0), sameRequest, e)
		return
	}
	c := len(carried)
	if c == 0 {
		return
	}
	x.entries[a] = append(x.entries[a], e)
	x.add(x.key(a, whole, 0, c, x.seqHash(carried), 0), whole, e)
	if c >= 2 {
		x.add(x.key(a, lastTwo, 0, 0, x.hash(carried[c-2]), x.hash(carried[c-1])), lastTwo, e)
	}
	for _, f := range x.families[a] {
		x.fileIn(f, e)
	}
}

// fileTwo puts run i, ending at end, among the candidates as a run whose
// last window is unknown: carried is the history before its last call,
// then its answer.
func (x *index) fileTwo(i int, a *model.Agent, carried []*model.Message, end int) {
	e := &entry{run: i, end: end, form: Answered, carried: carried, two: true}
	x.filed[i] = append(x.filed[i], e)
	x.twoAll[a] = append(x.twoAll[a], e)
	clear(x.twoSeen)
	for _, m := range carried {
		key := twoKey{a, x.hash(m)}
		if _, dup := x.twoSeen[key.h]; dup || isMarker(m) {
			continue // a notice or a frame is never the key; a message carried twice is filed once
		}
		x.twoSeen[key.h] = struct{}{}
		x.two[key] = append(x.two[key], e)
	}
}

func (x *index) seqHash(ms []*model.Message) uint64 {
	h := uint64(0)
	for _, m := range ms {
		h = mix(h, x.hash(m))
	}
	return h
}

// fileIn files e in family f, if its carried history has that shape.
func (x *index) fileIn(f family, e *entry) {
	c, t := len(e.carried), f.t
	if t >= c || f.shape == silentTail && t == 0 || (f.shape == silentLast || f.shape == noticeLast) && t >= c-1 {
		return
	}
	if e.ph == nil {
		e.ph = append([]uint64(nil), x.prefixes(e.carried, c)...)
	}
	last := x.hash(e.carried[c-1])
	switch f.shape {
	case silentTail:
		x.add(x.key(f.agent, silentTail, t, 0, e.ph[t], 0), silentTail, e)
	case noticeTail:
		x.add(x.key(f.agent, noticeTail, t, c, e.ph[t], 0), noticeTail, e)
	case silentLast:
		x.add(x.key(f.agent, silentLast, t, 0, e.ph[t], last), silentLast, e)
	case noticeLast:
		x.add(x.key(f.agent, noticeLast, t, c, e.ph[t], last), noticeLast, e)
	}
}

// family builds family f over the entries filed so far, once.
func (x *index) family(f family) {
	if x.built[f] {
		return
	}
	x.built[f] = true
	x.families[f.agent] = append(x.families[f.agent], f)
	for _, e := range x.entries[f.agent] {
		x.fileIn(f, e)
	}
}

func (x *index) add(k uint64, s shape, e *entry) {
	b, ok := x.keys[k]
	if !ok {
		b = int32(len(x.buckets))
		x.keys[k] = b
		x.buckets = append(x.buckets, bucket{shape: s, last: -1})
	}
	n := int32(len(x.nodes))
	nd := node{entry: e, bucket: b, prev: x.buckets[b].last, free: n}
	if e.cont {
		nd.free = nd.prev
	}
	x.nodes = append(x.nodes, nd)
	x.buckets[b].last = n
	if !e.gone {
		x.buckets[b].live++
	}
	e.nodes = append(e.nodes, n)
}

// lookups are the buckets w1, the first window of a run of agent a with
// request req, finds candidates in.
func (x *index) lookups(a *model.Agent, w1 []*model.Message, req *model.Message) []int32 {
	var out []int32
	get := func(k uint64) {
		if b, ok := x.keys[k]; ok && x.buckets[b].live > 0 {
			out = append(out, b)
		}
	}
	get(x.key(a, sameRequest, 0, 0, maphash.String(x.seed, req.Content), 0))
	w := len(w1)
	if w < 2 || !model.SameText(w1[w-1], req) {
		return out // the followUp forms end with the request
	}
	x.family(family{a, silentTail, w - 1})
	x.family(family{a, silentLast, w - 2})
	n2, notice2 := noticeCount(w1[w-2])
	if notice2 {
		x.family(family{a, noticeTail, w - 2})
	}
	n3, notice3 := 0, false
	if w >= 3 {
		if n3, notice3 = noticeCount(w1[w-3]); notice3 {
			x.family(family{a, noticeLast, w - 3})
		}
	}
	ph := x.prefixes(w1, w-1)
	last := x.hash(w1[w-2])
	if w == 2 {
		get(x.key(a, whole, 0, 1, ph[1], 0))
	}
	get(x.key(a, silentTail, w-1, 0, ph[w-1], 0))
	get(x.key(a, silentLast, w-2, 0, ph[w-2], last))
	if notice2 {
		get(x.key(a, noticeTail, w-2, w-2+n2, ph[w-2], 0))
	}
	if w >= 3 {
		if notice3 {
			get(x.key(a, noticeLast, w-3, w-3+n3+1, ph[w-3], last))
		}
		get(x.key(a, lastTwo, 0, 0, x.hash(w1[w-3]), last))
	}
	return out
}

// noticeCount is the count a drop notice or compaction frame names.
func noticeCount(m *model.Message) (int, bool) {
	if m.Role != model.RoleUser {
		return 0, false
	}
	rest, ok := strings.CutPrefix(m.Content, "[dropped history — ")
	if !ok {
		if rest, ok = strings.CutPrefix(m.Content, "[compacted history — "); !ok {
			return 0, false
		}
	}
	digits, _, ok := strings.Cut(rest, " earlier message(s)")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// latest is bucket b's latest node not continued yet, else its latest
// node not gone; fresh says which, and k is -1 when every node is gone.
func (x *index) latest(b int32) (k int32, fresh bool) {
	last := x.buckets[b].last
	if k = x.find(last); k >= 0 {
		return k, true
	}
	for k = last; k >= 0 && x.nodes[k].entry.gone; k = x.nodes[k].prev {
	}
	return k, false
}

// find is the latest node of k's bucket at or before k not continued
// yet, -1 for none.
func (x *index) find(k int32) int32 {
	r := k
	for r >= 0 && x.nodes[r].free != r {
		r = x.nodes[r].free
	}
	for k != r {
		k, x.nodes[k].free = x.nodes[k].free, r
	}
	return r
}

// continued marks run i as continued by a follow-up wherever it is filed;
// gone, also as no candidate at all.
func (x *index) continued(i int, gone bool) {
	for _, e := range x.filed[i] {
		for _, k := range e.nodes {
			n := &x.nodes[k]
			if n.free == k {
				n.free = n.prev
			}
			if gone && !e.gone {
				x.buckets[n.bucket].live--
			}
		}
		e.cont = true
		e.gone = e.gone || gone
	}
}

// endHeap holds runs by the event they end at (turn_end, else last event).
type endHeap []pendingRun

type pendingRun struct{ end, run int }

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(i, j int) bool {
	return h[i].end < h[j].end || h[i].end == h[j].end && h[i].run < h[j].run
}
func (h endHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(v any)   { *h = append(*h, v.(pendingRun)) }
func (h *endHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

func (x *index) wait(run, end int) {
	if x.waiting == nil {
		x.waiting = map[int]int{}
	}
	x.waiting[run] = end
	heap.Push(&x.pending, pendingRun{end, run})
}

// ready files the runs that end before first, in order of their end; a
// run queued again (grow.go) is filed at its latest end only.
func (x *index) ready(first int, file func(run int)) {
	for len(x.pending) > 0 && x.pending[0].end < first {
		p := heap.Pop(&x.pending).(pendingRun)
		if end, ok := x.waiting[p.run]; ok && end == p.end {
			delete(x.waiting, p.run)
			file(p.run)
		}
	}
}
