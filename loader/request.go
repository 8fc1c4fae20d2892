package loader

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/afinspect/inspect/model"
)

// The request beyond its messages (model.Request): the system prompt,
// the tools offered and the slot budgets. The library composes each slot
// (context.injected records, then context.slot_composed) and then emits
// llm_start, so what a segment composed since its last llm_start belongs
// to the call the next llm_start opens; a slot not composed again keeps
// the previous call's pieces, as the evidence rules read the system
// prompt (docs/rules/evidence.md §3).

// reqRaw is what a decoder found of the request in one event, each value
// as its JSON, so that one reading (the builder's) serves both decoders.
type reqRaw struct {
	// llm_start: systemPromptChars, systemPromptText, tools, toolsCount;
	// slot_composed: slot, iteration, budget, droppedCount,
	// droppedSummaries
	vals [5][]byte
	// a system-prompt or tools injection record's source (its JSON) and
	// reason; isTools: of the tools slot; summary: the text is the
	// contentSummary, the record having no rawContent string
	source           []byte
	reason           string
	isTools, summary bool
}

// noRequest is the request of an event that has none; never written.
var noRequest reqRaw

// request is what the event holds of the request (zero for none).
func (p *parsed) request() *reqRaw {
	if p.req == nil {
		return &noRequest
	}
	return p.req
}

// reqW is the event's request, made to be written.
func (p *parsed) reqW() *reqRaw {
	if p.req == nil {
		p.req = new(reqRaw)
	}
	return p.req
}

// requestState is a segment's request composed since its last llm_start,
// and what its last call had, reused by the next when the same.
type requestState struct {
	pieces, lastPieces []model.PromptPiece
	piecesComposed     bool
	lastText           string // lastPieces assembled, once asked
	lastTextOK         bool
	tools, lastTools   []model.Tool // the tools slot's records
	toolsComposed      bool
	slots              []model.Slot
	// the last llm_start's tools catalog and systemPromptText, as JSON
	// and as read
	catalogRaw, textRaw []byte
	catalog             []model.Tool
	text                string
}

// requestPiece files one injection record of the system-prompt or the
// tools slot.
func (b *builder) requestPiece(rs *runState, p *parsed) {
	rq := &rs.req
	if p.request().isTools {
		if !rq.toolsComposed {
			rq.tools, rq.toolsComposed = nil, true
		}
		rq.tools = append(rq.tools, toolOfRecord(p.sourceID, p.text))
		return
	}
	if !rq.piecesComposed {
		rq.pieces, rq.piecesComposed = nil, true
	}
	rq.pieces = append(rq.pieces, model.PromptPiece{Source: jsonString(p.request().source), SourceID: p.sourceID,
		Reason: p.request().reason, Text: p.text, Summary: p.request().summary})
}

// toolOfRecord is a tools-slot record as a tool: the library writes its
// rawContent as "name: description".
func toolOfRecord(name, content string) model.Tool {
	desc := content
	if rest, ok := bytes.CutPrefix([]byte(content), []byte(name+": ")); ok && name != "" {
		desc = string(rest)
	}
	return model.Tool{Name: name, Description: desc}
}

// slotComposed files one context.slot_composed for the next call.
func (b *builder) slotComposed(rs *runState, p *parsed) {
	v := p.request().vals
	s := model.Slot{Slot: jsonString(v[0])}
	s.Iteration, _ = countOf(v[1])
	s.DroppedCount, _ = countOf(v[3])
	if !missing(v[2]) {
		var budget struct {
			Cap, Used     float64
			HeadroomChars float64 `json:"headroomChars"`
		}
		if err := unmarshal(v[2], &budget); err != nil {
			b.problem(p.at, "context.slot_composed budget: %s", describe(err))
		}
		s.Cap, s.Used, s.Headroom = clampInt(budget.Cap), clampInt(budget.Used), clampInt(budget.HeadroomChars)
	}
	if !missing(v[4]) && string(bytes.TrimSpace(v[4])) != "[]" {
		if err := unmarshal(v[4], &s.Dropped); err != nil {
			b.problem(p.at, "context.slot_composed droppedSummaries: %s", describe(err))
		}
	}
	rs.req.slots = append(rs.req.slots, s)
}

// clampInt is f as an int a count can hold.
func clampInt(f float64) int { return int(max(min(f, 1<<53), -(1 << 53))) }

// jsonString is raw read as a JSON string, "" when it is none.
func jsonString(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	return jsonText(raw)
}

// requestFor is the request of the call llm_start p opens.
func (b *builder) requestFor(rs *runState, p *parsed, call *model.Call) model.Request {
	rq := &rs.req
	var r model.Request
	r.Slots, rq.slots = rq.slots, nil

	if rq.piecesComposed {
		if !slices.Equal(rq.pieces, rq.lastPieces) {
			rq.lastPieces, rq.lastTextOK = rq.pieces, false
		}
		rq.pieces, rq.piecesComposed = nil, false
	}
	sp := &r.SystemPrompt
	sp.Pieces = rq.lastPieces
	sp.Chars, sp.HasChars = countOf(p.request().vals[0])
	switch text := p.request().vals[1]; {
	case len(text) > 0 && text[0] == '"':
		if !bytes.Equal(text, rq.textRaw) {
			rq.textRaw, rq.text = append(rq.textRaw[:0], text...), jsonText(text)
		}
		sp.Source, sp.Text = model.PromptRecorded, rq.text
	case len(sp.Pieces) > 0:
		if !rq.lastTextOK {
			rq.lastText, rq.lastTextOK = sp.Assembled(), true
		}
		sp.Source, sp.Text = model.PromptAssembled, rq.lastText
		if n := model.Len(sp.Text); sp.HasChars && n != sp.Chars {
			// the records are not the whole prompt: its text is not known
			b.problem(p.at, "call %d: its %d system-prompt pieces join to %d characters, but stream.llm_start systemPromptChars is %d; the prompt's text is not in the log",
				call.Number, len(sp.Pieces), n, sp.Chars)
			sp.Source, sp.Text = model.PromptAbsent, ""
		}
	case sp.HasChars && sp.Chars == 0:
		sp.Source = model.PromptAssembled // nothing composed and nothing sent
	default:
		sp.Source = model.PromptAbsent
	}

	if rq.toolsComposed {
		rq.lastTools, rq.tools, rq.toolsComposed = rq.tools, nil, false
	}
	count, hasCount := countOf(p.request().vals[3])
	switch catalog := p.request().vals[2]; {
	case len(catalog) > 0 && catalog[0] == '[':
		if !bytes.Equal(catalog, rq.catalogRaw) {
			tools, err := readCatalog(catalog)
			if err != nil {
				b.problem(p.at, "stream.llm_start tools: %s", err)
				break
			}
			rq.catalogRaw, rq.catalog = append(rq.catalogRaw[:0], catalog...), tools
		}
		r.Tools, r.ToolsKnown = rq.catalog, true
	case !missing(catalog):
		b.problem(p.at, "stream.llm_start tools is a JSON %s, not a list", jsonType(catalog))
	case hasCount && count == 0: // the library leaves the catalog out when no tool was sent
		r.Tools, r.ToolsKnown = []model.Tool{}, true
	case hasCount && count == len(rq.lastTools):
		r.Tools, r.ToolsKnown = rq.lastTools, true
	}
	return r
}

// readCatalog reads llm_start's tools: [{name, description}].
func readCatalog(raw []byte) ([]model.Tool, error) {
	var entries []struct {
		Name        *string `json:"name"`
		Description *string `json:"description"`
	}
	if err := unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%s", describe(err))
	}
	tools := make([]model.Tool, 0, len(entries))
	for i, e := range entries {
		if e.Name == nil {
			return nil, fmt.Errorf("tool %d has no name", i+1)
		}
		t := model.Tool{Name: *e.Name}
		if e.Description != nil {
			t.Description = *e.Description
		}
		tools = append(tools, t)
	}
	return tools, nil
}
