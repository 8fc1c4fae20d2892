package window

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/pinning"
)

// Why nothing held a message at the visit that removed it
// (docs/rules/evidence.md §6.2 `rule`), the first that applies.
const (
	RuleNotPinnable   = "not-pinnable"   // not a tool message: only keepRecentTurns keeps it
	RulePinsOff       = "pins-off"       // keepLastToolResults 0
	RuleStandDown     = "stand-down"     // the visit stood the pins down (§7)
	RuleBeforeRequest = "before-request" // before the current request: a new request releases every pin
	RuleUnnamed       = "unnamed"        // a tool message without a name is never pinned
	RuleSuperseded    = "superseded"     // a newer result of the same tool is in a later turn
	RuleYielded       = "yielded"        // its tool's newest result, but its pin was not admitted
)

// EvictionRule says why nothing held m at this visit, which removed it
// (m is one of v.Evicted); "" when m is not in v.Before.
func (v *Visit) EvictionRule(m *model.Message, p model.Policy) string {
	mi := -1
	for i, x := range v.Before {
		if x == m {
			mi = i
			break
		}
	}
	switch {
	case mi < 0:
		return ""
	case m.Role != model.RoleTool:
		return RuleNotPinnable
	case !p.PinsOn():
		return RulePinsOff
	case v.StandDown:
		return RuleStandDown
	case !p.NoAnchor && v.Anchor >= 0 && mi < v.Anchor:
		return RuleBeforeRequest
	}
	namer := pinning.NewNamer(v.Before)
	name := namer.Name(m)
	if name == "" {
		return RuleUnnamed
	}
	turns := Segment(v.Before)
	ti := turnOf(turns, mi)
	for j := mi + 1; j < len(v.Before); j++ {
		x := v.Before[j]
		if x.Role == model.RoleTool && j > v.Anchor && turnOf(turns, j) > ti && namer.Name(x) == name {
			return RuleSuperseded
		}
	}
	return RuleYielded
}

// PolicyOf is the policy call c was replayed under: its agent's.
func (r *Replay) PolicyOf(c *CallReplay) model.Policy {
	if r.Policies == nil {
		return r.Policy
	}
	return policyOf(r.Policies, c.Run.Agent)
}
