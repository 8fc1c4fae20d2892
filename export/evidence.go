package export

import (
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// Evidence is a call's `evidence` (docs/rules/evidence.md §6.2).
type Evidence struct {
	Candidates int                `json:"candidates"`
	Values     []provenance.Entry `json:"values"`
	// BelowFloor are the answer's numbers below the library's floor
	// whose source left: judged by inspect alone, never flagged, apart
	// from values (docs/rules/flags.md §10.5). Absent when none.
	BelowFloor []provenance.Entry `json:"belowFloor,omitempty"`
	Library    json.RawMessage    `json:"library"`
}

// Response is a call's `response` (§6.1) with what became of it when it
// is an answer (§9.4), null otherwise.
type Response struct {
	model.Response
	Outcome *string `json:"outcome"`
}

// ResponseOf is call c's `response`, with [] for no tool calls; outcome
// is "" for a call that is no answer.
func ResponseOf(c *model.Call, outcome string) Response {
	r := Response{Response: c.Facts.Response}
	if r.ToolCalls == nil {
		r.ToolCalls = []model.ToolCall{}
	}
	if outcome != "" {
		r.Outcome = &outcome
	}
	return r
}

// LibraryPayload is the recorded payload of the library's own answer
// check, or JSON null. Bytes that are not UTF-8 are re-encoded through a
// decode, so the export stays JSON.
func LibraryPayload(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	if utf8.Valid(raw) {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return json.RawMessage("null")
	}
	out, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return out
}

// EvidenceFormat names the JSON shape `inspect evidence --format json`
// writes.
const EvidenceFormat = "inspect.evidence.v1"

// EvidenceDoc is `inspect evidence --format json`: every judged value
// of the part --in selects, with whether it is flagged (§10), inspect's verdicts counted, and the library's
// own verdicts.
type EvidenceDoc struct {
	Format string        `json:"format"`
	Source string        `json:"source"`
	In     string        `json:"in"`     // answers, arguments or all (--in)
	Policy Policy        `json:"policy"` // the first agent's
	Agents []AgentPolicy `json:"agents"`
	Counts Counts        `json:"counts"`
	// FlaggedCounts counts the values §10.2 flags by verdict, the
	// answers' apart from the arguments' and narration's (§10.3.1);
	// NotFlagged the judged values it does not flag, by rule. Every
	// value, whatever --in says.
	FlaggedCounts Sides   `json:"flaggedCounts"`
	NotFlagged    Sides   `json:"notFlagged"`
	Values        []Value `json:"values"`
	// BelowFloor are the answers' numbers below the library's floor
	// whose source left (docs/rules/flags.md §10.5), judged by inspect
	// alone: listed when --in takes the answers, never flagged, counted
	// in NotFlagged as below-floor.
	BelowFloor []Value      `json:"belowFloor"`
	Library    []LibraryRow `json:"library"`
}

// AgentPolicy is one agent's settled policy.
type AgentPolicy struct {
	Agent  string `json:"agent"`
	Policy Policy `json:"policy"`
}

// Counts counts inspect's own verdicts of every value, the answers'
// apart from the arguments' (docs/rules/evidence.md §9.1).
type Counts struct {
	Answers   map[string]int `json:"answers"`
	Arguments map[string]int `json:"arguments"`
}

// Sides counts one thing of the answers and, apart, of the arguments and
// the narration (the text of a response that has tool calls and is no
// answer: it does not reach the caller).
type Sides struct {
	Answers   map[string]int `json:"answers"`
	Arguments map[string]int `json:"arguments"`
}

// Value is one value inspect judged (flagged or not, §10), with where it was and what would
// have kept its source.
type Value struct {
	Call      int    `json:"call"`
	Run       int    `json:"run"`
	RunID     string `json:"runId"`
	Agent     string `json:"agent"`
	Iteration int    `json:"iteration"`
	provenance.Entry
	// Typed is the value as the model typed it (Value is normalized:
	// lower-cased, its punctuation trimmed).
	Typed string `json:"typed"`
	Keep  *Keep  `json:"keep"` // null: none found, or never read
}

// Keep is the smallest window-policy change found under which a source
// of the value is in view on the call that used it (docs/rules/evidence.md
// §5 "what would have kept it").
type Keep struct {
	Policy model.Policy `json:"policy"`
	Steps  int          `json:"steps"` // knob steps from the policy in force
	Kept   string       `json:"kept"`  // the source it keeps, as "list_hosts call_0001" or "the user's text"
	Text   string       `json:"text"`  // the sentence, e.g. "keepRecentTurns 2→3 and keepLastToolResults 2→3 keep list_hosts call_0001 in view at call 13"
}

// LibraryRow is the library's own verdict on one call.
type LibraryRow struct {
	Call int `json:"call"`
	provenance.Library
	// UnsupportedCount is how many values inspect's reading of the
	// library's rules finds unsupported in that answer (the library lists
	// only its first 12).
	UnsupportedCount int `json:"unsupportedCount"`
	// OtherWindow: the replayed window of the call is not the one the
	// library judged (another policy): the two verdicts are not compared.
	OtherWindow bool `json:"otherWindow"`
}

// WriteEvidence writes doc as one line of JSON (see writeDoc).
func WriteEvidence(w io.Writer, doc EvidenceDoc) error { return writeDoc(w, doc) }
