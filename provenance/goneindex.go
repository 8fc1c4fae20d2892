package provenance

import (
	"cmp"
	"slices"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// A run's chain loses messages call after call: looking for each
// never-read value of every call in every message gone from its chain
// costs the calls times the messages gone, quadratic in a run's length
// under a policy that keeps more. The messages gone are indexed instead,
// each once, as they leave (extendGone): a value is looked up, and only
// the messages the lookup names are asked what the plain scan asked,
// in the order of the messages gone, so the answer is the scan's.

// leftIndex is the tool messages of one goneAt by the runs of digits of
// their contents (evidence.DigitRuns): a content that may hold a value
// between atom boundaries (evidence.MayHoldBounded) has each run of
// digits of the lookup form it holds as one of its own.
type leftIndex struct {
	runs map[string][]*model.Message
}

// digitRuns is m's content's runs of digits, read once per message.
func (b *Book) digitRuns(m *model.Message) []string {
	if rs, ok := b.runsOf[m]; ok {
		return rs
	}
	if b.runsOf == nil {
		b.runsOf = map[*model.Message][]string{}
	}
	rs := evidence.DigitRuns(m.Content)
	b.runsOf[m] = rs
	return rs
}

// addLeft indexes m, a message that joined the messages gone, when they
// are indexed already.
func (b *Book) addLeft(x *leftIndex, m *model.Message) {
	if x == nil || m.Role != model.RoleTool {
		return
	}
	for _, r := range b.digitRuns(m) {
		x.runs[r] = append(x.runs[r], m)
	}
}

// leftAt is the index of the messages gone at call i (b.last), made when
// first asked; nil when b.last is not gone (the caller scans gone).
func (b *Book) leftAt(i int, gone []*model.Message) *leftIndex {
	if b.last.call != i || len(b.last.msgs) != len(gone) || (len(gone) > 0 && &b.last.msgs[0] != &gone[0]) {
		return nil
	}
	if b.last.left == nil {
		x := &leftIndex{runs: map[string][]*model.Message{}}
		for _, m := range b.last.msgs {
			b.addLeft(x, m)
		}
		b.last.left = x
	}
	return b.last.left
}

// leftCandidates is the messages gone at call i that may hold v between
// atom boundaries, in the order of the messages gone; false when the
// index cannot tell (a lookup form with no digit: the caller scans).
func (b *Book) leftCandidates(i int, x *leftIndex, v string) ([]*model.Message, bool) {
	forms, ok := evidence.ValueDigitRuns(v)
	if !ok {
		return nil, false
	}
	type at struct {
		m   *model.Message
		pos int
	}
	var out []at
	seen := map[*model.Message]bool{}
	for _, runs := range forms {
		// every run of the form is one of a holding content's: the
		// fewest messages stand under the rarest
		best := x.runs[runs[0]]
		for _, r := range runs[1:] {
			if l := x.runs[r]; len(l) < len(best) {
				best = l
			}
		}
		for _, m := range best {
			if seen[m] {
				continue
			}
			seen[m] = true
			pos, ok := b.findGone(m, i)
			if !ok {
				return nil, false // (never: each indexed message is gone)
			}
			out = append(out, at{m, pos})
		}
	}
	slices.SortFunc(out, func(a, b at) int { return cmp.Compare(a.pos, b.pos) })
	msgs := make([]*model.Message, len(out))
	for k, a := range out {
		msgs[k] = a.m
	}
	return msgs, true
}
