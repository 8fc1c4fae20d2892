package common

import (
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"
)

// LivesOf is the lives of the replay on screen, told on the call on screen.
func LivesOf(s *session.Session) *present.Lives {
	return present.NewLives(s.Replay, s.Call, s.GuessRule)
}
