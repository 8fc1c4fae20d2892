package window

import "github.com/afinspect/inspect/model"

// compareRecorded checks a replayed window against what the library
// recorded for the call, message by message, by role and content (§10.6).
func compareRecorded(w []*model.Message, c *model.Call) string {
	if c.Recorded == nil {
		return Unknown
	}
	if !sameWindow(w, c.Recorded) {
		return Differs
	}
	return Match
}

// sameWindow compares two windows by role and content.
func sameWindow(a, b []*model.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !model.SameText(a[i], b[i]) {
			return false
		}
	}
	return true
}
