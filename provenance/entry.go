package provenance

import (
	"bytes"
	"encoding/json"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
)

// Where a value was typed (§9.1): in the text of the response, or in the
// arguments of one of its tool calls. The two are counted apart.
const (
	InAnswer   = "answer"
	InToolCall = "toolCall"
)

// Source is one message that held a value and left the window (§6.2), or
// for a summary's value a tool result it folded (§9.3). Call numbers are
// the export's (model.Call.Number); Run is the run number
// (docs/rules/runs-and-conversations.md §10.2).
type Source struct {
	ToolName   *string
	ToolCallID *string
	Run        int
	SentOn     [2]int // meaningless when Sent is false
	EvictedAt  int
	Rule       string
	// Rules is Rule under each policy the log cannot tell apart from the
	// one replayed (advise.Rules), that one's first, when they say
	// different things ("superseded", "pins-off"); nil otherwise. Written
	// only when set: the export never sets it.
	Rules []string

	unsent bool
	msg    *model.Message
}

// Sent reports whether the message was sent on some call: a tool result a
// fold took before any call was sent it was not, and its sentOn is null.
func (s Source) Sent() bool { return !s.unsent }

// MarshalJSON writes sentOn as null for a message never sent.
func (s Source) MarshalJSON() ([]byte, error) {
	var sent *[2]int
	if !s.unsent {
		sent = &s.SentOn
	}
	return marshal(struct {
		ToolName   *string  `json:"toolName"`
		ToolCallID *string  `json:"toolCallId"`
		Run        int      `json:"run"`
		SentOn     *[2]int  `json:"sentOn"`
		EvictedAt  int      `json:"evictedAt"`
		Rule       string   `json:"rule"`
		Rules      []string `json:"rules,omitempty"`
	}{s.ToolName, s.ToolCallID, s.Run, sent, s.EvictedAt, s.Rule, s.Rules})
}

// InText is one text of the window that holds an `in-view-text` value
// between atom boundaries (§9.2): a tool message (named), or with both
// null the request, the system prompt or a user or system message; Token
// the first token of it that holds the value (null: none does).
type InText struct {
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
	Token      *string `json:"token"`

	msg *model.Message
}

// Message is the window message that holds the value; nil for the
// request or the system prompt.
func (t InText) Message() *model.Message { return t.msg }

// Near is the form of a folded tool result nearest a value only a summary
// holds (§9.3). The zero Near, none within evidence.MaxNear, is written
// as null.
type Near struct {
	Value      string
	Distance   int
	ToolName   *string
	ToolCallID *string
}

// Found reports whether a form was within evidence.MaxNear.
func (n Near) Found() bool { return n.Distance > 0 }

// MarshalJSON writes the zero Near as null.
func (n Near) MarshalJSON() ([]byte, error) {
	if !n.Found() {
		return []byte("null"), nil
	}
	return marshal(struct {
		Value      string  `json:"value"`
		Distance   int     `json:"distance"`
		ToolName   *string `json:"toolName"`
		ToolCallID *string `json:"toolCallId"`
	}{n.Value, n.Distance, n.ToolName, n.ToolCallID})
}

// Entry is one value of a response with its verdict (§6.2 `values`).
// InText is set for `in-view-text`, Near for `summary-unsupported`, Read
// for an answer value that is a JSON number's `:NNNN` token (§9.5).
type Entry struct {
	Value      string   `json:"value"`
	Shape      string   `json:"shape"`
	In         string   `json:"in"`
	ToolCallID *string  `json:"toolCallId,omitempty"`
	Verdict    string   `json:"verdict"`
	Sources    []Source `json:"sources"`
	InText     []InText `json:"inText,omitempty"`
	Near       *Near    `json:"near,omitempty"`
	Read       *Read    `json:"read,omitempty"`

	// What §10 adds: where the value was typed, finer than In (answer,
	// narration or toolCall); whether inspect flags it and by which rule
	// of §10.2 (a grounded value is never flagged and has no rule); and
	// the explanations of §10.3.
	Place string `json:"place"`
	Flag  bool   `json:"flagged"`
	Rule  string `json:"rule,omitempty"`
	// Refuted: named only to be refuted (rule 7); LibraryListed: the
	// library's answer check lists it (rule 6), whatever inspect says.
	Refuted       bool `json:"refuted,omitempty"`
	LibraryListed bool `json:"libraryListed,omitempty"`
	// LeftInside: a never-read value a message gone held inside a longer
	// token; Nearest: the nearest form the run read (never-read only).
	LeftInside     *LeftInside `json:"leftInside,omitempty"`
	Nearest        *Nearest    `json:"nearest,omitempty"`
	AlsoInOwnWords bool        `json:"alsoInOwnWords,omitempty"`
	// EarlierPass: a never-read value an earlier pass of the same agent
	// (a Loop's, a swarm's) was sent in a message (passes.go).
	EarlierPass *EarlierPass `json:"earlierPass,omitempty"`
	// LookedFor: a never-read value an absence frame in view was asked
	// for and did not find (its looked_for, which the library does not
	// index, holds it).
	LookedFor *LookedFor `json:"lookedFor,omitempty"`
	// OwnVerdict is inspect's own verdict when it is not Verdict: a JSON
	// number's read's (§9.5), so that a reader of the JSON finds the
	// verdict the table shows and the flag was decided on beside the
	// library's reading of `:3940`; "" otherwise.
	OwnVerdict string `json:"ownVerdict,omitempty"`
	// InViewInside: for a left value §10.2 rule 2 did not flag, the texts
	// of the window that hold its characters inside a longer token, as
	// InText names them (an in-view-text value has them as InText).
	InViewInside []InText `json:"inViewInside,omitempty"`
}

// Read is the number a `:NNNN` answer value stands for (§9.5): the value
// without its colon, normalized; its shape and verdict null when it has
// fewer than evidence.MinDigits digits (then it is no value).
type Read struct {
	Value   string   `json:"value"`
	Shape   *string  `json:"shape"`
	Verdict *string  `json:"verdict"`
	Sources []Source `json:"sources"`
	InText  []InText `json:"inText,omitempty"`
	Near    *Near    `json:"near,omitempty"`
}

// Own is inspect's own verdict of the value (§9.5.3): its read's when it
// has one ("" when the read is no value), else its verdict. The screen,
// the counts and the gate use it; the library's column uses Verdict.
func (e Entry) Own() string {
	if e.Read != nil {
		if e.Read.Verdict == nil {
			return ""
		}
		return *e.Read.Verdict
	}
	return e.Verdict
}

// Flagged reports whether inspect flags the value (§10.2): a reader
// has to look at it. Its own verdict is then left, in-view-text,
// never-read or summary-unsupported; not every such value is flagged.
func (e Entry) Flagged() bool { return e.Flag }

// Judged reports whether the value's own verdict is one the library's
// rules do not ground or a summary's value no tool result held: one
// §10.2 decides on, flagged or not.
func (e Entry) Judged() bool { return evidence.Flagged(e.Own()) }

// Unsupported reports whether the library's rules leave the value
// unsupported (its Verdict, not its read's): the library's list.
func (e Entry) Unsupported() bool { return evidence.Unsupported(e.Verdict) }

// CallEvidence is every value of one call's response.
type CallEvidence struct {
	Candidates int     // distinct values of the response content
	Values     []Entry // the answer's, then each tool call's arguments'
	// BelowFloor are the answer's numbers below the library's floor
	// whose source left, judged by inspect alone and never flagged
	// (belowFloor): apart, so that Values stays the library's values.
	BelowFloor []Entry
}

// marshal is encoding/json's bytes for v without HTML escaping, as the
// documents that hold these values are written (an encoder's setting does
// not reach inside a MarshalJSON).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
