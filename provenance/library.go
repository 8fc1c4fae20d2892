package provenance

import (
	"encoding/json"
	"slices"

	"github.com/afinspect/inspect/evidence"
)

// Library is the library's own verdict on a call's answer, as its
// evidence_checked event recorded it, beside inspect's.
type Library struct {
	Action      string           `json:"action"`
	Candidates  int              `json:"candidates"`
	Unsupported []evidence.Value `json:"unsupported"`
	// Agrees: inspect's flagged answer values, clipped and cut as the
	// event lists them, and its candidate count are the library's.
	Agrees bool `json:"agrees"`
}

// LibraryVerdict reads a recorded evidence_checked payload; false when
// there is none or it does not read.
func LibraryVerdict(raw json.RawMessage, ce *CallEvidence) (Library, bool) {
	if len(raw) == 0 {
		return Library{}, false
	}
	var l Library
	if json.Unmarshal(raw, &l) != nil {
		return Library{}, false
	}
	var mine []evidence.Value
	for _, e := range ce.Values {
		if e.In == InAnswer && e.Unsupported() {
			mine = append(mine, evidence.Value{Value: e.Value, Shape: e.Shape})
		}
	}
	listed := evidence.Result{Unsupported: mine}.Listed()
	l.Agrees = l.Candidates == ce.Candidates && slices.Equal(listed, l.Unsupported)
	return l, true
}
