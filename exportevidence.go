package main

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// exportEvidence is a call's `evidence` (EVIDENCE-SEMANTICS §6.2).
type exportEvidence struct {
	Candidates int                `json:"candidates"`
	Values     []provenance.Entry `json:"values"`
	Library    json.RawMessage    `json:"library"`
}

// exportResponse is a call's `response` (§6.1) with what became of it
// when it is an answer (§9.4), null otherwise.
type exportResponse struct {
	model.Response
	Outcome *string `json:"outcome"`
}

// callResponse is a call's `response`, with [] for no tool calls.
func callResponse(c *model.Call, outcome string) exportResponse {
	r := exportResponse{Response: c.Facts.Response}
	if r.ToolCalls == nil {
		r.ToolCalls = []model.ToolCall{}
	}
	if outcome != "" {
		r.Outcome = &outcome
	}
	return r
}

// callOutcomes is each answer's outcome (provenance.Outcomes), by call.
func callOutcomes(rec *model.Recording) map[*model.Call]string {
	out := map[*model.Call]string{}
	for _, run := range rec.Runs {
		for k, o := range provenance.Outcomes(run) {
			if o != "" {
				out[run.Calls[k]] = o
			}
		}
	}
	return out
}

// callEvidence judges call i's values against its replayed window and
// carries the library's own verdict as recorded.
func callEvidence(book *provenance.Book, i int, c *model.Call) exportEvidence {
	ce := book.Call(i)
	e := exportEvidence{Candidates: ce.Candidates, Values: ce.Values, Library: libraryPayload(c.Facts.EvidenceChecked)}
	if e.Values == nil {
		e.Values = []provenance.Entry{}
	}
	return e
}

// libraryPayload is the recorded payload, or JSON null. Bytes that are
// not UTF-8 are re-encoded through a decode, so the export stays JSON.
func libraryPayload(raw json.RawMessage) json.RawMessage {
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
