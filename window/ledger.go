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
	key         string         // Row.Key, named once per replay
	placeholder bool           // head.Placeholder, kept here: Ledger reads no message of a gone turn
	head        *model.Message // the turn's first message: its identity in this replay
	msgs        []*model.Message
	first       int // call index whose Before first held it (or whose visit wrote it)
	left        int
	wroteAt     int
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

// isNew: the message was not in the previous call's window.
func (r *Replay) isNew(call int, m *model.Message) bool {
	prev := r.Calls[call-1].Visit.After
	for _, p := range prev {
		if p == m {
			return false
		}
	}
	return true
}

// key names a turn the same way in every replay of one recording: by its
// first message's ID (the loader numbers every message), a notice by the
// call that wrote it.
func (e *logEntry) name() string {
	switch {
	case e.wroteAt >= 0:
		return "notice@" + strconv.Itoa(e.wroteAt)
	case e.head.ID != 0:
		return "m" + strconv.Itoa(e.head.ID)
	}
	return fmt.Sprintf("p%p", e.head) // a hand-built message: the same object in every replay
}

// turnLog builds, once per replay, every turn the conversation ever had,
// in conversation order: new turns at the end, a notice or a summary frame
// right after the span it replaced. Entries are linked so an insertion costs nothing.
func (r *Replay) turnLog() []logEntry {
	if r.log != nil {
		return r.log
	}
	type node struct {
		e    logEntry
		next int
	}
	nodes := []node{{next: -1}} // nodes[0] is the list head
	tail := 0
	at := make(map[*model.Message]int, len(r.Calls)*2)
	for ci := range r.Calls {
		v := &r.Calls[ci].Visit
		eachTurn(v.Before, func(start, end int) {
			h := v.Before[start]
			if _, ok := at[h]; ok {
				return
			}
			nodes = append(nodes, node{e: logEntry{head: h, msgs: v.Before[start:end], first: ci, left: -1, wroteAt: -1}, next: -1})
			nodes[tail].next = len(nodes) - 1
			tail = len(nodes) - 1
			at[h] = tail
		})
		last := -1
		eachTurn(v.Evicted, func(start, _ int) {
			last = at[v.Evicted[start]]
			nodes[last].e.left = ci
		})
		written := v.Notice
		if v.Frame != nil {
			written = v.Frame
		}
		if written != nil && last >= 0 {
			nodes = append(nodes, node{e: logEntry{head: written, msgs: []*model.Message{written}, first: ci, left: -1, wroteAt: ci}, next: nodes[last].next})
			n := len(nodes) - 1
			nodes[last].next = n
			if tail == last {
				tail = n
			}
			at[written] = n
		}
	}
	log := make([]logEntry, 0, len(nodes)-1)
	r.logAt = make(map[*model.Message]int, len(nodes)-1)
	for i := nodes[0].next; i >= 0; i = nodes[i].next {
		e := nodes[i].e
		e.key, e.placeholder = e.name(), e.head.Placeholder
		r.logAt[e.head] = len(log)
		log = append(log, e)
	}
	r.log = log
	return log
}

// eachTurn calls fn with the message range of every turn of w, in order,
// without building the turns.
func eachTurn(w []*model.Message, fn func(start, end int)) {
	start := -1
	for i, m := range w {
		if m.Role == model.RoleTool && start >= 0 {
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
