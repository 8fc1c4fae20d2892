// Package export owns the JSON formats inspect writes for programs:
// inspect.export.v1 (the replay, call by call: docs/rules/export-contract.md §13,
// docs/rules/evidence.md §6), inspect.evidence.v1 (the values a response
// used that were not in view) and inspect.advise.v1 (the advisor's grid
// of policies and its picks), and the encoder that writes them fast —
// by hand, yet byte for byte what encoding/json writes (the tests and
// FuzzJSONOut hold it to that), a lone surrogate written as the
// library's JSON.stringify writes it, and every string made safe for a
// terminal by termtext.JSON.
//
// It never decides what goes in a document: which window a call had,
// which policy, which verdict — the caller (cli, asking study) fills the
// types here, and a new field of the contract is a field here, filled
// there.
package export

import (
	"encoding/json"

	"github.com/afinspect/inspect/model"
)

// Format names the JSON shape `inspect export` writes; each version of
// the contract only adds to the one before (docs/rules/export-contract.md §13), so the
// name stays: version 2 added agents, conversations and the evidence,
// version 3 (Contract) each call's systemPrompt, tools and slots.
const Format = "inspect.export.v1"

// Contract is the version of the export contract Format is written at.
const Contract = 3

// Doc is an export: everything but its calls, which Write streams.
type Doc struct {
	Format         string          `json:"format"`
	Source         string          `json:"source"`
	Files          []string        `json:"files,omitempty"` // the files read, in order, when several
	LibraryVersion Library         `json:"libraryVersion"`
	Tier           string          `json:"tier"` // minimal, standard or firehose (§16.2)
	Policy         Policy          `json:"policy"`
	Agents         []Agent         `json:"agents"`
	Conversations  []Conversation  `json:"conversations"`
	Problems       []model.Problem `json:"problems"`
	Calls          []Call          `json:"calls"`
}

// Library is §13.3's libraryVersion: the version whose window rules were
// replayed, and how that was decided (docs/rules/versions-and-tiers.md §17.2).
type Library struct {
	Version  *string `json:"version"` // named by a flag or an envelope, else null
	Rules    string  `json:"rules"`   // "9.57", "9.55" or "9.54"
	Source   string  `json:"source"`  // flag, envelope, log or default
	Evidence string  `json:"evidence"`
}

// Policy is §13.3's policy object: thresholdTokens only for the
// token strategies, noAnchor only when true.
type Policy struct {
	Strategy            string          `json:"strategy"`
	KeepRecentTurns     int             `json:"keepRecentTurns"`
	KeepLastToolResults int             `json:"keepLastToolResults"`
	ThresholdTokens     json.RawMessage `json:"thresholdTokens,omitempty"` // a number; null when not known (tier minimal)
	NoAnchor            bool            `json:"noAnchor,omitempty"`
	Inferred            bool            `json:"inferred"`
	Given               []string        `json:"given"` // the knobs given as flags
	Evidence            string          `json:"evidence"`
}

// Agent is one agent of the file and its policy (§13.2).
type Agent struct {
	Agent       string   `json:"agent"`
	AgentID     *string  `json:"agentId"`
	Path        []string `json:"path"`
	Step        string   `json:"step"`
	Composition bool     `json:"composition,omitempty"` // a composition's own calls (§15.5)
	Policy      Policy   `json:"policy"`
}

// Conversation is one conversation (§10.8) and the runIds of its
// segments in order.
type Conversation struct {
	Conversation int      `json:"conversation"`
	Agent        string   `json:"agent"`
	Runs         []string `json:"runs"`
}

// Call is one call of the export. Its fields are in three parts so that
// the messages, the bulk of it and the same in every call that holds
// them, can be encoded once each (encodeCall); encoding/json writes the
// embedded parts' fields as the call's own.
type Call struct {
	CallHead
	Window  []*model.Message `json:"window"`
	Evicted []*model.Message `json:"evicted"`
	CallTail
}

// CallHead is what a call's JSON holds before its messages.
type CallHead struct {
	Call         int    `json:"call"`
	Run          int    `json:"run"`
	RunID        string `json:"runId"`
	Conversation *int   `json:"conversation"` // null for a composition's own call
	Agent        string `json:"agent"`
	Iteration    int    `json:"iteration"`
	Pass         int    `json:"pass"`                  // the agent run within its runId and agent path (§15.2)
	Composition  bool   `json:"composition,omitempty"` // a composition's own call (§15.5)
	// File and Line are where the call's llm_start is when the export is
	// of several files (the source's Files); omitted for one file, whose
	// export is unchanged.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Request is what the call received besides its messages (contract
	// version 3): not part of the window
	Request
}

// CallTail is what a call's JSON holds after its messages.
type CallTail struct {
	Turns          []Turn        `json:"turns"`
	Record         *model.Record `json:"record"`
	RecordedWindow string        `json:"recordedWindow"`
	Usage          *model.Usage  `json:"usage"` // the provider's tokens; null when the call never ended
	Response       Response      `json:"response"`
	Evidence       Evidence      `json:"evidence"`
}

// Turn is one turn of a call's window before its visit, and its fate.
type Turn struct {
	Index   int     `json:"index"`
	Start   int     `json:"start"`
	Length  int     `json:"length"`
	Fate    string  `json:"fate"`
	Reason  *string `json:"reason"`
	Notice  bool    `json:"notice"`
	PinTool string  `json:"pinTool,omitempty"`
}
