package provenance

import (
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// A value only a summary holds and no folded tool result does names the
// nearest form those results held (§9.3). The results a chain no longer
// holds only grow along it, so the nearest form found for a value at one
// call is kept with the chain's list of what left, and a later call of
// the chain looks only at what left since: each result is read once per
// such value, not once per call.

// nearMemo is the nearest form of one value, over what had left a chain
// when its list was node.
type nearMemo struct {
	node *goneList
	best Near
	key  uint64 // the place of best's message (key), for ties
}

// near is the nearest form (§9.3) that the tool results call i's chain
// held and no longer holds have of v; the zero Near when none is within
// evidence.MaxNear.
func (b *Book) near(i int, v string, view evidence.View) Near {
	if b.nears == nil {
		b.nears = map[string]*nearMemo{}
	}
	memo := b.nears[v]
	var fresh [][]*model.Message
	g := b.gone[i]
	for ; g != nil && (memo == nil || g != memo.node); g = g.next {
		fresh = append(fresh, g.msgs)
	}
	next := &nearMemo{node: b.gone[i]}
	if memo != nil && g == memo.node {
		next.best, next.key = memo.best, memo.key
	}
	for _, msgs := range fresh {
		for _, m := range msgs {
			l := b.lives.at(m, i)
			if m.Role != model.RoleTool || l == nil || !l.unsent && l.first >= i {
				continue
			}
			form, d, ok := evidence.NearForm(v, m, view)
			k := key(l)
			if !ok || next.best.Found() && (d > next.best.Distance || d == next.best.Distance && k >= next.key) {
				continue
			}
			name, id := b.toolName(l.first, m), m.ToolCallID
			next.best, next.key = Near{Value: form, Distance: d, ToolName: &name, ToolCallID: &id}, k
		}
	}
	b.nears[v] = next
	return next.best
}
