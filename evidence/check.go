package evidence

import (
	"strings"

	"github.com/afinspect/inspect/model"
)

// Re-ask prefixes: user messages the library writes to ask for a
// revision; they are not exempt text (§3).
const (
	EvidenceReask = model.EvidenceCheckPrefix
	SchemaReask   = model.SchemaCheckPrefix
)

// Sets are §3's two sets for one call: the evidence (the whole content of
// every tool message of the window) and the exempt text (the request, the
// user and system messages of the window but re-asks, the system prompt).
type Sets struct {
	Evidence *Index
	Exempt   *Index
}

// BuildSets indexes one window as the library's check reads it. request is
// the current run's request text; systemPrompt the rawContent (or
// contentSummary) of each system-prompt injection record of the call.
func BuildSets(window []*model.Message, request string, systemPrompt []string) Sets {
	s := Sets{Evidence: NewIndex(), Exempt: NewIndex()}
	s.Exempt.AddText(request)
	for _, m := range window {
		switch {
		case m.Role == model.RoleTool:
			s.Evidence.AddToolResult(m.Content)
		case isExemptRole(m):
			s.Exempt.AddText(m.Content)
		}
	}
	for _, p := range systemPrompt {
		s.Exempt.AddText(p)
	}
	return s
}

// isExemptRole: a user or system message that is not a library re-ask.
func isExemptRole(m *model.Message) bool {
	return (m.Role == model.RoleUser || m.Role == model.RoleSystem) && !IsReask(m.Content)
}

// IsReask reports whether a user message is the library asking for a
// revision ([evidence check / [schema check), judged on the raw content.
func IsReask(content string) bool {
	return strings.HasPrefix(content, EvidenceReask) || strings.HasPrefix(content, SchemaReask)
}

// Grounded reports whether a normalized value is in either set.
func (s Sets) Grounded(v string) bool { return s.Evidence.Has(v) || s.Exempt.Has(v) }

// Result is the library's verdict on one answer (§4), before it decides an
// action: every candidate, and the unsupported ones in candidate order.
type Result struct {
	Candidates  []Value
	Unsupported []Value // all of them, unclipped
	Truncated   bool    // the evidence set reached FormLimit
}

// Listed is the event's `unsupported`: the first ListedLimit unsupported
// values, each clipped to ClipUnits UTF-16 units (63 and "…").
func (r Result) Listed() []Value {
	n := min(len(r.Unsupported), ListedLimit)
	out := make([]Value, n)
	for i, v := range r.Unsupported[:n] {
		out[i] = Value{Value: utf16Clip(v.Value, ClipUnits), Shape: v.Shape}
	}
	return out
}
