package window

import (
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
}

// plan is the refusal engine's answer for one window.
type plan struct {
	from, to   int // span turn indices; from = -1 when nothing may leave
	refusals   []model.Refusal
	reasons    []string // per turn: why it may not leave ("" = removable or not reached)
	candidates []model.Pin
	pinned     []model.Pin
	yielded    int
}

// planRemoval finds the span of turns that may leave and the refusals met
// on the way (WINDOW-SEMANTICS §5).
func planRemoval(w []*model.Message, turns []model.Turn, in planInput) plan {
	p := plan{from: -1, to: -1, reasons: make([]string, len(turns))}
	cands := len(turns) - in.keepRecent
	if cands < 0 {
		cands = 0
	}
	if in.pinLimit > 0 && cands > 0 {
		p.candidates = pinning.Candidates(turns, w, in.anchor)
		for _, pin := range p.candidates {
			if pin.TurnIndex >= cands {
				continue // inside the keep window: costs nothing
			}
			if len(p.pinned) < in.pinLimit {
				p.pinned = append(p.pinned, pin)
			} else {
				p.yielded++
			}
		}
	}
	resolved := resolvedCalls(w)
	for ti := 0; ti < cands; ti++ {
		reason := refusalOf(w, turns[ti], in, resolved, p.pinned)
		if reason == "" {
			if p.from < 0 {
				p.from = ti
			}
			p.to = ti
			continue
		}
		p.reasons[ti] = reason
		p.refusals = append(p.refusals, model.Refusal{Reason: reason, TurnIndex: ti, MessageIndex: turns[ti].Start})
		if p.from >= 0 {
			break // a refused turn ends the span
		}
	}
	for ti := cands; ti < len(turns); ti++ {
		p.reasons[ti] = model.ReasonInsideKeepWindow
		p.refusals = append(p.refusals, model.Refusal{Reason: model.ReasonInsideKeepWindow, TurnIndex: ti, MessageIndex: turns[ti].Start})
	}
	return p
}

// refusalOf is the first rule that keeps turn t, or "" when it may leave.
func refusalOf(w []*model.Message, t model.Turn, in planInput, resolved map[string]bool, pinned []model.Pin) string {
	msgs := w[t.Start : t.Start+t.Length]
	if in.anchor >= t.Start && in.anchor < t.Start+t.Length {
		return model.ReasonCurrentRequest
	}
	for _, m := range msgs {
		if m.Role == model.RoleSystem {
			return model.ReasonSystemEnvelope
		}
	}
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
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if !resolved[c.ID] {
				return model.ReasonUnresolvedToolCall
			}
		}
	}
	for _, pin := range pinned {
		if pin.TurnIndex == t.Index {
			return model.ReasonLastToolResult
		}
	}
	return ""
}

func callsID(m *model.Message, id string) bool {
	for _, c := range m.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// resolvedCalls is the set of toolCallIds answered by a tool message.
func resolvedCalls(w []*model.Message) map[string]bool {
	set := make(map[string]bool, len(w))
	for _, m := range w {
		if m.Role == model.RoleTool && m.ToolCallID != "" {
			set[m.ToolCallID] = true
		}
	}
	return set
}
