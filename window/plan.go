package window

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// planInput is what the refusal engine needs besides the window.
type planInput struct {
	keepRecent int
	pinLimit   int // admitted pins; 0 = pins off (or stood down)
	anchor     int // current request message index, -1 for none
	paused     string
	checkIn    bool
	mem        *arena
	turnChars  []int      // each turn's size in characters
	nameIDs    []int32    // each message's tool name number (arena.segmentFacts); nil: not read
	facts      []turnFact // each turn's facts (arena.segmentFacts): tids only when nameIDs are read
}

// plan is the refusal engine's answer for one window.
type plan struct {
	from, to   int             // span turn indices; from = -1 when nothing may leave
	refusals   []model.Refusal // every refused turn met, then the keep window
	candidates []model.Pin     // scratch: valid during the visit only
	pinned     []model.Pin
	yielded    int
}

// planRemoval finds the span of turns that may leave and the refusals met
// on the way (docs/rules/window.md §5).
func planRemoval(w []*model.Message, turns []model.Turn, in *planInput) plan {
	p := plan{from: -1, to: -1}
	cands := len(turns) - in.keepRecent
	if cands < 0 {
		cands = 0
	}
	if in.pinLimit > 0 && cands > 0 {
		if in.nameIDs != nil {
			p.candidates = appendCandidatesByTurn(in.mem.pinScratch(len(turns)), turns, in.facts, in.nameIDs, in.anchor, cands, &in.mem.toolNames)
		} else {
			p.candidates = pinning.AppendCandidates(in.mem.pinScratch(len(turns)), turns, w, in.anchor, cands, &in.mem.toolNames)
		}
		p.pinned = in.mem.pinnedScratch(min(in.pinLimit, len(p.candidates)))
		for _, pin := range p.candidates {
			if pin.TurnIndex >= cands {
				continue // inside the keep window: costs nothing
			}
			if len(p.pinned) < in.pinLimit {
				pin.Chars = in.turnChars[pin.TurnIndex]
				p.pinned = append(p.pinned, pin)
			} else {
				p.yielded++
			}
		}
		p.pinned = in.mem.pins.keepAt(p.pinned, pinsHash(p.pinned)) // the pins outlive the visit
	}
	p.refusals = in.mem.refusalScratch(len(turns) + 1)
	for ti := 0; ti < cands; ti++ {
		var tf turnFact
		if in.facts != nil {
			tf = in.facts[ti]
		} else {
			tf = turnFact{sys: holdsSystem(w[turns[ti].Start : turns[ti].Start+turns[ti].Length]), open: true}
		}
		reason := refusalOf(w, &turns[ti], in, p.pinned, tf)
		if reason == "" {
			if p.from < 0 {
				p.from = ti
			}
			p.to = ti
			continue
		}
		p.refusals = append(p.refusals, model.Refusal{Reason: reason, TurnIndex: ti, MessageIndex: turns[ti].Start})
		if p.from >= 0 {
			break // a refused turn ends the span
		}
	}
	h := refusalsHash(p.refusals)
	k := len(p.refusals)
	p.refusals = slices.Grow(p.refusals, len(turns)-cands)[:k+len(turns)-cands]
	for i, t := range turns[cands:] {
		p.refusals[k+i] = model.Refusal{Reason: model.ReasonInsideKeepWindow, TurnIndex: cands + i, MessageIndex: t.Start}
		h = mixRefusal(h, len(model.ReasonInsideKeepWindow), cands+i, t.Start)
	}
	// the refusals outlive the visit (in its record); the scratch does not
	p.refusals = in.mem.refusals.keepAt(p.refusals, uint(h^h>>29))
	return p
}

// requestKeptAtHead: the span starts right after turn 0, which stayed as
// the current request.
func (p plan) requestKeptAtHead() bool {
	return p.from == 1 && len(p.refusals) > 0 && p.refusals[0].TurnIndex == 0 &&
		p.refusals[0].Reason == model.ReasonCurrentRequest
}

// refusalOf is the first rule that keeps turn t, or "" when it may leave.
// tf is what the turn's own messages say (turnFact): when no call of it
// may be unanswered, none is looked for.
func refusalOf(w []*model.Message, t *model.Turn, in *planInput, pinned []model.Pin, tf turnFact) string {
	if in.anchor >= t.Start && in.anchor < t.Start+t.Length {
		return model.ReasonCurrentRequest
	}
	if tf.sys {
		return model.ReasonSystemEnvelope
	}
	if in.paused != "" || tf.open {
		if r := refusalOfMessages(w, w[t.Start:t.Start+t.Length], in, tf); r != "" {
			return r
		}
	}
	for _, pin := range pinned {
		if pin.TurnIndex == t.Index {
			return model.ReasonLastToolResult
		}
	}
	return ""
}

// refusalOfMessages is refusalOf's look along the turn's messages, msgs:
// for the paused call, and for a call of it not answered.
func refusalOfMessages(w, msgs []*model.Message, in *planInput, tf turnFact) string {
	if in.paused != "" {
		for _, m := range msgs {
			if m.ToolCallID == in.paused || callsID(m, in.paused) {
				if in.checkIn {
					return model.ReasonPendingCheckIn
				}
				return model.ReasonPausedTool
			}
		}
	}
	if !tf.open {
		return ""
	}
	for _, m := range msgs {
		for i := range m.ToolCalls {
			if !answered(w, msgs, m.ToolCalls[i].ID) {
				return model.ReasonUnresolvedToolCall
			}
		}
	}
	return ""
}

// appendCandidatesByTurn is pinning.AppendCandidatesOf, a turn whose
// results carry one tool name (its fact's tid) seen once rather than
// each of its messages: the same pins in the same order. facts nil: the
// message walk.
func appendCandidatesByTurn(pins []model.Pin, turns []model.Turn, facts []turnFact, ids []int32, after, upTo int, names *pinning.Names) []model.Pin {
	if len(facts) != len(turns) {
		return pinning.AppendCandidatesOf(pins, turns, ids, after, upTo, names)
	}
	// the names met: the first 64 numbers in a word of its own, the
	// others in the names' set
	var low uint64
	names.ClearSeen()
	fresh := func(id int32) bool {
		if id < 64 {
			bit := uint64(1) << uint(id)
			f := low&bit == 0
			low |= bit
			return f
		}
		return names.See(id)
	}
	for ti := len(turns) - 1; ti >= 0; ti-- {
		t := &turns[ti]
		if id := facts[ti].tid; t.Start > after && id != -2 {
			if id >= 0 && fresh(id) && ti < upTo {
				pins = append(pins, model.Pin{ToolName: names.Name(id), TurnIndex: t.Index, MessageIndex: t.Start})
			}
			continue
		}
		// more than one name, or the request's turn: its messages after
		// the request, newest first
		pinned := false
		lo := max(t.Start, after+1)
		for mi := t.Start + t.Length - 1; mi >= lo; mi-- {
			if id := ids[mi]; id >= 0 && fresh(id) && !pinned && ti < upTo {
				pins = append(pins, model.Pin{ToolName: names.Name(id), TurnIndex: t.Index, MessageIndex: t.Start})
				pinned = true
			}
		}
		if lo > t.Start {
			break // every turn before this one is at or before after
		}
	}
	return pins
}

// holdsSystem: a message of msgs is the system's.
func holdsSystem(msgs []*model.Message) bool {
	for _, m := range msgs {
		if m.Role == model.RoleSystem {
			return true
		}
	}
	return false
}

func callsID(m *model.Message, id string) bool {
	for _, c := range m.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// answered reports whether a tool message in w carries toolCallId id.
// Results follow their call, so the turn's own messages (own, a part of
// w) are looked at first; the answer is the same either way.
func answered(w, own []*model.Message, id string) bool {
	return answeredIn(own, id) || answeredIn(w, id)
}

func answeredIn(w []*model.Message, id string) bool {
	for _, m := range w {
		if m.Role == model.RoleTool && pinning.Same(m.ToolCallID, id) {
			return true
		}
	}
	return false
}

// refusalsHash and pinsHash tell most lists of refusals (of pins) apart,
// for keeping each list once; refusalsHash is the mix before its last
// step, so that planRemoval goes on with it (mixRefusal) as it lists
// the turns inside the keep window.
func refusalsHash(rs []model.Refusal) uint64 {
	h := uint64(0)
	for _, r := range rs {
		h = mixRefusal(h, len(r.Reason), r.TurnIndex, r.MessageIndex)
	}
	return h
}

func mixRefusal(h uint64, a, b, c int) uint64 {
	return (h ^ uint64(a) ^ uint64(b)<<8 ^ uint64(c)<<24) * 0x9e3779b97f4a7c15
}

func pinsHash(ps []model.Pin) uint {
	return hashBy(ps, func(p model.Pin) (int, int, int) { return len(p.ToolName), p.TurnIndex, p.Chars })
}

// hashBy mixes three numbers of each element of s (one multiply each:
// it only has to tell apart the lists one replay files).
func hashBy[T any](s []T, nums func(T) (int, int, int)) uint {
	h := uint64(len(s))
	for _, x := range s {
		a, b, c := nums(x)
		h = (h ^ uint64(a) ^ uint64(b)<<8 ^ uint64(c)<<24) * 0x9e3779b97f4a7c15
	}
	return uint(h ^ h>>29)
}
