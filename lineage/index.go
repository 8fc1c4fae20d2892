package lineage

import (
	"container/heap"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// The candidates a fresh run may continue are found by index, not by
// testing every earlier run: a log of 16,000 follow-ups would test
// 128 million pairs. Runs whose carried history (what a follow-up of them
// starts from, before the request) is the same, message for message, are
// one class: Explains gives every member the same answer, so it is asked
// once per class. A class is filed under what any first window it
// explains must share with it (§10.7: one contiguous span of pre left,
// and at most one notice took its place):
//
//   - the message before the request (the span left from the middle, or
//     nothing left): the carried history's last message (byTail);
//   - the span left up to the request itself, so the message before the
//     request is a notice naming n, or is the carried history's message
//     just before the span (byPrefix: every prefix of the carried history;
//     byLen when nothing of it is left, W1 = [notice(n), request]);
//   - resumeOnError's form, offered only to a run with the same request
//     text: by that text (byRequest).
//
// A run joins the index once its end (its turn_end, or its last event) is
// before the first event of the run being linked, so the index holds the
// candidates of §10.7 and §14.4 and no other.

// class is one carried history and the runs that carry it, in order of
// their end; free finds the latest member not continued yet.
type class struct {
	agent   *model.Agent
	form    Form
	carried []*model.Message
	members []int // indices in Recording.Runs
	ends    []int
	free    []int  // union-find: the latest member at or before k not continued, -1 for none
	gone    []bool // resumed after it was filed: no candidate any more (§14.4)
	live    int    // members not gone
}

type tailKey struct {
	agent *model.Agent
	h     uint64
}

type prefixKey struct {
	agent *model.Agent
	n     int
	h     uint64
}

type lenKey struct {
	agent *model.Agent
	n     int
}

// textKey is an agent and a text: a request, a toolCallId.
type textKey struct {
	agent *model.Agent
	text  string
}

type classKey struct {
	agent *model.Agent
	form  Form
	h     uint64
}

// member is where one run is filed: its class and place there.
type member struct {
	c *class
	k int
}

type index struct {
	seed      maphash.Seed
	hashes    map[*model.Message]uint64
	classes   map[classKey][]*class
	byTail    map[tailKey][]*class
	byPrefix  map[prefixKey][]*class
	byLen     map[lenKey][]*class
	byRequest map[textKey][]*class
	filed     map[int][]member  // each run's places, to mark it continued
	pending   endHeap           // runs linked but not yet ended before the run being linked
	paused    map[textKey][]int // paused runs by the toolCallId they wait on (§10.7 rule 1)
}

func newIndex() *index {
	return &index{seed: maphash.MakeSeed(), hashes: map[*model.Message]uint64{}, classes: map[classKey][]*class{},
		byTail: map[tailKey][]*class{}, byPrefix: map[prefixKey][]*class{}, byLen: map[lenKey][]*class{},
		byRequest: map[textKey][]*class{}, filed: map[int][]member{}, paused: map[textKey][]int{}}
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

// step extends a hash of messages by one more.
func step(h, m uint64) uint64 {
	h ^= m + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h * 0xff51afd7ed558ccd
}

// seqHash hashes a whole message sequence.
func (x *index) seqHash(ms []*model.Message) uint64 {
	h := uint64(len(ms))
	for _, m := range ms {
		h = step(h, x.hash(m))
	}
	return h
}

// file puts run i, of end end, into the class of its carried history.
func (x *index) file(i int, a *model.Agent, form Form, carried []*model.Message, request string, end int) {
	k := classKey{a, form, x.seqHash(carried)}
	var c *class
	for _, have := range x.classes[k] {
		if sameMessages(have.carried, carried) {
			c = have
			break
		}
	}
	if c == nil {
		c = &class{agent: a, form: form, carried: carried}
		x.classes[k] = append(x.classes[k], c)
		x.fileClass(c, request)
	}
	c.members = append(c.members, i)
	c.ends = append(c.ends, end)
	c.free = append(c.free, len(c.members)-1)
	c.gone = append(c.gone, false)
	c.live++
	x.filed[i] = append(x.filed[i], member{c, len(c.members) - 1})
}

// fileClass files a new class under the keys a first window it explains
// shares with it.
func (x *index) fileClass(c *class, request string) {
	if c.form == Reentered {
		k := textKey{c.agent, request}
		x.byRequest[k] = append(x.byRequest[k], c)
		return
	}
	n := len(c.carried)
	if n == 0 {
		return
	}
	tk := tailKey{c.agent, x.hash(c.carried[n-1])}
	x.byTail[tk] = append(x.byTail[tk], c)
	lk := lenKey{c.agent, n}
	x.byLen[lk] = append(x.byLen[lk], c)
	h := uint64(0)
	for t := 1; t < n; t++ {
		h = step(h, x.hash(c.carried[t-1]))
		pk := prefixKey{c.agent, t, h}
		x.byPrefix[pk] = append(x.byPrefix[pk], c)
	}
}

// candidates are the classes that may explain w1, the first window of a
// run of agent a with request request: each at most once.
func (x *index) candidates(a *model.Agent, w1 []*model.Message, request string) []*class {
	var out []*class
	seen := map[*class]bool{}
	add := func(cs []*class) {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	add(x.byRequest[textKey{a, request}])
	w := len(w1)
	if w < 2 {
		return out
	}
	add(x.byTail[tailKey{a, x.hash(w1[w-2])}])
	h, hBefore := uint64(0), uint64(0)
	for t := 1; t < w; t++ {
		hBefore = h
		h = step(h, x.hash(w1[t-1]))
	}
	add(x.byPrefix[prefixKey{a, w - 1, h}]) // the span left just before the request, silently
	if n, ok := noticeCount(w1[w-2]); ok {
		if w == 2 {
			add(x.byLen[lenKey{a, n}]) // all of the carried history left
		} else {
			add(x.byPrefix[prefixKey{a, w - 2, hBefore}])
		}
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

// latest is the class's latest member not continued yet, else its latest
// member not gone (resumed since it was filed); fresh says which, and k
// is -1 when every member is gone.
func (c *class) latest() (k int, fresh bool) {
	if f := c.find(len(c.members) - 1); f >= 0 {
		return f, true
	}
	for k = len(c.members) - 1; k >= 0 && c.gone[k]; k-- {
	}
	return k, false
}

func (c *class) find(k int) int {
	r := k
	for r >= 0 && c.free[r] != r {
		r = c.free[r]
	}
	for k != r {
		k, c.free[k] = c.free[k], r
	}
	return r
}

// continued marks run i as continued by a follow-up, in every class it is
// filed in; gone, also as no candidate at all.
func (x *index) continued(i int, gone bool) {
	for _, m := range x.filed[i] {
		if m.c.free[m.k] == m.k {
			m.c.free[m.k] = m.k - 1
		}
		if gone && !m.c.gone[m.k] {
			m.c.gone[m.k] = true
			m.c.live--
		}
	}
}

func sameMessages(a, b []*model.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !model.SameText(a[i], b[i]) {
			return false
		}
	}
	return true
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

func (x *index) wait(run, end int) { heap.Push(&x.pending, pendingRun{end, run}) }

// ready pops the runs that end before first, in order of their end.
func (x *index) ready(first int, file func(run int)) {
	for len(x.pending) > 0 && x.pending[0].end < first {
		file(heap.Pop(&x.pending).(pendingRun).run)
	}
}
