package window

import (
	"fmt"
	"strconv"

	"github.com/afinspect/inspect/model"
)

// Fate is what a turn of the conversation is at one call, in the words the
// inspector shows.
type Fate string

// The fates a turn can have at a call.
const (
	FateAnchor  Fate = "anchor"  // holds the current request
	FatePinned  Fate = "pinned"  // holds a tool's latest result, admitted as a pin
	FateRecent  Fate = "recent"  // inside keepRecentTurns
	FateKept    Fate = "kept"    // stayed for another reason (named in Reason)
	FateEvicted Fate = "evicted" // left the window at this call's head
	FateGone    Fate = "gone"    // left at an earlier call
	FateNotice  Fate = "notice"  // a drop notice the library wrote
	FateNew     Fate = "new"     // appended since the previous call
	// summarize-oldest (§11)
	FateFolded  Fate = "folded"  // left at this call's head, folded into a summary frame
	FateSummary Fate = "summary" // a compaction frame: a summary a model wrote of folded turns
)

// Row is one turn of the conversation so far, at one call.
type Row struct {
	Key      string // stable across replays of one recording (notices: by the call that wrote them)
	Messages []*model.Message
	Fate     Fate
	Reason   string // the refusal reason that kept it, when one did
	PinTool  string // for FatePinned: the tool whose latest result it holds
	Sent     bool   // the model was sent this turn on this call
	Turn     int    // its index in the window before this call's visit; -1 when not there
	LeftAt   int    // call index at which it left; -1 while it has not
	First    int    // call index whose window first held it (a notice: the call that wrote it)
	WroteAt  int    // for notices and frames: the call index whose visit wrote it; -1 otherwise
	// Placeholder: the turn is a compaction frame the replay made for a
	// fold the library never made. Its summary is not known, and it was
	// never sent (Sent is false).
	Placeholder bool
}

type logEntry struct {
	key         string // Row.Key, named once per replay
	placeholder bool   // head().Placeholder, kept here: Ledger reads no message of a gone turn
	msgs        []*model.Message
	first       int32 // call index whose Before first held it (or whose visit wrote it)
	left        int32
	wroteAt     int32
}

// Ledger lists every turn of the conversation up to call (0-based), in
// the order the conversation made them, including turns that left earlier
// and the notices written in their place, each with its fate at call.
// Most turns of a long run are gone: each is listed as the log has it,
// and only the turns of call's window (and a notice it wrote) are looked
// at further.
func (r *Replay) Ledger(call int) []Row {
	if call < 0 || call >= len(r.Calls) {
		return nil
	}
	return r.LedgerAt(call).Rows()
}

// fateAt names the fate of turn ti of call's window.
func (r *Replay) fateAt(call int, fates []TurnFate, ti int, row *Row) {
	v := &r.Calls[call].Visit
	tf := fates[ti]
	row.Reason, row.PinTool = tf.Reason, tf.PinTool
	row.Sent = !tf.Evicted && !row.Placeholder
	isNew := call > 0 && r.isNew(call, v.Before[tf.Start])
	holdsAnchor := v.Anchor >= tf.Start && v.Anchor < tf.Start+tf.Length
	switch {
	case tf.Folded:
		row.Fate, row.LeftAt = FateFolded, call
	case tf.Evicted:
		row.Fate, row.LeftAt = FateEvicted, call
	case holdsAnchor:
		row.Fate = FateAnchor
	case tf.Reason == model.ReasonLastToolResult || tf.PinTool != "":
		// an admitted pin holds it even where the refusal walk stopped
		// before reaching it (the library's record then does not name it)
		row.Fate = FatePinned
	case isNew:
		row.Fate = FateNew
	case tf.Notice && v.Before[tf.Start].IsFrame():
		row.Fate = FateSummary
	case tf.Notice:
		row.Fate = FateNotice
	case tf.Reason == model.ReasonInsideKeepWindow || (tf.Reason == "" && ti >= len(fates)-r.Policy.KeepRecentTurns):
		row.Fate = FateRecent
	default:
		row.Fate = FateKept
	}
}

// isNew: the message was not in the previous call's window (of its
// chain, where the conversation branches).
func (r *Replay) isNew(call int, m *model.Message) bool {
	j := call - 1
	if r.lines != nil && r.lines.branched {
		if j = r.lines.pred[call]; j < 0 {
			return false
		}
	}
	prev := r.Calls[j].Visit.After
	for _, p := range prev {
		if p == m {
			return false
		}
	}
	return true
}

// head is the turn's first message: its identity in this replay.
func (e *logEntry) head() *model.Message { return e.msgs[0] }

// name writes the key of e (Row.Key) to b: a turn by its first message's
// ID (the loader numbers every message; id is e.head().ID), a notice by the
// call that wrote it, so that every replay of one recording names a turn
// the same way.
func (e *logEntry) name(b []byte, id int) []byte {
	switch {
	case e.wroteAt >= 0:
		return strconv.AppendInt(append(b, "notice@"...), int64(e.wroteAt), 10)
	case id != 0:
		return strconv.AppendInt(append(b, 'm'), int64(id), 10)
	}
	return fmt.Appendf(b, "p%p", e.head()) // a hand-built message: the same object in every replay
}

// turnPlaces finds a turn of the log by its first message: by the
// message's ID (the loader numbers every message), a notice or a frame by
// the call that wrote it, a message built by hand (no ID) by the object.
type turnPlaces struct {
	byID  []int32 // message ID → place + 1; 0: none
	wrote []int32 // call index → the place of the notice or frame it wrote + 1
	hand  map[*model.Message]int32
}

// get is the place of the turn m starts, but for a notice or a frame
// (found through the call that wrote it).
func (t *turnPlaces) get(m *model.Message) (int, bool) {
	if m.ID > 0 {
		return t.ofID(m.ID)
	}
	i, ok := t.hand[m]
	return int(i), ok
}

// ofID is the place of the turn message id starts.
func (t *turnPlaces) ofID(id int) (int, bool) {
	if id > 0 && id < len(t.byID) && t.byID[id] > 0 {
		return int(t.byID[id]) - 1, true
	}
	return -1, false
}

// ofCall is the place of the notice or frame call wrote.
func (t *turnPlaces) ofCall(call int) (int, bool) {
	if call >= 0 && call < len(t.wrote) && t.wrote[call] > 0 {
		return int(t.wrote[call]) - 1, true
	}
	return -1, false
}

func (t *turnPlaces) set(m *model.Message, at int) {
	if m.ID <= 0 {
		if t.hand == nil {
			t.hand = map[*model.Message]int32{}
		}
		t.hand[m] = int32(at)
		return
	}
	t.setID(m.ID, at)
}

// setID is set for a message whose ID (> 0) is id.
func (t *turnPlaces) setID(id, at int) {
	if id >= len(t.byID) {
		t.byID = append(t.byID, make([]int32, id+1-len(t.byID)+len(t.byID)/2)...)
	}
	t.byID[id] = int32(at + 1)
}

// renumber maps every place through to.
func (t *turnPlaces) renumber(to []int32) {
	for _, s := range [][]int32{t.byID, t.wrote} {
		for i, v := range s {
			if v > 0 {
				s[i] = to[v-1] + 1
			}
		}
	}
	for m, v := range t.hand {
		t.hand[m] = to[v]
	}
}

// logNode is a turn of the log being built (its logEntry but the key),
// linked to the next.
type logNode struct {
	msgs                 []*model.Message
	first, left, wroteAt int32
	next                 int32
	key                  int32 // where its key ends in the keys written so far (it starts where the node before's ends)
	placeholder          bool
}

// logBuild is the turn log being built, call by call.
type logBuild struct {
	nodes   []logNode // nodes[0] is the list head
	tail    int32
	at      turnPlaces // a turn's first message → its node
	written []int32    // the nodes of notices and frames, in the order written
	keys    []byte
	one     []*model.Message // the messages of notices and frames, one each (of written)
	prev    int              // the call stepped last; -1 before the first
	upTo    int              // how many calls were stepped
	calls   int              // how many calls the replay has
	// alias, while a split's second half is stepped before it is joined
	// (streamLog): its made messages → the first half's that say the same
	alias map[*model.Message]*model.Message
	room  *logRoom // where its memory came from, and finish's will
}

// find is the node of the turn m starts, -1 when none yet. A notice in
// a window is one written lately: they are looked for from the last.
func (b *logBuild) find(m *model.Message) int32 {
	if i, ok := b.at.get(m); ok {
		return int32(i)
	}
	if m.ID > 0 {
		return -1
	}
	for i := len(b.one) - 1; i >= 0; i-- {
		if b.one[i] == m {
			return b.written[i]
		}
	}
	return -1
}

// add appends e after node after (the tail when after < 0); id is
// e.head().ID, and e.placeholder is set.
func (b *logBuild) add(e logEntry, after int32, id int) int32 {
	b.keys = e.name(b.keys, id)
	n := int32(len(b.nodes))
	if after < 0 {
		after = b.tail
	}
	b.nodes = append(b.nodes, logNode{msgs: e.msgs, first: e.first, left: e.left, wroteAt: e.wroteAt, placeholder: e.placeholder,
		next: b.nodes[after].next, key: int32(len(b.keys))})
	b.nodes[after].next = n
	if b.tail == after {
		b.tail = n
	}
	return n
}

// turnLog is every turn the conversation ever had, in conversation
// order: new turns at the end, a notice or a summary frame right after
// the span it replaced. It is built once per replay (buildTurnLog), by
// whichever goroutine asks first.
func (r *Replay) turnLog() []logEntry {
	r.logOnce.Do(r.buildTurnLog)
	return r.log
}

// built builds the turn log and the ledger index of a replay made for a
// screen, on the goroutine that made it, before it is shared.
func (r *Replay) built() *Replay {
	r.ledgerIndex()
	for _, v := range r.views {
		v.ledgerIndex()
	}
	return r
}

// buildTurnLog builds the turn log; where the conversation branches, it
// also builds the log of each line's chain (lines.go), which its calls'
// ledgers read.
func (r *Replay) buildTurnLog() {
	r.lines = linesOf(r)
	if b := r.part; b != nil && b.calls == len(r.Calls) { // begun while the replay ran (split.go)
		for ci := b.upTo; ci < len(r.Calls); ci++ {
			b.step(r.Calls, ci)
		}
		r.log, r.places, r.begun = b.finish()
	} else {
		r.log, r.places, r.begun = r.buildLog(nil)
	}
	r.part = nil
	if r.lines.branched {
		r.views = r.lineViews()
	}
}

// buildLog is the turn log of the calls order names, in that order (nil:
// every call). Entries are linked so an insertion costs nothing.
func (r *Replay) buildLog(order []int) ([]logEntry, turnPlaces, *ledgerIndex) {
	n := len(r.Calls)
	if order != nil {
		n = len(order)
	}
	lastID := 0
	if len(r.Calls) > 0 { // the last window's last message: about the largest ID the log will hold
		if w := r.Calls[len(r.Calls)-1].Visit.Before; len(w) > 0 {
			lastID = w[len(w)-1].ID
		}
	}
	b := newLogBuild(n, len(r.Calls), lastID)
	for k := range n {
		ci := k
		if order != nil {
			ci = order[k]
		}
		b.step(r.Calls, ci)
	}
	return b.finish()
}

// scanned adds to the log the turns of call ci's window (v) that start
// at from or later and it has not yet, and marks those that left at ci;
// it returns the node of the last that left (-1: none).
func (b *logBuild) scanned(v *Visit, ci, from int) int32 {
	eachTurnFrom(v.Before, from, func(start, end int) {
		h := v.Before[start]
		if b.find(h) >= 0 {
			return
		}
		n := b.add(logEntry{msgs: v.Before[start:end], first: int32(ci), left: -1, wroteAt: -1, placeholder: h.Placeholder}, -1, h.ID)
		b.at.set(h, int(n))
	})
	last := int32(-1)
	eachTurnFrom(v.Evicted, 0, func(start, _ int) {
		last = b.find(v.Evicted[start])
		b.nodes[last].left = int32(ci)
	})
	return last
}

// slowLog makes turnLog look at every turn of every window (for the
// tests, which compare the two ways).
var slowLog = false

// known is how many of call ci's first messages before its visit are
// the window of the call before (prev), as it was sent (its visit's After, the
// same messages in the same order), when that call wrote no notice the
// log has not placed and had nothing delivered: every turn starting
// there is in the log already (a turn leaves whole, so no message of it
// starts a turn of its own later), and only the messages after them can
// start a new one. 0 when that is not so.
func known(calls []CallReplay, pi, ci int) int {
	if slowLog || pi < 0 || calls[pi].Run != calls[ci].Run {
		return 0
	}
	return knownAfter(&calls[pi], &calls[ci].Visit)
}

// knownAfter is known, for call prev and the visit v of the call after
// it in its run.
func knownAfter(prev *CallReplay, v *Visit) int {
	a := prev.Visit.After
	if prev.Call.Deliveries > 0 || len(a) == 0 || len(a) > len(v.Before) {
		return 0
	}
	if w := prev.Visit.Notice; (w != nil || prev.Visit.Frame != nil) && len(prev.Visit.Evicted) == 0 {
		return 0 // a notice no span was found for: placed when first seen
	}
	if &a[0] == &v.Before[0] {
		return len(a) // one memory: the window extended in place
	}
	for i, m := range a {
		if v.Before[i] != m {
			return 0
		}
	}
	return len(a)
}

// eachTurnFrom calls fn with the message range of every turn of w that
// starts at from or later, in order, without building the turns: a tool
// message continues the turn before it, at from too, and starts one only
// as w's first message.
func eachTurnFrom(w []*model.Message, from int, fn func(start, end int)) {
	start := -1
	for i := from; i < len(w); i++ {
		if w[i].Role == model.RoleTool && (start >= 0 || i > 0) {
			continue
		}
		if start >= 0 {
			fn(start, i)
		}
		start = i
	}
	if start >= 0 {
		fn(start, len(w))
	}
}
