package model

import "strings"

// Request is what a model call received besides its messages: the
// system prompt, the tools offered and the slots the library composed.
// None of it is part of the window: no window strategy drops it, and
// window characters never count it.
type Request struct {
	SystemPrompt SystemPrompt
	// Tools are the tools offered on the call, in request order, from
	// llm_start's catalog (else from the tools slot's injection records);
	// ToolsKnown is false when the log says nothing of them.
	Tools      []Tool
	ToolsKnown bool
	// Slots are the slot compositions (context.slot_composed) made for
	// this call, in the order the library composed them.
	Slots []Slot
}

// System prompt sources: where SystemPrompt.Text comes from.
const (
	// PromptRecorded: llm_start's systemPromptText, the prompt verbatim
	// (the run was built with recordSystemPrompt).
	PromptRecorded = "recorded"
	// PromptAssembled: the call's system-prompt injection records joined
	// in their order by a blank line, as the library joins them.
	PromptAssembled = "assembled"
	// PromptAbsent: the log holds only the prompt's length, if that.
	PromptAbsent = "absent"
)

// SystemPrompt is the system prompt of one call, as far as the log holds
// it. Text is never made up: when Source is PromptAbsent it is "".
type SystemPrompt struct {
	Source string
	Text   string
	// Chars is llm_start's systemPromptChars (UTF-16 units, as Len
	// counts); HasChars says the log gave it.
	Chars    int
	HasChars bool
	// Pieces are the call's system-prompt injection records, in order
	// (the previous call's when the slot was not composed again).
	Pieces []PromptPiece
}

// PromptPiece is one injection record of the system-prompt slot.
type PromptPiece struct {
	Source   string // base, steering, instructions, skill, rag, memory, …
	SourceID string // the skill, steering rule or passage it came from ("" for none)
	Reason   string // why the library injected it
	Text     string // its rawContent, else its contentSummary (Summary)
	// Summary: the record had no rawContent string, so Text is the
	// library's contentSummary, which may be clipped.
	Summary bool
}

// Assembled is the pieces joined in order by a blank line: the system
// prompt the library sends when these are all its pieces.
func (s SystemPrompt) Assembled() string {
	switch len(s.Pieces) {
	case 0:
		return ""
	case 1:
		return s.Pieces[0].Text
	}
	var b strings.Builder
	for i, p := range s.Pieces {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// Known reports whether the prompt's text is in the log.
func (s SystemPrompt) Known() bool { return s.Source == PromptRecorded || s.Source == PromptAssembled }

// Length is the prompt's length in UTF-16 units: the text's when known,
// else llm_start's count; ok is false when neither is in the log.
func (s SystemPrompt) Length() (n int, ok bool) {
	if s.Known() {
		return Len(s.Text), true
	}
	return s.Chars, s.HasChars
}

// Tool is one tool offered to the model: its name and description.
type Tool struct {
	Name        string
	Description string
}

// Chars is the tool's name and description in UTF-16 units: what its
// catalog entry carries of text (its input schema is not in the log).
func (t Tool) Chars() int { return Len(t.Name) + Len(t.Description) }

// Slot is one context.slot_composed: a slot's budget at one composition.
type Slot struct {
	Slot      string // system-prompt, messages, tools
	Iteration int
	// Cap, Used and Headroom are the budget's cap, used and headroomChars
	// (characters).
	Cap, Used, Headroom int
	// DroppedCount is how many pieces the cap left out, Dropped their
	// summaries as the library wrote them.
	DroppedCount int
	Dropped      []string
}
