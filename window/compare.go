package window

import "github.com/afinspect/inspect/model"

// compareRecorded checks a replayed window against what the library
// recorded for the call: its messages' content hashes, by position.
func compareRecorded(w []*model.Message, c *model.Call) string {
	if c.RecordedHashes == nil {
		return Unknown
	}
	if !hashesMatch(w, c.RecordedHashes) {
		return Differs
	}
	return Match
}
