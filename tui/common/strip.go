package common

import (
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/session"
)

// StripOf is what the lifetime strips are drawn from on the call on
// screen: the replay's calls and the judged uses out of view.
func StripOf(s *session.Session) present.Strip {
	if s == nil || s.Replay == nil {
		return present.Strip{Used: s.UsedOutOfView}
	}
	return present.Strip{Calls: s.Replay.Calls, Call: s.Call, Used: s.UsedOutOfView}
}
