package evidence

import (
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
)

// Sets a message's forms go to, by what the message is (buildJudgeSets).
const (
	partNone    = iota // an assistant message or a re-ask: nothing
	partSame           // a tool result whose own bytes are its content: a → same
	partSplit          // another tool result: a → whole, b → own
	partUser           // exempt text: a → user
	partFrame          // a compaction frame: a → label, b → summary
	partNotice         // a drop notice: a → label
	partRequest        // the request and system prompt: a → user
)

// part is what one message adds to the judge sets, indexed once.
type part struct {
	kind int
	a, b *Index
	text *atomText // the text §9.2 searches, made when first searched
}

// newPart indexes m for the judge sets: only the forms of only when it
// is not nil (loosely counted when loose), unless that cannot be known
// exact (asked.go): then counted, then whole.
func newPart(m *model.Message, view View, only *askedForms, loose bool) *part {
	p := &part{a: newIndexFor(only, loose)}
	switch {
	case m.Role == model.RoleTool:
		if own := view.own(m); own == m.Content {
			p.kind = partSame
			p.a.AddToolResult(own)
		} else {
			p.kind, p.b = partSplit, newIndexFor(only, loose)
			p.a.AddToolResult(m.Content)
			p.b.AddToolResult(own)
		}
	case !isExemptRole(m):
		p.kind = partNone
	case strings.HasPrefix(m.Content, model.CompactedPrefix):
		label, summary := SplitFrame(m.Content)
		p.kind, p.b = partFrame, newIndexFor(only, loose)
		p.a.AddText(label)
		p.b.AddText(summary)
	case m.IsNotice():
		p.kind = partNotice
		p.a.AddText(m.Content)
	default:
		p.kind = partUser
		p.a.AddText(m.Content)
	}
	if only != nil && (p.a.Truncated() || p.b != nil && p.b.Truncated()) {
		if loose {
			return newPart(m, view, only, false)
		}
		return newPart(m, view, nil, false)
	}
	return p
}

// askedPart indexes the request and the system prompt as user text.
func askedPart(view View, only *askedForms, loose bool) *part {
	p := &part{kind: partRequest, a: newIndexFor(only, loose)}
	p.a.AddText(view.Request)
	for _, sp := range view.SystemPrompt {
		p.a.AddText(sp)
	}
	if only != nil && p.a.Truncated() {
		if loose {
			return askedPart(view, only, false)
		}
		return askedPart(view, nil, false)
	}
	return p
}

// coarser reports whether p is indexed more coarsely than only and loose
// say: loosely where they count, by the asked forms where they say whole.
func (p *part) coarser(only *askedForms, loose bool) bool {
	if only == nil {
		return p.a.only != nil
	}
	return p.a.loose && !loose
}

// windowSets answers what judgeSets answer from each message's own forms,
// kept while the message stays in the window: a call costs the messages
// new to its window, not the whole window again. Below FormLimit the
// union of the parts is the set (judgeSets' exact case); at or past it,
// judgeSets are built instead.
type windowSets struct {
	only  *askedForms // the forms asked about, nil for all (asked.go)
	parts map[*model.Message]*part
	prev  map[*model.Message]*part // the window before: what just left
	spare map[*model.Message]*part // the one before that, to be the next
	left  leftParts                // the parts of messages that left, until held
	// the request and system prompt last judged, indexed as user text
	request string
	prompt  []string
	asked   *part
	view    []*part // this call's parts, request first
	msgs    []*model.Message
}

// update takes view's window; false when a union could reach FormLimit.
func (w *windowSets) update(view View) bool {
	if w.asked == nil || view.Request != w.request || !slices.Equal(view.SystemPrompt, w.prompt) {
		w.request, w.prompt = view.Request, view.SystemPrompt
		w.asked = askedPart(view, w.only, true)
	}
	next := w.spare // the maps go round: the window, the one before, the next
	if next == nil {
		next = make(map[*model.Message]*part, len(view.Window))
	}
	clear(next)
	w.view = append(w.view[:0], w.asked)
	w.msgs = append(w.msgs[:0], nil)
	for _, m := range view.Window {
		p := w.parts[m]
		if p == nil {
			p = w.left.take(m)
		}
		if p == nil {
			p = newPart(m, view, w.only, true)
		}
		next[m] = p
		w.view = append(w.view, p)
		w.msgs = append(w.msgs, m)
	}
	for m, p := range w.parts {
		if next[m] == nil {
			p.text = nil // searched only while in view
			w.left.keep(m, p)
		}
	}
	w.parts, w.prev, w.spare = next, w.parts, w.prev
	if w.small() {
		return true
	}
	// the bounds of restricted parts may be far above their forms: count
	// their pieces, then count them whole
	for _, only := range []*askedForms{w.only, nil} {
		if only == nil && w.only == nil {
			break
		}
		for k, p := range w.view {
			if !p.coarser(only, false) {
				continue
			}
			if k == 0 {
				w.asked = askedPart(view, only, false)
				w.view[0] = w.asked
				continue
			}
			m := w.msgs[k]
			w.view[k] = newPart(m, view, only, false)
			w.parts[m] = w.view[k]
		}
		if w.small() {
			return true
		}
	}
	return false
}

// small reports whether the unions of the view's parts surely stay below
// FormLimit.
func (w *windowSets) small() bool {
	var tools, owns, exempt int // forms the unions could hold at most
	for _, p := range w.view {
		switch p.kind {
		case partSame:
			tools += p.a.bound()
		case partSplit:
			tools += p.a.bound()
			owns += p.b.bound()
		case partUser, partNotice, partFrame, partRequest:
			exempt += p.a.bound()
			if p.b != nil {
				exempt += p.b.bound()
			}
		}
	}
	return tools < FormLimit && owns < FormLimit && exempt < FormLimit
}

// grounded is judgeSets.grounded over the parts of the last update.
func (w *windowSets) grounded(v string) string {
	forms := LookupForms(v)
	has := func(x *Index) bool {
		for _, f := range forms {
			if _, ok := x.forms[f]; ok {
				return true
			}
		}
		return false
	}
	var same, whole, own, user, summary, label bool
	for _, p := range w.view {
		switch p.kind {
		case partSame:
			same = same || has(p.a)
		case partSplit:
			whole = whole || has(p.a)
			own = own || has(p.b)
		case partUser, partRequest:
			user = user || has(p.a)
		case partFrame:
			label = label || has(p.a)
			summary = summary || has(p.b)
		case partNotice:
			label = label || has(p.a)
		}
	}
	switch {
	case !(same || whole || user || summary || label):
		return ""
	case same || own:
		return InView
	case user:
		return UserSupplied
	case summary:
		return Summary
	}
	return LibraryNote
}

// heldForms are the forms Judger.Hold would index m by, read from its
// part when it was in the last two windows and the part holds them
// exactly (nil when not: Hold indexes m itself). A tool result is its
// content's forms and its own bytes'; user text and a notice their
// tokens; an assistant message none.
func (w *windowSets) heldForms(m *model.Message) []string {
	p := w.parts[m]
	if p == nil {
		p = w.prev[m]
	}
	if p == nil {
		p = w.left.byMsg[m]
	}
	if p == nil {
		return nil
	}
	switch p.kind {
	case partNone:
		return []string{}
	case partSame, partUser, partNotice:
		return p.a.list()
	case partSplit:
		if p.a.bound()+p.b.bound() >= FormLimit {
			return nil
		}
		out := p.a.list()
		for f := range p.b.forms {
			if _, ok := p.a.forms[f]; !ok {
				out = append(out, f)
			}
		}
		return out
	}
	return nil // a frame is held as whole text, not as its two parts
}
