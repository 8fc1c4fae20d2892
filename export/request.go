package export

import "github.com/afinspect/inspect/model"

// The request a call received besides its messages: the system prompt,
// the tools offered, the slot budgets. It is not part of the window (no
// window strategy drops it; window characters never count it), so it is
// told apart from window, evicted and turns.

// Request is a call's request beyond its messages, as exported.
type Request struct {
	SystemPrompt SystemPrompt `json:"systemPrompt"`
	Tools        []Tool       `json:"tools"` // null when the log does not say which tools were offered
	Slots        []Slot       `json:"slots"`
}

// SystemPrompt is a call's system prompt: source recorded (llm_start's
// systemPromptText), assembled (its injection records joined by a blank
// line) or absent (text null: only its length, if that, is in the log).
type SystemPrompt struct {
	Source string        `json:"source"`
	Text   *string       `json:"text"`
	Chars  *int          `json:"chars"` // UTF-16 units; null when not known
	Pieces []PromptPiece `json:"pieces"`
}

// PromptPiece is one injection record of the system-prompt slot;
// summary: its text is the record's contentSummary (no rawContent).
type PromptPiece struct {
	Source   string `json:"source"`
	SourceID string `json:"sourceId,omitempty"`
	Reason   string `json:"reason"`
	Text     string `json:"text"`
	Summary  bool   `json:"summary,omitempty"`
}

// Tool is one tool offered on the call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Slot is one context.slot_composed of the call: its budget in
// characters, and what the cap left out.
type Slot struct {
	Slot         string   `json:"slot"`
	Iteration    int      `json:"iteration"`
	Cap          int      `json:"cap"`
	Used         int      `json:"used"`
	Headroom     int      `json:"headroom"`
	DroppedCount int      `json:"droppedCount"`
	Dropped      []string `json:"dropped"`
}

// RequestOf is the call's request as exported.
func RequestOf(r model.Request) Request {
	sp := r.SystemPrompt
	out := Request{SystemPrompt: SystemPrompt{Source: sp.Source, Pieces: make([]PromptPiece, 0, len(sp.Pieces))},
		Slots: make([]Slot, 0, len(r.Slots))}
	if out.SystemPrompt.Source == "" {
		out.SystemPrompt.Source = model.PromptAbsent
	}
	if sp.Known() {
		text := sp.Text
		out.SystemPrompt.Text = &text
	}
	if n, ok := sp.Length(); ok {
		out.SystemPrompt.Chars = &n
	}
	for _, p := range sp.Pieces {
		out.SystemPrompt.Pieces = append(out.SystemPrompt.Pieces, PromptPiece{Source: p.Source, SourceID: p.SourceID,
			Reason: p.Reason, Text: p.Text, Summary: p.Summary})
	}
	if r.ToolsKnown {
		out.Tools = make([]Tool, 0, len(r.Tools))
		for _, t := range r.Tools {
			out.Tools = append(out.Tools, Tool{Name: t.Name, Description: t.Description})
		}
	}
	for _, s := range r.Slots {
		dropped := s.Dropped
		if dropped == nil {
			dropped = []string{}
		}
		out.Slots = append(out.Slots, Slot{Slot: s.Slot, Iteration: s.Iteration, Cap: s.Cap, Used: s.Used,
			Headroom: s.Headroom, DroppedCount: s.DroppedCount, Dropped: dropped})
	}
	return out
}

// request writes the members of r after the call's head, as
// encoding/json writes the embedded Request's fields.
func (o *jsonOut) request(r *Request) {
	sp := &r.SystemPrompt
	o.strKey(`,"systemPrompt":{"source":`, sp.Source)
	o.strOrNullKey(`,"text":`, sp.Text)
	o.lit(`,"chars":`)
	if sp.Chars == nil {
		o.null()
	} else {
		o.int(*sp.Chars)
	}
	o.lit(`,"pieces":`)
	list(o, sp.Pieces, (*jsonOut).promptPiece)
	o.lit(`},"tools":`)
	list(o, r.Tools, func(o *jsonOut, t *Tool) {
		o.strKey(`{"name":`, t.Name)
		o.strKey(`,"description":`, t.Description)
		o.b = append(o.b, '}')
	})
	o.lit(`,"slots":`)
	list(o, r.Slots, (*jsonOut).slot)
}

func (o *jsonOut) promptPiece(p *PromptPiece) {
	o.strKey(`{"source":`, p.Source)
	if p.SourceID != "" {
		o.strKey(`,"sourceId":`, p.SourceID)
	}
	o.strKey(`,"reason":`, p.Reason)
	o.strKey(`,"text":`, p.Text)
	if p.Summary {
		o.lit(`,"summary":true`)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) slot(s *Slot) {
	o.strKey(`{"slot":`, s.Slot)
	o.intKey(`,"iteration":`, s.Iteration)
	o.intKey(`,"cap":`, s.Cap)
	o.intKey(`,"used":`, s.Used)
	o.intKey(`,"headroom":`, s.Headroom)
	o.intKey(`,"droppedCount":`, s.DroppedCount)
	o.lit(`,"dropped":`)
	list(o, s.Dropped, func(o *jsonOut, d *string) { o.str(*d) })
	o.b = append(o.b, '}')
}
