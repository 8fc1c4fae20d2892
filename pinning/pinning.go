// Package pinning answers the two questions the window asks before it
// drops anything: which message is the current request (the anchor), and
// which turns hold each tool's latest result (the last-tool-result pins).
//
// Pure functions over a window; no I/O. It does not decide what leaves:
// that is the refusal engine in package window.
package pinning

import "github.com/afinspect/inspect/model"

// CurrentRequest finds the anchor, scanning from the end of the window:
// the last person-said message whose content is exactly the run's request,
// else the last person-said message at all, else -1.
func CurrentRequest(w []*model.Message, request string) int {
	fallback := -1
	for i := len(w) - 1; i >= 0; i-- {
		m := w[i]
		if !m.IsPersonSaid() {
			continue
		}
		if m.Content == request {
			return i
		}
		if fallback < 0 {
			fallback = i
		}
	}
	return fallback
}

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
	pins := AppendCandidates(nil, turns, w, after)
	for i := range pins {
		pins[i].Chars = TurnChars(w, turns[pins[i].TurnIndex])
	}
	return pins
}

// AppendCandidates is Candidates appending to pins, for callers that keep
// their own memory, without the pins' Chars: a caller measures those it
// keeps (TurnChars).
func AppendCandidates(pins []model.Pin, turns []model.Turn, w []*model.Message, after int) []model.Pin {
	namer := NewNamer(w)
	var seen names // tool rosters are small: a slice beats a map here
	for ti := len(turns) - 1; ti >= 0; ti-- {
		t := turns[ti]
		pinned := false
		for mi := t.Start + t.Length - 1; mi >= t.Start; mi-- {
			if mi <= after {
				break
			}
			name := namer.Name(w[mi])
			if name == "" || !seen.add(name) {
				continue
			}
			if pinned {
				continue
			}
			pins = append(pins, model.Pin{ToolName: name, TurnIndex: t.Index, MessageIndex: t.Start})
			pinned = true
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

// names is a small set of names, each with a key made of its length and
// end bytes, which tells most unequal names apart without reading them.
type names struct {
	keys  [16]uint32
	names [16]string
	n     int
	more  []string // past 16
}

func nameKey(s string) uint32 {
	return uint32(len(s))<<16 | uint32(s[0])<<8 | uint32(s[len(s)-1])
}

// add adds name (not "") and reports whether it was not there yet.
func (s *names) add(name string) bool {
	k := nameKey(name)
	for i := range s.n {
		if s.keys[i] == k && s.names[i] == name {
			return false
		}
	}
	for _, x := range s.more {
		if x == name {
			return false
		}
	}
	if s.n < len(s.keys) {
		s.keys[s.n], s.names[s.n] = k, name
		s.n++
	} else {
		s.more = append(s.more, name)
	}
	return true
}
