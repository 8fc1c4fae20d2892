package advise

import (
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// Rules is why nothing held m at visit v, which removed it
// (window.Visit.EvictionRule), under each policy the log cannot tell
// apart from p, the one agent a is replayed under (Agent.EquallyGood):
// p's rule first, each rule once; nil when p is no guess or every one of
// them says the same.
func Rules(a *study.Agent, v *window.Visit, m *model.Message, p model.Policy) []string {
	eq := a.EquallyGood(p)
	if eq == nil {
		return nil
	}
	out := []string{v.EvictionRule(m, p)}
	for _, q := range eq {
		if r := v.EvictionRule(m, q); !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// RuleWords is a source's rule as a sentence says it: "superseded", or
// "superseded or pins-off" when the policies the log cannot tell apart
// give several.
func RuleWords(rule string, rules []string) string {
	if len(rules) < 2 {
		return rule
	}
	return strings.Join(rules, " or ")
}
