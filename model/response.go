package model

import "encoding/json"

// Response is what the model answered on one call
// (docs/rules/evidence.md §6.1): the llm_end content, the tool calls of the
// assistant message the call's iteration appended (else its tool_starts),
// the usage and the stop reason as llm_end gave them (nil when absent).
type Response struct {
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"toolCalls"`
	Usage      *Usage     `json:"usage"`
	StopReason *string    `json:"stopReason"`
}

// CallFacts are what the log says about one call besides its window: its
// response, the system prompt it was built from (the rawContent, else the
// contentSummary, of each system-prompt injection record composed for it)
// and the payload of the library's evidence_checked event for its
// iteration, as recorded (nil when none).
type CallFacts struct {
	Response        Response
	SystemPrompt    []string
	EvidenceChecked json.RawMessage
}
