package model

// Refusal reasons: why a turn may not leave the window.
const (
	ReasonCurrentRequest        = "current-request"
	ReasonSystemEnvelope        = "system-envelope"
	ReasonPausedTool            = "paused-tool"
	ReasonPendingCheckIn        = "pending-check-in"
	ReasonUnresolvedToolCall    = "unresolved-tool-call"
	ReasonLastToolResult        = "last-tool-result"
	ReasonInsideKeepWindow      = "inside-keep-window"
	ReasonReplacementNotSmaller = "replacement-not-smaller"
)

// Turn is a run of the window: a non-tool message and the tool results
// that follow it.
type Turn struct {
	Index  int `json:"index"`
	Start  int `json:"start"`  // index of its first message in the window
	Length int `json:"length"` // number of messages
}

// Refusal says why one turn was not removed.
type Refusal struct {
	Reason       string `json:"reason"`
	TurnIndex    int    `json:"turnIndex"`
	MessageIndex int    `json:"messageIndex"`
}

// Pin is one turn the last-tool-result rule holds.
type Pin struct {
	ToolName     string `json:"toolName"`
	TurnIndex    int    `json:"turnIndex"`
	MessageIndex int    `json:"-"`
	Chars        int    `json:"chars"`
}

// Observations is what the pin did at one visit.
type Observations struct {
	Pinned    []Pin `json:"pinned"`
	Yielded   int   `json:"yielded"`
	Limit     int   `json:"limit"`
	StandDown bool  `json:"standDown,omitempty"`
}

// Record is the library's window record for one engaged visit, with the
// library's field names.
type Record struct {
	Strategy            string `json:"strategy"`
	Iteration           int    `json:"iteration"`
	KeepRecentTurns     int    `json:"keepRecentTurns"`
	RemovedMessageCount int    `json:"removedMessageCount"`
	WindowCharsBefore   int    `json:"windowCharsBefore"`
	WindowCharsAfter    int    `json:"windowCharsAfter"`
	// TurnsBefore and TurnsAfter are written by sliding-window;
	// MeasuredTokens, OverBudget and ThresholdTokens by token-budget.
	TurnsBefore         int           `json:"turnsBefore,omitempty"`
	TurnsAfter          int           `json:"turnsAfter,omitempty"`
	MeasuredTokens      int           `json:"measuredTokens,omitempty"`
	OverBudget          bool          `json:"overBudget,omitempty"`
	ThresholdTokens     int           `json:"thresholdTokens,omitempty"`
	Refusals            []Refusal     `json:"refusals"`
	DroppedObservations []string      `json:"droppedObservations,omitempty"`
	Observations        *Observations `json:"observations,omitempty"`
}
