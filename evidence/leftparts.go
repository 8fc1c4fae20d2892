package evidence

import "github.com/afinspect/inspect/model"

// A message is held (Judger.Hold) only when a later call needs what has
// left, which may be many calls after it left the window. Its window part
// is kept until then, so it is tokenized once, not again when held: up to
// leftFormsMax forms in all, the oldest let go first (held, those are
// indexed afresh, to the same forms).

const leftFormsMax = 1 << 20

// leftParts are the parts of messages that left the window, not yet held.
type leftParts struct {
	byMsg map[*model.Message]*part
	order []*model.Message // in the order they left; forgotten ones stay until passed
	forms int              // forms held by the parts in byMsg
}

// keep holds p, the part of m, which just left the window.
func (l *leftParts) keep(m *model.Message, p *part) {
	if l.byMsg == nil {
		l.byMsg = map[*model.Message]*part{}
	}
	if l.byMsg[m] != nil {
		return
	}
	l.byMsg[m] = p
	l.order = append(l.order, m)
	l.forms += p.forms()
	for l.forms > leftFormsMax && len(l.order) > 0 {
		l.forget(l.order[0])
		l.order = l.order[1:]
	}
	if len(l.order) > 2*len(l.byMsg)+64 { // compact what was forgotten
		kept := l.order[:0]
		for _, m := range l.order {
			if l.byMsg[m] != nil {
				kept = append(kept, m)
			}
		}
		l.order = kept
	}
}

// take is m's part, no longer kept here (nil for none).
func (l *leftParts) take(m *model.Message) *part {
	p := l.byMsg[m]
	l.forget(m)
	return p
}

// forget lets m's part go (it is held, or too old).
func (l *leftParts) forget(m *model.Message) {
	if p := l.byMsg[m]; p != nil {
		l.forms -= p.forms()
		delete(l.byMsg, m)
	}
}

// forms is how many forms p holds, and one for each index (a restricted
// part may hold none, and still counts).
func (p *part) forms() int {
	n := p.a.Len() + 1
	if p.b != nil {
		n += p.b.Len() + 1
	}
	return n
}
