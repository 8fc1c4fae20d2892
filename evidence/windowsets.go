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
}

func newPart(m *model.Message, view View) *part {
	p := &part{a: NewIndex()}
	switch {
	case m.Role == model.RoleTool:
		if own := view.own(m); own == m.Content {
			p.kind = partSame
			p.a.AddToolResult(own)
		} else {
			p.kind, p.b = partSplit, NewIndex()
			p.a.AddToolResult(m.Content)
			p.b.AddToolResult(own)
		}
	case !isExemptRole(m):
		p.kind = partNone
	case strings.HasPrefix(m.Content, model.CompactedPrefix):
		label, summary := SplitFrame(m.Content)
		p.kind, p.b = partFrame, NewIndex()
		p.a.AddText(label)
		p.b.AddText(summary)
	case m.IsNotice():
		p.kind = partNotice
		p.a.AddText(m.Content)
	default:
		p.kind = partUser
		p.a.AddText(m.Content)
	}
	return p
}

// windowSets answers what judgeSets answer from each message's own forms,
// kept while the message stays in the window: a call costs the messages
// new to its window, not the whole window again. Below FormLimit the
// union of the parts is the set (judgeSets' exact case); at or past it,
// judgeSets are built instead.
type windowSets struct {
	parts map[*model.Message]*part
	prev  map[*model.Message]*part // the window before: what just left
	left  leftParts                // the parts of messages that left, until held
	// the request and system prompt last judged, indexed as user text
	request string
	prompt  []string
	asked   *part
	view    []*part // this call's parts, request first
}

// update takes view's window; false when a union could reach FormLimit.
func (w *windowSets) update(view View) bool {
	if w.asked == nil || view.Request != w.request || !slices.Equal(view.SystemPrompt, w.prompt) {
		w.request, w.prompt = view.Request, view.SystemPrompt
		w.asked = &part{kind: partRequest, a: NewIndex()}
		w.asked.a.AddText(view.Request)
		for _, p := range view.SystemPrompt {
			w.asked.a.AddText(p)
		}
	}
	next := make(map[*model.Message]*part, len(view.Window))
	w.view = append(w.view[:0], w.asked)
	var tools, owns, exempt int // forms the unions could hold at most
	exempt = w.asked.a.Len()
	for _, m := range view.Window {
		p := w.parts[m]
		if p == nil {
			p = w.left.take(m)
		}
		if p == nil {
			p = newPart(m, view)
		}
		next[m] = p
		w.view = append(w.view, p)
		switch p.kind {
		case partSame:
			tools += p.a.Len()
		case partSplit:
			tools += p.a.Len()
			owns += p.b.Len()
		case partUser, partNotice, partFrame:
			exempt += p.a.Len()
			if p.b != nil {
				exempt += p.b.Len()
			}
		}
	}
	for m, p := range w.parts {
		if next[m] == nil {
			w.left.keep(m, p)
		}
	}
	w.parts, w.prev = next, w.parts
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
		if p.a.Len()+p.b.Len() >= FormLimit {
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
