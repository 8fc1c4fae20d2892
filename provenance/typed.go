package provenance

import (
	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// Typed is each value of ce (the evidence of the call that gave resp) as
// the model typed it, in the order of ce.Values: the piece of the answer
// or of its tool call's arguments it was first read from.
func Typed(resp model.Response, ce *CallEvidence) []string {
	out := make([]string, len(ce.Values))
	var answer map[string]string
	args := map[string]map[string]string{}
	for k, e := range ce.Values {
		var from map[string]string
		if e.ToolCallID == nil {
			if answer == nil {
				answer = evidence.Typed(resp.Content)
			}
			from = answer
		} else {
			id := *e.ToolCallID
			if args[id] == nil {
				for _, tc := range resp.ToolCalls {
					if tc.ID == id {
						args[id] = evidence.ArgTyped(tc.Args)
						break
					}
				}
			}
			from = args[id]
		}
		if t, ok := from[e.Value]; ok {
			out[k] = t
		} else {
			out[k] = e.Value
		}
	}
	return out
}

// TypedOf is the number v below the library's floor as the model typed
// it in text (BelowFloor entries), v itself when not found.
func TypedOf(text, v string) string {
	if t := evidence.FloorTyped(text)[v]; t != "" {
		return t
	}
	return v
}
