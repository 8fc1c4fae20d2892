package model

import (
	"encoding/json"
)

// Roles a message can have.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ToolCall is one call an assistant turn asked for. Args stay as the raw
// JSON the library wrote, so key order and number spelling survive export.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Message is one message of the conversation, with the library's own JSON
// keys. ID is this tool's identity for the message within one loaded
// recording (0 for messages a replay made, such as drop notices; below 0
// for those the loader made for a call the input left open, which a file
// that grows may settle otherwise); it is never exported.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	ToolName   string     `json:"toolName,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	// InjectedBy is the history's injectedBy marker (its JSON text) of a
	// message an injection delivered (§10.6): it keeps §3 from taking the
	// message for something the person said, and never reaches the wire,
	// so no export carries it (§13.3).
	InjectedBy string `json:"-"`
	Ephemeral  bool   `json:"ephemeral,omitempty"`
	// ToolChars is where the tool's own text ends in Content (UTF-16
	// units), when the library appended a note after it. Kept as the
	// number the library wrote; toolbytes decides whether it applies.
	ToolChars *float64 `json:"toolChars,omitempty"`
	// Placeholder marks a compaction frame the replay made for a fold the
	// library never made: its summary text is not known (§11.9). Such a
	// message was never sent.
	Placeholder bool `json:"placeholder,omitempty"`

	ID    int `json:"-"`
	chars int // cached Len(Content)+1; 0 means not measured yet
}

// Chars is the message's content length in UTF-16 units, measured once.
// A message shared between goroutines must be measured before it is
// shared (the loader measures every message it makes).
func (m *Message) Chars() int {
	if m.chars == 0 {
		m.chars = Len(m.Content) + 1
	}
	return m.chars - 1
}

// KnownChars records a content length the caller already computed (a
// drop notice's, say), sparing the measurement. n must be Len(Content).
func (m *Message) KnownChars(n int) { m.chars = n + 1 }

// Notice markers: a user message whose content starts with one of these
// was written by the library, not said by the person.
const (
	DroppedPrefix   = "[dropped history"
	CompactedPrefix = "[compacted history"
)

// IsNotice reports whether m is a drop notice the library wrote.
func (m *Message) IsNotice() bool {
	return m.Role == RoleUser && hasPrefix(m.Content, DroppedPrefix)
}

// IsFrame reports whether m is a compaction frame: a user message holding
// a summary that summarize-oldest put in place of folded messages.
func (m *Message) IsFrame() bool {
	return m.Role == RoleUser && hasPrefix(m.Content, CompactedPrefix)
}

// Correction markers: a user message whose content starts with one of
// these is the library asking the model for a revision — the answer check
// or the output schema's — a turn the library wrote, not the person
// (docs/rules/evidence.md §9.4.4). It is no exempt text (§3).
const (
	EvidenceCheckPrefix = "[evidence check"
	SchemaCheckPrefix   = "[schema check"
)

// IsCorrection reports whether m is a correction the library wrote: a
// user message starting with EvidenceCheckPrefix or SchemaCheckPrefix,
// shown as the library's (as a drop notice is) beside the answer it
// corrects.
func (m *Message) IsCorrection() bool {
	return m.Role == RoleUser && (hasPrefix(m.Content, EvidenceCheckPrefix) || hasPrefix(m.Content, SchemaCheckPrefix))
}

// IsPersonSaid reports whether m is something the person said: a user
// message that no injection put there and that is neither a drop notice
// nor a compaction frame.
func (m *Message) IsPersonSaid() bool {
	return m.Role == RoleUser && m.InjectedBy == "" &&
		!hasPrefix(m.Content, DroppedPrefix) && !hasPrefix(m.Content, CompactedPrefix)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// WindowChars sums the content lengths of a window.
func WindowChars(w []*Message) int {
	n := 0
	for _, m := range w {
		n += m.Chars()
	}
	return n
}

// SameText reports whether a and b have the same role and content, the
// comparison the library's windows are checked by.
func SameText(a, b *Message) bool {
	return a == b || a.Role == b.Role && a.Content == b.Content
}
