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
	case p.NeedsThreshold():
		s += " thresholdTokens=unknown" // no threshold is 0: the log did not keep it
	}
	if p.NoAnchor {
		s += " anchor=off"
	}
	return s
}

// NeedsThreshold reports whether the strategy engages on the provider's
// token count (token-budget, summarize-oldest), so that it needs
// thresholdTokens.
func (p Policy) NeedsThreshold() bool {
	return p.Strategy == TokenBudget || p.Strategy == SummarizeOldest
}

// ThresholdStep is one step of thresholdTokens: what the UI's t and T
// keys move, and the step the "what would have kept it" search counts.
const ThresholdStep = 500

// StepThreshold is p with thresholdTokens moved by n steps, never below 0.
func (p Policy) StepThreshold(n int) Policy {
	p.ThresholdTokens = max(0, p.ThresholdTokens+n*ThresholdStep)
	return p
}
