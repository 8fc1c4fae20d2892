package export

import (
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// The call's fields after its messages, written by hand as encoding/json
// writes them (see jsonOut).

// tail is the call's CallTail without its opening brace.
func (o *jsonOut) tail(t *CallTail) {
	o.lit(`"turns":`)
	list(o, t.Turns, (*jsonOut).turn)
	o.lit(`,"record":`)
	o.record(t.Record)
	o.lit(`,"recordedWindow":`)
	o.str(t.RecordedWindow)
	o.lit(`,"usage":`)
	o.usage(t.Usage)
	o.lit(`,"response":`)
	o.response(&t.Response)
	o.lit(`,"evidence":`)
	o.evidence(&t.Evidence)
	o.b = append(o.b, '}')
}

func (o *jsonOut) turn(t *Turn) {
	o.lit(`{"index":`)
	o.int(t.Index)
	o.lit(`,"start":`)
	o.int(t.Start)
	o.lit(`,"length":`)
	o.int(t.Length)
	o.lit(`,"fate":`)
	o.str(t.Fate)
	o.lit(`,"reason":`)
	o.strOrNull(t.Reason)
	o.lit(`,"notice":`)
	o.bool(t.Notice)
	if t.PinTool != "" {
		o.lit(`,"pinTool":`)
		o.str(t.PinTool)
	}
	o.b = append(o.b, '}')
}

// record is what the record's MarshalJSON writes (json.Marshal, so with
// < > & escaped), compacted as encoding/json compacts what a Marshaler
// returns, which changes nothing in json.Marshal's output. A
// summarize-oldest record is its MarshalJSON's.
func (o *jsonOut) record(r *model.Record) {
	if r == nil {
		o.null()
		return
	}
	if r.Strategy == model.SummarizeOldest || r.Unmeasured {
		b, err := r.MarshalJSON()
		if err != nil {
			o.bad = true
			return
		}
		o.rawJSON(b)
		return
	}
	o.html = true
	defer func() { o.html = false }()
	o.lit(`{"strategy":`)
	o.str(r.Strategy)
	o.intKey(`,"iteration":`, r.Iteration, false)
	o.intKey(`,"keepRecentTurns":`, r.KeepRecentTurns, false)
	o.intKey(`,"removedMessageCount":`, r.RemovedMessageCount, false)
	o.intKey(`,"windowCharsBefore":`, r.WindowCharsBefore, false)
	o.intKey(`,"windowCharsAfter":`, r.WindowCharsAfter, false)
	o.intKey(`,"turnsBefore":`, r.TurnsBefore, true)
	o.intKey(`,"turnsAfter":`, r.TurnsAfter, true)
	o.intKey(`,"measuredTokens":`, r.MeasuredTokens, true)
	if r.OverBudget {
		o.lit(`,"overBudget":true`)
	}
	o.intKey(`,"thresholdTokens":`, r.ThresholdTokens, true)
	o.lit(`,"refusals":`)
	list(o, r.Refusals, (*jsonOut).refusal)
	if len(r.DroppedObservations) > 0 {
		o.lit(`,"droppedObservations":`)
		list(o, r.DroppedObservations, (*jsonOut).strOrNull)
	}
	if r.Observations != nil {
		o.lit(`,"observations":`)
		o.observations(r.Observations)
	}
	if r.SummaryChars != nil {
		o.intKey(`,"summaryChars":`, *r.SummaryChars, false)
	}
	if r.SummarizerTokens != nil {
		o.lit(`,"summarizerTokens":`)
		o.usage(r.SummarizerTokens)
	}
	if r.SummarizerSkipped {
		o.lit(`,"summarizerSkipped":true`)
	}
	if r.SummaryRecorded != nil {
		o.lit(`,"summaryRecorded":`)
		o.bool(*r.SummaryRecorded)
	}
	o.b = append(o.b, '}')
}

// intKey writes key (,"name":) and n; nothing when omitEmpty and n is 0.
func (o *jsonOut) intKey(key string, n int, omitEmpty bool) {
	if omitEmpty && n == 0 {
		return
	}
	o.lit(key)
	o.int(n)
}

func (o *jsonOut) refusal(r *model.Refusal) {
	o.lit(`{"reason":`)
	o.str(r.Reason)
	o.intKey(`,"turnIndex":`, r.TurnIndex, false)
	o.intKey(`,"messageIndex":`, r.MessageIndex, false)
	o.b = append(o.b, '}')
}

func (o *jsonOut) observations(obs *model.Observations) {
	o.lit(`{"pinned":`)
	list(o, obs.Pinned, (*jsonOut).pin)
	o.intKey(`,"yielded":`, obs.Yielded, false)
	o.intKey(`,"limit":`, obs.Limit, false)
	if obs.StandDown {
		o.lit(`,"standDown":true`)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) pin(p *model.Pin) {
	o.lit(`{"toolName":`)
	o.str(p.ToolName)
	o.intKey(`,"turnIndex":`, p.TurnIndex, false)
	o.intKey(`,"chars":`, p.Chars, false)
	o.b = append(o.b, '}')
}

func (o *jsonOut) usage(u *model.Usage) {
	if u == nil {
		o.null()
		return
	}
	o.lit(`{"input":`)
	o.int(u.Input)
	o.lit(`,"output":`)
	o.int(u.Output)
	o.b = append(o.b, '}')
}

func (o *jsonOut) response(r *Response) {
	o.lit(`{"content":`)
	o.str(r.Content)
	o.lit(`,"toolCalls":`)
	list(o, r.ToolCalls, (*jsonOut).toolCall)
	o.lit(`,"usage":`)
	o.usage(r.Usage)
	o.lit(`,"stopReason":`)
	o.strOrNull(r.StopReason)
	o.lit(`,"outcome":`)
	o.strOrNull(r.Outcome)
	o.b = append(o.b, '}')
}

func (o *jsonOut) evidence(e *Evidence) {
	o.lit(`{"candidates":`)
	o.int(e.Candidates)
	o.lit(`,"values":`)
	list(o, e.Values, (*jsonOut).entry)
	o.lit(`,"library":`)
	o.rawJSON(e.Library)
	o.b = append(o.b, '}')
}

func (o *jsonOut) entry(e *provenance.Entry) {
	o.lit(`{"value":`)
	o.str(e.Value)
	o.lit(`,"shape":`)
	o.str(e.Shape)
	o.lit(`,"in":`)
	o.str(e.In)
	if e.ToolCallID != nil {
		o.lit(`,"toolCallId":`)
		o.str(*e.ToolCallID)
	}
	o.lit(`,"verdict":`)
	o.str(e.Verdict)
	o.lit(`,"sources":`)
	list(o, e.Sources, (*jsonOut).source)
	o.judged(e.InText, e.Near)
	if r := e.Read; r != nil {
		o.lit(`,"read":{"value":`)
		o.str(r.Value)
		o.lit(`,"shape":`)
		o.strOrNull(r.Shape)
		o.lit(`,"verdict":`)
		o.strOrNull(r.Verdict)
		o.lit(`,"sources":`)
		list(o, r.Sources, (*jsonOut).source)
		o.judged(r.InText, r.Near)
		o.b = append(o.b, '}')
	}
	o.b = append(o.b, '}')
}

// judged writes the members a verdict adds: inText (in-view-text), near
// (summary-unsupported), when present.
func (o *jsonOut) judged(inText []provenance.InText, near *provenance.Near) {
	if len(inText) > 0 {
		o.lit(`,"inText":`)
		list(o, inText, (*jsonOut).inText)
	}
	if near != nil {
		o.lit(`,"near":`)
		if !near.Found() {
			o.null()
		} else {
			o.lit(`{"value":`)
			o.str(near.Value)
			o.lit(`,"distance":`)
			o.int(near.Distance)
			o.lit(`,"toolName":`)
			o.strOrNull(near.ToolName)
			o.lit(`,"toolCallId":`)
			o.strOrNull(near.ToolCallID)
			o.b = append(o.b, '}')
		}
	}
}

func (o *jsonOut) inText(t *provenance.InText) {
	o.lit(`{"toolName":`)
	o.strOrNull(t.ToolName)
	o.lit(`,"toolCallId":`)
	o.strOrNull(t.ToolCallID)
	o.lit(`,"token":`)
	o.strOrNull(t.Token)
	o.b = append(o.b, '}')
}

func (o *jsonOut) source(s *provenance.Source) {
	o.lit(`{"toolName":`)
	o.strOrNull(s.ToolName)
	o.lit(`,"toolCallId":`)
	o.strOrNull(s.ToolCallID)
	o.lit(`,"run":`)
	o.int(s.Run)
	o.lit(`,"sentOn":`)
	if s.Sent() {
		o.b = append(o.b, '[')
		o.int(s.SentOn[0])
		o.b = append(o.b, ',')
		o.int(s.SentOn[1])
		o.b = append(o.b, ']')
	} else {
		o.null()
	}
	o.lit(`,"evictedAt":`)
	o.int(s.EvictedAt)
	o.lit(`,"rule":`)
	o.str(s.Rule)
	if len(s.Rules) > 0 {
		o.lit(`,"rules":`)
		list(o, s.Rules, (*jsonOut).strOrNull)
	}
	o.b = append(o.b, '}')
}
