package model

import "encoding/json"

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
	ReasonOnlyExistingSummary   = "only-existing-summary"
	ReasonSummarizerFailed      = "summarizer-failed"
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

	// Written by summarize-oldest (docs/rules/summarize-oldest.md §11.7), with
	// MeasuredTokens, ThresholdTokens and OverBudget, but no
	// KeepRecentTurns, TurnsBefore or TurnsAfter.
	//
	// SummaryChars is the frame's length (0 when no span was planned);
	// nil when it is not known (a fold the library refused for a reason
	// the log does not give).
	SummaryChars      *int   `json:"summaryChars,omitempty"`
	SummarizerTokens  *Usage `json:"summarizerTokens,omitempty"`
	SummarizerSkipped bool   `json:"summarizerSkipped,omitempty"`
	// SummaryRecorded is false when the frame's summary is a placeholder:
	// the library never folded this span, so its summary is not known.
	SummaryRecorded *bool `json:"summaryRecorded,omitempty"`

	// Unmeasured: a token-measured visit the log shows engaged, over a
	// count it does not keep (tier minimal, docs/rules/versions-and-tiers.md §16.4):
	// measuredTokens is written null, and thresholdTokens too when it is
	// not known (0).
	Unmeasured bool `json:"-"`
}

// summaryRecord is a summarize-oldest record as JSON: the library's keys,
// summaryChars always present (null when unknown).
type summaryRecord struct {
	Strategy            string        `json:"strategy"`
	Iteration           int           `json:"iteration"`
	MeasuredTokens      *int          `json:"measuredTokens"`
	ThresholdTokens     *int          `json:"thresholdTokens"`
	OverBudget          bool          `json:"overBudget"`
	WindowCharsBefore   int           `json:"windowCharsBefore"`
	RemovedMessageCount int           `json:"removedMessageCount"`
	WindowCharsAfter    int           `json:"windowCharsAfter"`
	SummaryChars        *int          `json:"summaryChars"`
	SummarizerTokens    *Usage        `json:"summarizerTokens,omitempty"`
	SummarizerSkipped   bool          `json:"summarizerSkipped,omitempty"`
	SummaryRecorded     *bool         `json:"summaryRecorded,omitempty"`
	Refusals            []Refusal     `json:"refusals"`
	DroppedObservations []string      `json:"droppedObservations,omitempty"`
	Observations        *Observations `json:"observations,omitempty"`
}

// unmeasuredRecord is a token-budget record as JSON whose count the log
// does not keep: the library's keys, measuredTokens null.
type unmeasuredRecord struct {
	Strategy            string        `json:"strategy"`
	Iteration           int           `json:"iteration"`
	KeepRecentTurns     int           `json:"keepRecentTurns"`
	RemovedMessageCount int           `json:"removedMessageCount"`
	WindowCharsBefore   int           `json:"windowCharsBefore"`
	WindowCharsAfter    int           `json:"windowCharsAfter"`
	MeasuredTokens      *int          `json:"measuredTokens"`
	OverBudget          bool          `json:"overBudget"`
	ThresholdTokens     *int          `json:"thresholdTokens"`
	Refusals            []Refusal     `json:"refusals"`
	DroppedObservations []string      `json:"droppedObservations,omitempty"`
	Observations        *Observations `json:"observations,omitempty"`
}

// tokens are the record's measuredTokens and thresholdTokens as JSON
// writes them: null when the count is not in the log.
func (r Record) tokens() (measured, threshold *int) {
	m, t := r.MeasuredTokens, r.ThresholdTokens
	measured, threshold = &m, &t
	if r.Unmeasured {
		measured = nil
		if t == 0 {
			threshold = nil
		}
	}
	return measured, threshold
}

// MarshalJSON writes the keys the record's strategy writes.
func (r Record) MarshalJSON() ([]byte, error) {
	measured, threshold := r.tokens()
	if r.Strategy != SummarizeOldest {
		if r.Unmeasured {
			return json.Marshal(unmeasuredRecord{
				Strategy: r.Strategy, Iteration: r.Iteration, KeepRecentTurns: r.KeepRecentTurns,
				RemovedMessageCount: r.RemovedMessageCount, WindowCharsBefore: r.WindowCharsBefore,
				WindowCharsAfter: r.WindowCharsAfter, MeasuredTokens: measured, OverBudget: r.OverBudget,
				ThresholdTokens: threshold, Refusals: r.Refusals, DroppedObservations: r.DroppedObservations,
				Observations: r.Observations,
			})
		}
		type plain Record
		return json.Marshal(plain(r))
	}
	return json.Marshal(summaryRecord{
		Strategy: r.Strategy, Iteration: r.Iteration, MeasuredTokens: measured,
		ThresholdTokens: threshold, OverBudget: r.OverBudget,
		WindowCharsBefore: r.WindowCharsBefore, RemovedMessageCount: r.RemovedMessageCount,
		WindowCharsAfter: r.WindowCharsAfter, SummaryChars: r.SummaryChars,
		SummarizerTokens: r.SummarizerTokens, SummarizerSkipped: r.SummarizerSkipped,
		SummaryRecorded: r.SummaryRecorded, Refusals: r.Refusals,
		DroppedObservations: r.DroppedObservations, Observations: r.Observations,
	})
}
