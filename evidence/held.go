package evidence

import "github.com/afinspect/inspect/model"

// Asked is the values a caller asks about again and again over many
// windows — a sweep of one agent's calls under many window policies,
// where the same messages come and go: each message is indexed once, by
// those values' lookup forms alone (asked.go), and what it holds of them
// goes with it; per window, only which messages are in view changes.
type Asked struct{ only *askedForms }

// NewAsked is an Asked for values (normalized, as Candidates and
// ArgValues give them).
func NewAsked(values []Value) *Asked { return &Asked{only: newAskedForms(values)} }

// Holding is what one message holds of the asked values, as lookup forms
// (LookupForms of an asked value):
//   - In: what it adds to the library's sets while it is in a window — a
//     tool result's whole content; exempt text's tokens, compaction frames
//     and drop notices included. A value none of a window's messages (nor
//     the request or system prompt) hold In is not grounded there (§3,
//     §5), unless the sets reached FormLimit.
//   - Gone: what it is held under once it has left the window (Judger.Hold):
//     a tool result's own bytes too.
//
// Tool says In goes to the evidence set, else to the exempt set (nothing,
// for an assistant message or a re-ask). Bound is at least the number of
// distinct forms it adds to its set in view, and Own, for a tool result
// whose own bytes are not its content, those bytes' (their own set): while
// each set's sum over a window stays below FormLimit, the window's sets are
// the union of its messages' (windowSets.small), else BuildSets tells.
type Holding struct {
	In, Gone   []string
	Tool       bool
	Bound, Own int
}

// Message is what m holds, every form of it indexed, so that Bound and
// Own are exact: text that repeats itself (a log's lines, a tool's
// boilerplate) holds far fewer distinct forms than tokens. own gives a
// tool message's own bytes (§6 "Tool bytes"; nil: the toolChars cut
// alone).
func (a *Asked) Message(m *model.Message, own func(*model.Message) string) Holding {
	return a.holding(m, View{OwnBytes: own}, newPart(m, View{OwnBytes: own}, nil, false))
}

// Quick is Message indexing m by the asked forms alone: faster, with
// Bound and Own at least the distinct forms (Distinct counts them).
func (a *Asked) Quick(m *model.Message, own func(*model.Message) string) Holding {
	return a.holding(m, View{OwnBytes: own}, newPart(m, View{OwnBytes: own}, a.only, true))
}

func (a *Asked) holding(m *model.Message, view View, p *part) Holding {
	var h Holding
	switch p.kind {
	case partSame:
		h.Tool, h.Bound = true, p.a.bound()
		h.In = a.held(p.a)
		h.Gone = h.In
	case partSplit:
		h.Tool, h.Bound, h.Own = true, p.a.bound(), p.b.bound()
		h.In = a.held(p.a)
		if h.Bound+h.Own < FormLimit { // as heldForms: both parts, else indexed again whole
			h.Gone = union(h.In, a.held(p.b))
		} else {
			h.Gone = a.held(heldIndex(m, view))
		}
	case partUser, partNotice:
		h.Bound = p.a.bound()
		h.In = a.held(p.a)
		h.Gone = h.In
	case partFrame:
		h.Bound = p.a.bound() + p.b.bound()
		h.In = union(a.held(p.a), a.held(p.b))
		x := newIndexFor(a.only, false) // Hold indexes a frame as whole text
		x.AddText(m.Content)
		if x.Truncated() {
			x = heldIndex(m, view)
		}
		h.Gone = a.held(x)
	}
	return h
}

// Text is what user text holds — a call's request text or one of its
// system prompts, exempt text that never leaves (In and Gone alike) —
// every form indexed (Bound exact).
func (a *Asked) Text(text string) Holding {
	x := NewIndex()
	x.AddText(text)
	h := Holding{In: a.held(x), Bound: x.bound()}
	h.Gone = h.In
	return h
}

// held is the asked forms x holds: all of them when x was restricted to
// the asked forms, else those of its forms that are asked.
func (a *Asked) held(x *Index) []string {
	if x.only != nil {
		return x.list()
	}
	var out []string
	for f := range x.forms {
		if a.only.has(f) {
			out = append(out, f)
		}
	}
	return out
}

func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := append([]string{}, a...)
	seen := make(map[string]bool, len(a))
	for _, f := range a {
		seen[f] = true
	}
	for _, f := range b {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// Distinct is Asked.Message's Bound and Own counted exactly: the distinct forms
// m adds to its sets in view, every form indexed (what windowSets counts
// when the restricted counts, repeats included, reach FormLimit). Text
// that repeats itself — a log's lines, a tool's boilerplate — holds far
// fewer forms than tokens.
func Distinct(m *model.Message, own func(*model.Message) string) (bound, ownBound int) {
	p := newPart(m, View{OwnBytes: own}, nil, false)
	switch p.kind {
	case partNone:
		return 0, 0
	case partSplit:
		return p.a.bound(), p.b.bound()
	case partFrame:
		return p.a.bound() + p.b.bound(), 0
	}
	return p.a.bound(), 0
}
