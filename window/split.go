package window

import (
	"reflect"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// A long run is replayed on two goroutines: a knob key at call 50,000 of
// one run would otherwise wait for 50,000 visits in a row. The window at a call depends on every visit
// before it, but a window forgets: two histories that differ only in
// turns that have since left are the same history. So while the run's
// first half is replayed from its start, its second half is replayed
// from a guess of the state some calls before it — the state a replay of
// the same run under another policy had there (RunNear), or the window
// the library recorded there (inference's first candidate: under the
// policy that made it, the very state the first half reaches) — and the
// calls
// of the second half are taken from the first call where the two states
// are the same: the same history, the same last records, the same
// reading, so every visit from there on is the one a replay from the
// start makes. Where they never become the same, the first half goes on
// to the run's end alone: the answer is the same either way, only the
// time differs.

// splitMin is the fewest calls a run must have to be split; splitWarm is
// how many calls the second half replays before its first call of its
// own, to forget its guess. Tests set them lower.
var (
	splitMin  = 4096
	splitWarm = 256
	// splitProbe: the calls replayed on one goroutine before the second
	// half starts
	splitProbe = 64
	// splitTaken, when set, is told the call of the run from which the
	// second half's calls were taken (for the tests)
	splitTaken func(call int)
	// splitStreamed, when set, is told each time the first half has
	// stepped the turn log over every call of the second while it ran,
	// with how many made messages it read as its own (for the tests)
	splitStreamed func(aliased int)
	// splitLogWhole: the first half begins the turn log over all its
	// calls, the second half done or not (for the tests)
	splitLogWhole bool
	// splitHalves, when set, is told how long after the split began each
	// half made its last call (for the benchmarks: the halves' imbalance)
	splitHalves func(first, second time.Duration)
	// splitFirstWaits: the first half makes its calls after the second
	// half has made all of its own, which then steps the turn log over
	// the first half's as they are made (for the tests)
	splitFirstWaits bool
	// splitFollowed, when set, is told each time a second half has
	// stepped the turn log over every call of the first (for the tests)
	splitFollowed func()
)

// RunNearUntil is RunFolds, told a replay of the same recording under
// another policy (near, nil for none): its long runs are replayed on two
// goroutines, the second half starting from what near had there. The
// answer is RunFolds's. Every message of rec and near must have been
// measured (Message.Chars), as the loader does, since two goroutines
// read them. It gives up as soon as quit is set (a newer knob key made
// the replay moot): then it returns nil. It also runs along (when not
// nil) on the replay, on a goroutine of its own, while the replay's turn
// log and ledger index are built: both halves are done by then, and the
// second core would wait. along may read the calls, never the log or a
// ledger; it is not run on a replay given up.
func RunNearUntil(rec *model.Recording, lin *lineage.Lineage, p model.Policy, book *FoldBook, near *Replay, quit *atomic.Bool, along func(*Replay)) *Replay {
	r := runFolds(rec, lin, p, book, near, func(*CallReplay) bool { return quit.Load() })
	if quit.Load() {
		return nil
	}
	if along == nil {
		return r.built()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		along(r)
	}()
	r.built()
	<-done
	return r
}

// canSplit: splitting was asked for, the run is long, nothing learns
// from the replay, and no state but the chain's carries from call to
// call (summarize-oldest's latch is kept per conversation).
func (o replayOptions) canSplit(p model.Policy, run *model.Run) bool {
	return o.split && !o.learn && len(run.Calls) >= splitMin && p.Strategy != model.SummarizeOldest
}

// chainState is what a visit reads of its chain besides the history.
type chainState struct {
	records    [2]*model.Record
	nrecords   int
	reading    model.Usage
	readIter   int
	hasReading bool
	request    string
}

func (ch *chain) state() chainState {
	return chainState{ch.records, ch.nrecords, ch.reading, ch.readIter, ch.hasReading, ch.request}
}

// split replays every call of the run from ch on two goroutines (see
// above), appending them to out, and returns
// out with the chain as it is after the last call. Like runner.all, it
// stops after the first call for which stop is true (then stopped); stop
// sees the calls in order, each once, as runner.all shows them.
func (x *runner) split(ch *chain, mem *arena, near *Replay, stop func(*CallReplay) bool, out []CallReplay) (_ []CallReplay, _ *chain, stopped bool) {
	n := len(x.run.Calls)
	mid := (n + splitWarm) / 2
	from := mid - splitWarm
	base := len(out)
	// a replay that stops early (a candidate policy that misses a window)
	// mostly stops in its first calls: the second half, and the room for
	// every call, wait for those; one that stops only when given up (a
	// knob's) starts both halves at once
	probe := min(max(from, 0), splitProbe)
	if stop == nil || x.quit {
		probe = 0
	}
	x.tally = nil
	// each half tallies its own calls as it makes them (callTally): when
	// the second half's are taken from mid, the run's end need not read
	// 50,000 calls again
	var ta, tb callTally
	var notes, notesB *notes // of each half's calls (turnnotes.go)
	if x.note {
		notes, notesB = newNotes(mid), newNotes(n-mid)
	}
	for ci := range probe {
		out = append(out, CallReplay{})
		x.callInto(&out[base+ci], ch, ci, mem)
		ta.add(&out[base+ci], ci, n)
		if x.note {
			notes.noteAt(out, base+ci, ci)
		}
		if stop != nil && stop(&out[base+ci]) {
			return out, ch, true
		}
		ch.after(x.run.Calls[ci], out[base+ci].Visit.After, mem)
	}
	out = slices.Grow(out, n-probe)[:base+n]
	// the turn log is begun while the halves run by the goroutine that
	// ends its calls first: the first half's over its own calls, then
	// over the second's as they are made (streamLog); the second half's
	// over the first half's calls as they are made (followLog). logOwner
	// says which took it (0: neither yet, 1: the first, 2: the second).
	// reachedA: the first half's calls before it are written, with their
	// notes; ticksA come now and then; firstGone is closed once the first
	// half makes no more calls of its own (ended, given up, or failed).
	var (
		logOwner  atomic.Int32
		reachedA  atomic.Int64
		ticksA    = make(chan struct{}, 1)
		firstGone = make(chan struct{})
	)
	endFirst := sync.OnceFunc(func() { close(firstGone) })
	defer endFirst()
	logs := x.note && (stop == nil || x.quit) && base == 0 // (a replay given up is thrown away: its log with it)
	reachedA.Store(int64(probe))
	// one call of the first half; true when stop ends the replay there
	first := func(ci int) bool {
		out[base+ci] = CallReplay{} // the second half's, when it wrote one there
		x.callInto(&out[base+ci], ch, ci, mem)
		if ci < mid {
			ta.add(&out[base+ci], ci, n)
		}
		if x.note {
			notes.noteAt(out, base+ci, ci)
		}
		if ci < mid {
			reachedA.Store(int64(ci + 1))
			if (ci+1)%streamTick == 0 {
				select {
				case ticksA <- struct{}{}:
				default:
				}
			}
		}
		if stop != nil && stop(&out[base+ci]) {
			return true
		}
		ch.after(x.run.Calls[ci], out[base+ci].Visit.After, mem)
		return false
	}
	var b *chain
	if from >= 1 {
		b = x.guess(from, near, ch)
	}
	if b == nil {
		for ci := probe; ci < n; ci++ {
			if first(ci) {
				return out[:base+ci+1], ch, true
			}
		}
		return out, ch, false
	}
	// the second half writes its calls from mid on in place, and those
	// before (its warm-up) aside; the first half writes those before mid
	var t0, firstEnd, secondEnd time.Time
	if splitHalves != nil {
		t0 = time.Now()
		defer func() {
			if !firstEnd.IsZero() && !secondEnd.IsZero() {
				splitHalves(firstEnd.Sub(t0), secondEnd.Sub(t0))
			}
		}()
	}
	warm := make([]CallReplay, 0, splitWarm)
	states := make([]chainState, 0, n-mid)
	var failed, cancel atomic.Bool
	done := make(chan struct{})
	// what the first half may read of the second's while it runs
	// (streamLog): the calls before reached are written, with their
	// notes, and midState is its state before mid; ticks come now and then
	var (
		reached  atomic.Int64
		midState chainState
		ticks    = make(chan struct{}, 1)
		followed *logBuild // the log the second half began (followLog), read after done
		ownCalls = make(chan struct{})
	)
	go func() {
		defer close(done)
		defer func() {
			if recover() != nil {
				failed.Store(true) // the first half meets it again, on its own goroutine
			}
		}()
		bm := &arena{}
		for ci := from; ci < n && !cancel.Load(); ci++ {
			at := &out[base+ci]
			if ci < mid {
				warm = append(warm, CallReplay{})
				at = &warm[len(warm)-1]
			} else {
				states = append(states, b.state())
				if ci == mid {
					midState = states[0]
				}
			}
			*at = CallReplay{}
			x.callInto(at, b, ci, bm)
			if ci >= mid {
				tb.add(at, ci, n)
			}
			switch {
			case !x.note || ci < mid:
			case ci > mid:
				notesB.note(&out[base+ci-1], at)
			case len(warm) > 0:
				notesB.note(&warm[len(warm)-1], at)
			default:
				notesB.note(nil, at)
			}
			b.after(x.run.Calls[ci], at.Visit.After, bm)
			if ci >= mid {
				reached.Store(int64(ci + 1))
				if (ci-mid)%streamTick == 0 {
					select {
					case ticks <- struct{}{}:
					default:
					}
				}
			}
		}
		if splitHalves != nil {
			secondEnd = time.Now() // before done is closed: read after it
		}
		close(ownCalls)
		// ended before the first half: the log need not wait for it
		if logs && !cancel.Load() && !slowLog && !splitLogWhole && logOwner.CompareAndSwap(0, 2) {
			followed = x.followLog(out[base:base+mid], &reachedA, ticksA, firstGone)
		}
	}()
	if splitFirstWaits {
		<-ownCalls
	}
	for ci := probe; ci < mid; ci++ {
		if first(ci) {
			cancel.Store(true)
			endFirst()
			<-done
			return out[:base+ci+1], ch, true
		}
	}
	endFirst()
	if splitHalves != nil {
		firstEnd = time.Now()
	}
	if logs && logOwner.CompareAndSwap(0, 1) {
		x.part = x.beginLog(out[:mid], done)
		if x.part.upTo == mid && !slowLog {
			half := secondHalf{out: out, mid: mid, n: n, reached: &reached, midState: &midState, ticks: ticks, done: done}
			if same, k := x.streamLog(ch, half, stop); k >= 0 { // given up at call k: the calls from mid were taken
				cancel.Store(true)
				<-done
				x.part = nil
				remap(out[base+mid:base+k+1], b, same)
				notes.noteAt(out, base+mid, mid)
				return out[:base+k+1], b, true
			}
		}
	}
	<-done
	if followed != nil {
		x.part = followed
	}
	if failed.Load() && x.part != nil && x.part.upTo > mid {
		x.part = nil // stepped over calls the first half now makes again
	}
	for ci := mid; ci < n; ci++ {
		if !failed.Load() && !cancel.Load() {
			if same, ok := sameState(ch, out[base+ci].Visit.Before, states[ci-mid]); ok {
				if ci == mid {
					t := ta.then(tb)
					x.tally = &t
				}
				remap(out[base+ci:base+n], b, same)
				if x.note { // noted against the second half's call before it
					notes.noteAt(out, base+ci, ci)
				}
				if splitTaken != nil {
					splitTaken(ci)
				}
				for k := ci; k < n && stop != nil; k++ {
					if stop(&out[base+k]) {
						return out[:base+k+1], b, true
					}
				}
				return out, b, false
			}
		}
		if first(ci) {
			return out[:base+ci+1], ch, true
		}
	}
	return out, ch, false
}

// streamTick is how many calls the second half makes between two
// ticks to a first half waiting for them (streamLog).
const streamTick = 32

// secondHalf is what split's first half may read of the second while it
// runs: the calls of out before reached (from mid on) are written with
// their notes; midState is its state before call mid, once reached is
// past mid; done is closed when it has ended (every call made, or
// cancelled, or failed).
type secondHalf struct {
	out      []CallReplay
	mid, n   int
	reached  *atomic.Int64
	midState *chainState
	ticks    <-chan struct{}
	done     <-chan struct{}
}

// streamLog goes on with the turn log the first half began over its
// calls (x.part) over the second half's calls, as they are made, while
// the second half runs: the log then waits for nothing after the
// replay. It does so only where the second half's calls will be taken
// from mid (its state there is ch's, split's first test after the
// halves): the log is then the same as one stepped after the halves are
// joined, the second half's made messages (notices, frames) read as
// the chain's that say the same (remap does that to the calls after).
// Stop sees the second half's calls as it steps them, in order, each
// once: k is the first it is true for (-1: none), where the replay was
// given up (same then maps the second half's made messages to the
// chain's). Where the second half ends without every call (it failed, or
// the calls from mid are not taken), x.part is left at the first
// half's, stepped no further.
func (x *runner) streamLog(ch *chain, h secondHalf, stop func(*CallReplay) bool) (same map[*model.Message]*model.Message, k int) {
	for h.reached.Load() <= int64(h.mid) {
		select {
		case <-h.ticks:
		case <-h.done:
			if h.reached.Load() <= int64(h.mid) {
				return nil, -1
			}
		}
	}
	same, ok := sameState(ch, h.out[x.base+h.mid].Visit.Before, *h.midState)
	if !ok {
		return nil, -1
	}
	b := x.part
	b.alias = same
	defer func() { b.alias = nil }()
	for ci := h.mid; ci < h.n; {
		for r := int(h.reached.Load()); ci < r; ci++ {
			if stop != nil && stop(&h.out[x.base+ci]) {
				return same, ci
			}
			b.step(h.out[x.base:x.base+h.n], ci)
		}
		if ci == h.n {
			if splitStreamed != nil {
				splitStreamed(len(same))
			}
			break
		}
		select {
		case <-h.ticks:
		case <-h.done:
			if int(h.reached.Load()) == ci { // it ended short of the run's end
				x.part = nil
				return nil, -1
			}
		}
	}
	return same, -1
}

// newLog is an empty turn log (logpart.go) for the run's calls.
func (x *runner) newLog() *logBuild {
	n, lastID := len(x.run.Calls), 0
	for ci := n - 1; ci >= max(0, n-64) && lastID == 0; ci-- { // the last message the run added
		if a := x.run.Calls[ci].Appended; len(a) > 0 {
			lastID = a[len(a)-1].ID
		}
	}
	return newLogBuildIn(takeLogRoom(n), n, n, lastID)
}

// beginLog steps the turn log over the first half's calls until the
// second half is done (every call when splitLogWhole).
func (x *runner) beginLog(calls []CallReplay, done <-chan struct{}) *logBuild {
	b := x.newLog()
	for ci := range calls {
		if ci%32 == 0 && !splitLogWhole {
			select {
			case <-done:
				return b
			default:
			}
		}
		b.step(calls, ci)
	}
	return b
}

// followLog is the turn log begun on the second half's goroutine, once
// it has made its calls while the first half still makes its own: it
// steps the log over the first half's calls as they are made (those
// before reached; a tick now and then) until it has stepped all of
// them; the rest of the log then waits for nothing but the second
// half's calls. nil when the first half ended short of its calls
// (gone: given up).
func (x *runner) followLog(calls []CallReplay, reached *atomic.Int64, ticks, gone <-chan struct{}) *logBuild {
	b := x.newLog()
	for ci := 0; ci < len(calls); {
		for r := int(reached.Load()); ci < r; ci++ {
			b.step(calls, ci)
		}
		if ci == len(calls) {
			break
		}
		select {
		case <-ticks:
		case <-gone:
			if int(reached.Load()) == ci {
				return nil
			}
		}
	}
	if splitFollowed != nil {
		splitFollowed()
	}
	return b
}

// guess is a chain before call from of the run: the window near had
// after the call before (else the window the library recorded for it),
// with that call's messages; near's last two records; the reading of
// the last measured call. nil when neither window is known.
func (x *runner) guess(from int, near *Replay, base *chain) *chain {
	prev := x.run.Calls[from-1]
	var w []*model.Message
	k := -1
	if near != nil {
		k = sort.Search(len(near.Calls), func(i int) bool { return near.Calls[i].Call.Number >= prev.Number })
		if k < len(near.Calls) && near.Calls[k].Call == prev {
			w = near.Calls[k].Visit.After
		} else {
			k = -1
		}
	}
	if k < 0 {
		if w = x.fromRecorded(from-1, base.history); w == nil {
			return nil
		}
	}
	ch := &chain{request: base.request, window: w, last: prev,
		reading: base.reading, readIter: base.readIter, hasReading: base.hasReading}
	ch.history = append(append(make([]*model.Message, 0, len(w)+len(prev.Appended)), w...), prev.Appended...)
	var filed []*model.Record // newest first
	for i := k; i >= 0 && i > k-splitWarm && near.Calls[i].Run == x.run && len(filed) < 2; i-- {
		if r := near.Calls[i].Visit.Record; r != nil {
			filed = append(filed, r)
		}
	}
	for i := len(filed) - 1; i >= 0; i-- {
		ch.file(filed[i])
	}
	for ci := from - 1; ci >= 0; ci-- {
		if c := x.run.Calls[ci]; c.Measured {
			ch.reading, ch.readIter, ch.hasReading = c.Usage, c.Iteration, true
			break
		}
	}
	return ch
}

// fromRecorded is the window the library recorded for call ci, made of
// the history's own messages: the recorded messages, last to first, are
// matched by role and content to the latest like them among the history
// the run started from (seed) and what the calls before (the last
// 4×splitWarm) had delivered and added, in the history's order; a notice or a frame is made afresh,
// as a replay makes one. (A recorded window names its messages by their
// text only: the order tells apart two that say the same.) nil when the
// call has no recorded window or a message is not found.
func (x *runner) fromRecorded(ci int, seed []*model.Message) []*model.Message {
	c := x.run.Calls[ci]
	if c.Recorded == nil || c.Deliveries > len(c.Recorded) {
		return nil
	}
	older := slices.Clip(seed) // in the history's order
	for k := max(0, ci-4*splitWarm); k < ci; k++ {
		p := x.run.Calls[k]
		if p.Deliveries > 0 && p.Deliveries <= len(p.Recorded) {
			older = append(older, p.Recorded[len(p.Recorded)-p.Deliveries:]...)
		}
		older = append(older, p.Appended...)
	}
	kept := c.Recorded[:len(c.Recorded)-c.Deliveries]
	out := make([]*model.Message, len(c.Recorded))
	copy(out[len(kept):], c.Recorded[len(kept):]) // the deliveries are the recorded messages themselves
	j := len(older) - 1
	for i := len(kept) - 1; i >= 0; i-- {
		m := kept[i]
		if m.IsNotice() || m.IsFrame() {
			made := &model.Message{Role: m.Role, Content: m.Content}
			made.KnownChars(m.Chars())
			out[i] = made
			continue
		}
		for j >= 0 && !model.SameText(older[j], m) {
			j--
		}
		if j < 0 {
			return nil
		}
		out[i], j = older[j], j-1
	}
	return out
}

// sameState reports whether a chain is where the second half was before
// a call (its history before and its state st). The messages a replay
// made (drop notices, frames: no ID) are the same when they say the same;
// same maps the second half's to the chain's.
func sameState(ch *chain, before []*model.Message, st chainState) (map[*model.Message]*model.Message, bool) {
	if len(ch.history) != len(before) || ch.reading != st.reading || ch.readIter != st.readIter ||
		ch.hasReading != st.hasReading || ch.request != st.request || ch.nrecords != st.nrecords {
		return nil, false
	}
	var same map[*model.Message]*model.Message
	for i, a := range ch.history {
		b := before[i]
		if a == b {
			continue
		}
		if !sameMade(a, b) {
			return nil, false
		}
		if same == nil {
			same = map[*model.Message]*model.Message{}
		}
		same[b] = a
	}
	for i := range ch.nrecords {
		if a, b := ch.records[i], st.records[i]; a != b && !reflect.DeepEqual(*a, *b) {
			return nil, false
		}
	}
	return same, true
}

// sameMade: a and b are messages a replay made, and say the same.
func sameMade(a, b *model.Message) bool {
	return a.ID == 0 && b.ID == 0 && a.Role == b.Role && a.Content == b.Content &&
		a.ToolCallID == b.ToolCallID && a.ToolName == b.ToolName && a.InjectedBy == b.InjectedBy &&
		a.Ephemeral == b.Ephemeral && a.Placeholder == b.Placeholder &&
		len(a.ToolCalls) == 0 && len(b.ToolCalls) == 0 && a.ToolChars == nil && b.ToolChars == nil
}

// remap puts the chain's messages in place of the second half's that say
// the same, in the calls taken and the chain after them, until a window
// sent holds none of either (a message that left never comes back). A
// window may be the one before it extended in place (arena.extend): so
// whether a swap found one says nothing; what the window holds after it
// does.
func remap(calls []CallReplay, ch *chain, same map[*model.Message]*model.Message) {
	if len(same) == 0 {
		return
	}
	put := make(map[*model.Message]bool, len(same)) // the chain's, put in their place
	for _, to := range same {
		put[to] = true
	}
	swap := func(w []*model.Message) {
		for i, m := range w {
			if to, ok := same[m]; ok {
				w[i] = to
			}
		}
	}
	for i := range calls {
		v := &calls[i].Visit
		swap(v.Before)
		swap(v.After)
		swap(calls[i].made) // its turn notes' (turnnotes.go): of its Before
		if !slices.ContainsFunc(v.After, func(m *model.Message) bool { return put[m] }) {
			return
		}
	}
	swap(ch.history)
	swap(ch.window)
}
