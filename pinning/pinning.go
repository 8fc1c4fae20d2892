// Package pinning answers the two questions the window asks before it
// drops anything: which message is the current request (the anchor), and
// which turns hold each tool's latest result (the last-tool-result pins).
//
// Pure functions over a window; no I/O. It does not decide what leaves:
// that is the refusal engine in package window.
package pinning

import "github.com/afinspect/inspect/model"

// Namer resolves the tool name of tool messages of one window.
type Namer struct{ w []*model.Message }

// NewNamer returns a Namer over w.
func NewNamer(w []*model.Message) Namer { return Namer{w: w} }

// Name is the tool name of m: its toolName if set; else the name of the
// assistant toolCalls entry anywhere in the window whose id is its
// toolCallId (a call with an empty name does not count); else "" (a
// result with no name is never pinned nor named in a notice). Messages
// that are not tool results have no name.
func (n Namer) Name(m *model.Message) string {
	if m.Role != model.RoleTool {
		return ""
	}
	if m.ToolName != "" || m.ToolCallID == "" {
		return m.ToolName
	}
	return n.byCall(m)
}

// byCall is the name of the call m answers (Name, for a result without
// its own name).
func (n Namer) byCall(m *model.Message) string {
	for _, x := range n.w {
		for i := range x.ToolCalls {
			if c := &x.ToolCalls[i]; Same(c.ID, m.ToolCallID) && c.Name != "" {
				return c.Name
			}
		}
	}
	return ""
}

// Same is a == b, deciding most unequal pairs (ids and tool names of one
// length that differ at an end) before comparing every byte.
func Same(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if n := len(a); n > 0 && (a[0] != b[0] || a[n-1] != b[n-1]) {
		return false
	}
	return a == b
}

// Candidates lists the turns holding each tool's latest result, newest
// first: one pin per tool name, at most one per turn, nothing at or before
// the message index after (the current request; -1 for none). Walking
// newest first, a name is spent by its latest result even when that turn
// already holds a pin for another tool.
func Candidates(turns []model.Turn, w []*model.Message, after int) []model.Pin {
	pins := AppendCandidates(nil, turns, w, after, len(turns), nil)
	for i := range pins {
		pins[i].Chars = TurnChars(w, turns[pins[i].TurnIndex])
	}
	return pins
}

// AppendCandidates is Candidates appending to pins, for callers that keep
// their own memory, without the pins' Chars: a caller measures those it
// keeps (TurnChars). It appends only the pins of turns before upTo (the
// later turns' names are spent all the same). names numbers the tool
// names (nil: a table of its own); a replay passes the same table to
// every visit.
func AppendCandidates(pins []model.Pin, turns []model.Turn, w []*model.Message, after, upTo int, names *Names) []model.Pin {
	if names == nil {
		names = &Names{}
	}
	namer := NewNamer(w)
	names.clearSeen()
	for ti := len(turns) - 1; ti >= 0; ti-- {
		t := turns[ti]
		pinned := false
		for mi := t.Start + t.Length - 1; mi >= t.Start; mi-- {
			if mi <= after {
				break
			}
			id := names.of(namer, w[mi])
			if id < 0 || !names.see(id) {
				continue
			}
			if pinned || ti >= upTo {
				continue
			}
			pins = append(pins, model.Pin{ToolName: names.names[id], TurnIndex: t.Index, MessageIndex: t.Start})
			pinned = true
		}
	}
	return pins
}

// AppendCandidatesOf is AppendCandidates over the names' numbers of w's
// messages, read once by the caller: ids[i] is names.Of(NewNamer(w),
// w[i]). It gives the same pins in the same order.
func AppendCandidatesOf(pins []model.Pin, turns []model.Turn, ids []int32, after, upTo int, names *Names) []model.Pin {
	names.clearSeen()
	for ti := len(turns) - 1; ti >= 0; ti-- {
		t := turns[ti]
		pinned := false
		lo := max(t.Start, after+1)
		for mi := t.Start + t.Length - 1; mi >= lo; mi-- {
			id := ids[mi]
			if id < 0 || !names.see(id) || pinned || ti >= upTo {
				continue
			}
			pins = append(pins, model.Pin{ToolName: names.names[id], TurnIndex: t.Index, MessageIndex: t.Start})
			pinned = true
		}
		if lo > t.Start {
			break // every turn before this one is at or before after
		}
	}
	return pins
}

// TurnChars is the size of turn t of w in characters: a pin's Chars.
func TurnChars(w []*model.Message, t model.Turn) int {
	n := 0
	for _, m := range w[t.Start : t.Start+t.Length] {
		n += m.Chars()
	}
	return n
}

// Names numbers tool names, so that a walk over a window compares
// small numbers, and remembers the number of each tool result that
// carries its own name (by Message.ID, checked against the message: that
// name does not depend on the window), the last few hundred met. A replay keeps one Names for all
// its visits. The zero Names is ready; it is not safe for concurrent use.
type Names struct {
	ids   map[string]int32
	names []string // by number: the first string met with that text
	byMsg [memoSlots]nameMemo
	seen  []uint64 // the walk's set of numbers met
}

type nameMemo struct {
	m  *model.Message
	id int32
}

// memoSlots is how many tool results Names remembers: the last met of
// each message number modulo memoSlots (a window's are numbered close
// together).
const memoSlots = 512

// Of is the number of Namer.Name(m) in namer's window, -1 for none.
func (t *Names) Of(namer Namer, m *model.Message) int32 { return t.of(namer, m) }

// of is Of.
func (t *Names) of(namer Namer, m *model.Message) int32 {
	if m.Role != model.RoleTool {
		return -1
	}
	if m.ToolName == "" {
		if m.ToolCallID == "" {
			return -1
		}
		return t.number(namer.byCall(m))
	}
	slot := &t.byMsg[uint(m.ID)%uint(len(t.byMsg))]
	if slot.m == m {
		return slot.id
	}
	n := t.number(m.ToolName)
	*slot = nameMemo{m: m, id: n}
	return n
}

// number is name's number, given on first sight; -1 for "".
func (t *Names) number(name string) int32 {
	if name == "" {
		return -1
	}
	if t.ids == nil { // few names yet: a look along them beats a map
		for i, x := range t.names {
			if Same(x, name) {
				return int32(i)
			}
		}
		if len(t.names) == fewNames {
			t.ids = make(map[string]int32, 2*fewNames)
			for i, x := range t.names {
				t.ids[x] = int32(i)
			}
		}
	} else if n, ok := t.ids[name]; ok {
		return n
	}
	n := int32(len(t.names))
	if t.ids != nil {
		t.ids[name] = n
	}
	t.names = append(t.names, name)
	return n
}

// fewNames is how many names Names looks along before it keeps a map.
const fewNames = 16

// clearSeen empties the walk's set.
func (t *Names) clearSeen() { clear(t.seen) }

// ClearSeen empties the set of numbers a walk has met (See).
func (t *Names) ClearSeen() { t.clearSeen() }

// See adds number n to the walk's set and reports whether it was new.
func (t *Names) See(n int32) bool { return t.see(n) }

// Name is the name numbered n.
func (t *Names) Name(n int32) string { return t.names[n] }

// see adds number n to the walk's set and reports whether it was new.
func (t *Names) see(n int32) bool {
	w, bit := int(n>>6), uint64(1)<<(n&63)
	if w >= len(t.seen) {
		t.seen = append(t.seen, make([]uint64, w+1-len(t.seen))...)
	}
	if t.seen[w]&bit != 0 {
		return false
	}
	t.seen[w] |= bit
	return true
}
