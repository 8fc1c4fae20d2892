package model

import (
	"encoding/json"
	"math/bits"
	"unicode/utf8"
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
// recording (0 for messages a replay made, such as drop notices); it is
// never exported.
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

	ID    int    `json:"-"`
	chars int    // cached Len(Content)+1; 0 means not measured yet
	key   uint64 // cached Key(Role, Content), when keyed
	keyed bool
}

// TextKey is Key(Role, Content), worked out once. Like Chars, a message
// shared between goroutines must be keyed before it is shared.
func (m *Message) TextKey() uint64 {
	if !m.keyed {
		m.key, m.keyed = Key(m.Role, m.Content), true
	}
	return m.key
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

// Key is a position-free 64-bit hash of a message's role and content:
// FNV-1a over the UTF-16 units of the content, mixed with the role's
// (RoleMix). Two messages the library would compare as equal have one
// key. The content is hashed alone so that a reader can hash it before
// it knows the role.
func Key(role, content string) uint64 {
	return KeyText(KeyOffset, content) ^ RoleMix(role)
}

// RoleMix is what a role adds to a Key.
func RoleMix[T string | []byte](role T) uint64 {
	return bits.RotateLeft64(KeyText(KeyOffset, role)*KeyPrime, 31)
}

// FNV-1a, 64 bits.
const (
	KeyOffset = 14695981039346656037
	KeyPrime  = 1099511628211
)

// KeyText folds text into a Key hash as UTF-16 code units (a lone
// surrogate as its own unit); a byte of bad UTF-8 counts as U+FFFD.
func KeyText[T string | []byte](h uint64, s T) uint64 {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h = (h ^ uint64(c)) * KeyPrime
			i++
			continue
		}
		r, size := DecodeRune(s[i:])
		h = KeyRune(h, r)
		i += size
	}
	return h
}

// KeyRune folds one character into a Key hash as UTF-16 code units.
func KeyRune(h uint64, r rune) uint64 {
	if r >= 0x10000 {
		r -= 0x10000
		h = (h ^ uint64(0xD800+(r>>10))) * KeyPrime
		return (h ^ uint64(0xDC00+(r&0x3FF))) * KeyPrime
	}
	return (h ^ uint64(r)) * KeyPrime
}

// SameText reports whether a and b have the same role and content, the
// comparison the library's windows are checked by.
func SameText(a, b *Message) bool {
	return a == b || a.TextKey() == b.TextKey() && a.Role == b.Role && a.Content == b.Content
}
