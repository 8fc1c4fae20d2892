package model

import "testing"

// The library's corrections (frames.ts isLibraryAuthoredTurn: content
// starting with "[evidence check" or "[schema check") are turns the
// library wrote; e01-guard's correction, verbatim in its README, is one.
func TestCorrectionIsTheLibrarys(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want bool
	}{
		{Message{Role: RoleUser, Content: "[evidence check — the answer above states values that appear in NO tool result"}, true},
		{Message{Role: RoleUser, Content: "[schema check — the reply was not valid JSON"}, true},
		{Message{Role: RoleUser, Content: " [evidence check"}, false},
		{Message{Role: RoleUser, Content: "Please run an [evidence check"}, false},
		{Message{Role: RoleAssistant, Content: "[evidence check"}, false},
		{Message{Role: RoleUser, Content: "[dropped history — 3 earlier message(s)"}, false},
	} {
		if got := c.m.IsCorrection(); got != c.want {
			t.Errorf("%q (%s): %v, want %v", c.m.Content, c.m.Role, got, c.want)
		}
	}
}
