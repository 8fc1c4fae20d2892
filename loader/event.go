package loader

import (
	"encoding/json"
	"strings"

	"github.com/afinspect/inspect/model"
)

// Event types the loader reads; every other type is ignored.
const (
	libraryPrefix  = "agentfootprint."
	evRunConfig    = "agentfootprint.agent.run_configured"
	evTurnStart    = "agentfootprint.agent.turn_start"
	evTurnEnd      = "agentfootprint.agent.turn_end"
	evIterationEnd = "agentfootprint.agent.iteration_end"
	evLLMStart     = "agentfootprint.stream.llm_start"
	evLLMEnd       = "agentfootprint.stream.llm_end"
	evToolStart    = "agentfootprint.stream.tool_start"
	evToolEnd      = "agentfootprint.stream.tool_end"
	evInjected     = "agentfootprint.context.injected"
	evPressure     = "agentfootprint.context.budget_pressure"
	evEvidence     = "agentfootprint.agent.evidence_checked"
	evRepeated     = "agentfootprint.tools.repeated_call"
	evCompEnter    = "agentfootprint.composition.enter"
	evFatal        = "agentfootprint.error.fatal"
	evSlotComposed = "agentfootprint.context.slot_composed"
)

// kind is what an event is to the builder.
type kind uint8

const (
	kindNone      kind = iota // nothing to build: not JSON, no type, not the library's
	kindOther                 // a library event the loader does not read: it opens its run
	kindRunConfig             // the rest are the types above, in order
	kindTurnStart
	kindTurnEnd
	kindIterationEnd
	kindLLMStart
	kindLLMEnd
	kindToolStart
	kindToolEnd
	kindInjected
	kindPressure
	kindEvidence  // read by the reference decoder only (rare, kept whole)
	kindRepeated  // likewise
	kindCompEnter // only its meta is read: where a composition starts (§15.1)
	kindFatal     // only that it happened: the run failed for good (§14.1)
	kindSlotComposed
	// stream.* and context.* events the loader does not read: like
	// kindOther, but they tell the tier (§16.2)
	kindStreamOther
	kindToken // stream.token: only tier firehose writes it
)

var kindNames = [...]string{kindRunConfig: evRunConfig, kindTurnStart: evTurnStart, kindTurnEnd: evTurnEnd,
	kindIterationEnd: evIterationEnd, kindLLMStart: evLLMStart, kindLLMEnd: evLLMEnd, kindToolStart: evToolStart,
	kindToolEnd: evToolEnd, kindInjected: evInjected, kindPressure: evPressure,
	kindEvidence: evEvidence, kindRepeated: evRepeated, kindCompEnter: evCompEnter, kindFatal: evFatal,
	kindSlotComposed: evSlotComposed}

// kindOf names an event type; the switch on string(typ) does not allocate.
func kindOf(typ []byte) kind {
	switch string(typ) {
	case evRunConfig:
		return kindRunConfig
	case evTurnStart:
		return kindTurnStart
	case evTurnEnd:
		return kindTurnEnd
	case evIterationEnd:
		return kindIterationEnd
	case evLLMStart:
		return kindLLMStart
	case evLLMEnd:
		return kindLLMEnd
	case evToolStart:
		return kindToolStart
	case evToolEnd:
		return kindToolEnd
	case evInjected:
		return kindInjected
	case evPressure:
		return kindPressure
	case evEvidence:
		return kindEvidence
	case evRepeated:
		return kindRepeated
	case evCompEnter:
		return kindCompEnter
	case evFatal:
		return kindFatal
	case evSlotComposed:
		return kindSlotComposed
	}
	if len(typ) >= len(libraryPrefix) && string(typ[:len(libraryPrefix)]) == libraryPrefix {
		switch rest := string(typ[len(libraryPrefix):]); {
		case rest == "stream.token":
			return kindToken
		case strings.HasPrefix(rest, "stream.") || strings.HasPrefix(rest, "context."):
			return kindStreamOther
		}
		return kindOther
	}
	return kindNone
}

// writtenAtStandard: only a log written at tier standard or firehose
// holds events of this kind (§16.1: tier minimal keeps agent.* and
// error.* alone).
func (k kind) writtenAtStandard() bool {
	switch k {
	case kindLLMStart, kindLLMEnd, kindToolStart, kindToolEnd, kindInjected, kindPressure, kindSlotComposed, kindStreamOther,
		kindToken:
		return true
	}
	return false
}

// name is the event type without the library prefix, as messages say it.
func (k kind) name() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return strings.TrimPrefix(kindNames[k], libraryPrefix)
	}
	return "event"
}

// loc says where an event came from: a line of an NDJSON file, or an
// element of an envelope's recording.events (line 0).
type loc struct {
	line  int
	label string
	file  string // the input it came from, when the load reads several; "" for the only one
}

// parsed is one event as the builder uses it, whichever decoder read it.
// Only the fields of its kind are set.
type parsed struct {
	at       loc
	problems []string // what decoding found wrong, in order, before the builder's own
	kind     kind
	runID    string
	hasRunID bool   // meta.runId was a string (absent or null: no run)
	comp     string // meta.compositionPath, encoded (path.go)
	sub      string // meta.subflowPath, encoded
	ok       bool   // the payload decoded and carries what the builder acts on

	iteration, messagesCount int         // llm_start
	usage                    model.Usage // llm_end
	measured                 bool        // llm_end usage held a number for input and for output (§7)
	text                     string      // turn_start prompt, llm_end content, tool_end message text, run_configured strategy, turn_end finalContent
	hasText                  bool        // run_configured named a window; turn_end had a string finalContent
	agentID                  string      // run_configured agentId
	iterIndex                int         // iteration_end
	toolCallCount            int         // iteration_end: how many tool results end its history
	hasToolCallCount         bool        // toolCallCount was a count
	toolName, toolCallID     string      // tool_start, tool_end
	args                     json.RawMessage
	position                 int // context.injected, when hasPosition
	hasPosition              bool
	role, sourceID           string // context.injected asRole, sourceId
	content                  []byte // context.injected rawContent as JSON (may point into the line)
	hasContent               bool
	contentScanned           bool // the fast decoder read content as a string; contentEsc: with an escape
	contentEsc               bool
	contentSeen              seenText // what the decoder knew of content
	delivered                bool     // context.injected reason does not start with "conversation history"
	threshold                int      // context.budget_pressure cap, unit tokens
	history                  *history

	// docs/rules/evidence.md §6: llm_end's stop reason and whether it had a
	// usage object; a system-prompt injection record's text (isSystem);
	// an evidence_checked payload as recorded, with its iteration.
	stopReason         *string
	hasUsage, isSystem bool
	evidence           json.RawMessage

	// the request beyond its messages (request.go): what the builder
	// reads of llm_start, of a system-prompt or tools injection record
	// and of slot_composed, each value as its JSON (may point into the
	// line), read by the builder whichever decoder found it; nil for
	// none (most events: kept out of the struct, whose blocks of decoded
	// events are memory the load keeps in flight)
	req *reqRaw
}

// history is an iteration_end history: the window as sent, then what the
// call added. The window's elements are interned by their text as the
// file spells it and decoded by the builder only when new; the messages
// after it are decoded by the builder, which knows where the window ends.
type history struct {
	keys      []textKey        // reference decoder: the key of every element, by index
	refs      []elemRef        // fast decoder: the same, compact (see key)
	notString []int            // elements whose content is not a JSON string
	spans     [][]byte         // fast decoder: each element's JSON, valid while its block is
	msgs      []*model.Message // reference decoder: every element, decoded
}

func (p *parsed) problem(msg string) { p.problems = append(p.problems, msg) }

// reset clears p for reuse, keeping its problems' storage.
func (p *parsed) reset(at loc) {
	probs := p.problems[:0]
	*p = parsed{at: at, problems: probs}
}

// textKey is how a recorded message is interned: its role, its content as
// the file spells it (the JSON value; JSON.stringify writes one text one
// way), and whether an injection delivered it.
type textKey struct {
	role      string
	raw       []byte
	delivered bool
	// scanned: the fast decoder read raw as a string, and esc says
	// whether it held an escape (else internTable looks).
	scanned, esc bool
	// seen: what the decoder knew of the text inside the quotes as it
	// checked it (seenText).
	seen seenText
	// by is a history element's injectedBy (its JSON), when delivered:
	// each delivery is filed apart, though its text was delivered before.
	by []byte
}
