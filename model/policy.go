package model

import "fmt"

// Strategy names the library uses.
const (
	SlidingWindow   = "sliding-window"
	TokenBudget     = "token-budget"
	SummarizeOldest = "summarize-oldest"
)

// Library defaults.
const (
	DefaultKeepRecentTurns     = 6
	DefaultKeepLastToolResults = 2
	DefaultNoticeStrategy      = SlidingWindow
)

// Policy is one point in the space of window policies a replay can run.
type Policy struct {
	Strategy            string `json:"strategy"`
	KeepRecentTurns     int    `json:"keepRecentTurns"`
	KeepLastToolResults int    `json:"keepLastToolResults"` // 0 switches pins off
	ThresholdTokens     int    `json:"thresholdTokens,omitempty"`
	// NoAnchor replays the library as it was before 9.55: no turn is
	// refused as the current request.
	NoAnchor bool `json:"noAnchor,omitempty"`
}

// PinsOn reports whether the last-tool-result pin is in force.
func (p Policy) PinsOn() bool { return p.KeepLastToolResults > 0 }

// String is the policy as the status bar and report print it.
func (p Policy) String() string {
	s := fmt.Sprintf("%s keepRecentTurns=%d keepLastToolResults=%d", p.Strategy, p.KeepRecentTurns, p.KeepLastToolResults)
	switch {
	case p.ThresholdTokens > 0:
		s += fmt.Sprintf(" thresholdTokens=%d", p.ThresholdTokens)
	case p.Strategy == TokenBudget || p.Strategy == SummarizeOldest:
		s += " thresholdTokens=unknown" // no threshold is 0: the log did not keep it
	}
	if p.NoAnchor {
		s += " anchor=off"
	}
	return s
}
