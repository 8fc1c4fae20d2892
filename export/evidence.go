package export

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/termtext"
)

// Evidence is a call's `evidence` (EVIDENCE-SEMANTICS §6.2).
type Evidence struct {
	Candidates int                `json:"candidates"`
	Values     []provenance.Entry `json:"values"`
	Library    json.RawMessage    `json:"library"`
}

// Response is a call's `response` (§6.1), with [] for no tool calls.
func Response(c *model.Call) model.Response {
	r := c.Facts.Response
	if r.ToolCalls == nil {
		r.ToolCalls = []model.ToolCall{}
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

// EvidenceDoc is `inspect evidence --format json`: every flagged value,
// and the library's own verdicts.
type EvidenceDoc struct {
	Format  string       `json:"format"`
	Source  string       `json:"source"`
	Policy  string       `json:"policy"`
	Values  []Value      `json:"values"`
	Library []LibraryRow `json:"library"`
}

// Value is one value the library's rules do not ground, with where it
// was and what would have kept its source.
type Value struct {
	Call      int    `json:"call"`
	Run       int    `json:"run"`
	RunID     string `json:"runId"`
	Iteration int    `json:"iteration"`
	provenance.Entry
	Keep *Keep `json:"keep"` // null: none found, or never read
}

// Keep is the smallest window-policy change found under which a source
// of the value is in view on the call that used it (EVIDENCE-SEMANTICS
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
}

// WriteEvidence writes doc as JSON.
func WriteEvidence(w io.Writer, doc EvidenceDoc) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	out, err := withSurrogates(doc, buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(termtext.JSON(out))
	return err
}
