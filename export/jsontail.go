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
	o.strKey(`,"recordedWindow":`, t.RecordedWindow)
	o.lit(`,"usage":`)
	o.usage(t.Usage)
	o.lit(`,"response":`)
	o.response(&t.Response)
	o.lit(`,"evidence":`)
	o.evidence(&t.Evidence)
	o.b = append(o.b, '}')
}

func (o *jsonOut) turn(t *Turn) {
	o.intKey(`{"index":`, t.Index)
	o.intKey(`,"start":`, t.Start)
	o.intKey(`,"length":`, t.Length)
	o.strKey(`,"fate":`, t.Fate)
	o.strOrNullKey(`,"reason":`, t.Reason)
	o.boolKey(`,"notice":`, t.Notice)
	if t.PinTool != "" {
		o.strKey(`,"pinTool":`, t.PinTool)
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
	o.strKey(`{"strategy":`, r.Strategy)
	o.intKey(`,"iteration":`, r.Iteration)
	o.intKey(`,"keepRecentTurns":`, r.KeepRecentTurns)
	o.intKey(`,"removedMessageCount":`, r.RemovedMessageCount)
	o.intKey(`,"windowCharsBefore":`, r.WindowCharsBefore)
	o.intKey(`,"windowCharsAfter":`, r.WindowCharsAfter)
	o.intKeyOmit(`,"turnsBefore":`, r.TurnsBefore)
	o.intKeyOmit(`,"turnsAfter":`, r.TurnsAfter)
	o.intKeyOmit(`,"measuredTokens":`, r.MeasuredTokens)
	if r.OverBudget {
		o.lit(`,"overBudget":true`)
	}
	o.intKeyOmit(`,"thresholdTokens":`, r.ThresholdTokens)
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
		o.intKey(`,"summaryChars":`, *r.SummaryChars)
	}
	if r.SummarizerTokens != nil {
		o.lit(`,"summarizerTokens":`)
		o.usage(r.SummarizerTokens)
	}
	if r.SummarizerSkipped {
		o.lit(`,"summarizerSkipped":true`)
	}
	if r.SummaryRecorded != nil {
		o.boolKey(`,"summaryRecorded":`, *r.SummaryRecorded)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) refusal(r *model.Refusal) {
	o.strKey(`{"reason":`, r.Reason)
	o.intKey(`,"turnIndex":`, r.TurnIndex)
	o.intKey(`,"messageIndex":`, r.MessageIndex)
	o.b = append(o.b, '}')
}

func (o *jsonOut) observations(obs *model.Observations) {
	o.lit(`{"pinned":`)
	list(o, obs.Pinned, (*jsonOut).pin)
	o.intKey(`,"yielded":`, obs.Yielded)
	o.intKey(`,"limit":`, obs.Limit)
	if obs.StandDown {
		o.lit(`,"standDown":true`)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) pin(p *model.Pin) {
	o.strKey(`{"toolName":`, p.ToolName)
	o.intKey(`,"turnIndex":`, p.TurnIndex)
	o.intKey(`,"chars":`, p.Chars)
	o.b = append(o.b, '}')
}

func (o *jsonOut) usage(u *model.Usage) {
	if u == nil {
		o.null()
		return
	}
	o.intKey(`{"input":`, u.Input)
	o.intKey(`,"output":`, u.Output)
	o.b = append(o.b, '}')
}

func (o *jsonOut) response(r *Response) {
	o.strKey(`{"content":`, r.Content)
	o.lit(`,"toolCalls":`)
	list(o, r.ToolCalls, (*jsonOut).toolCall)
	o.lit(`,"usage":`)
	o.usage(r.Usage)
	o.strOrNullKey(`,"stopReason":`, r.StopReason)
	o.strOrNullKey(`,"outcome":`, r.Outcome)
	o.b = append(o.b, '}')
}

func (o *jsonOut) evidence(e *Evidence) {
	o.intKey(`{"candidates":`, e.Candidates)
	o.lit(`,"values":`)
	list(o, e.Values, (*jsonOut).entry)
	if len(e.BelowFloor) > 0 {
		o.lit(`,"belowFloor":`)
		list(o, e.BelowFloor, (*jsonOut).entry)
	}
	o.lit(`,"library":`)
	o.rawJSON(e.Library)
	o.b = append(o.b, '}')
}

func (o *jsonOut) entry(e *provenance.Entry) {
	o.strKey(`{"value":`, e.Value)
	o.strKey(`,"shape":`, e.Shape)
	o.strKey(`,"in":`, e.In)
	if e.ToolCallID != nil {
		o.strKey(`,"toolCallId":`, *e.ToolCallID)
	}
	o.strKey(`,"verdict":`, e.Verdict)
	o.lit(`,"sources":`)
	list(o, e.Sources, (*jsonOut).source)
	o.judged(e.InText, e.Near)
	if r := e.Read; r != nil {
		o.strKey(`,"read":{"value":`, r.Value)
		o.strOrNullKey(`,"shape":`, r.Shape)
		o.strOrNullKey(`,"verdict":`, r.Verdict)
		o.lit(`,"sources":`)
		list(o, r.Sources, (*jsonOut).source)
		o.judged(r.InText, r.Near)
		o.b = append(o.b, '}')
	}
	o.flagged(e)
	o.b = append(o.b, '}')
}

// flagged writes what §10 adds to an entry: where it was typed, whether
// it is flagged and by which rule, and the explanations present.
func (o *jsonOut) flagged(e *provenance.Entry) {
	o.strKey(`,"place":`, e.Place)
	o.boolKey(`,"flagged":`, e.Flag)
	if e.Rule != "" {
		o.strKey(`,"rule":`, e.Rule)
	}
	if e.Refuted {
		o.boolKey(`,"refuted":`, true)
	}
	if e.LibraryListed {
		o.boolKey(`,"libraryListed":`, true)
	}
	if l := e.LeftInside; l != nil {
		o.lit(`,"leftInside":{"source":`)
		o.source(&l.Source)
		o.strOrNullKey(`,"token":`, l.Token)
		o.b = append(o.b, '}')
	}
	if n := e.Nearest; n != nil {
		o.strKey(`,"nearest":{"value":`, n.Value)
		o.intKey(`,"distance":`, n.Distance)
		o.strOrNullKey(`,"toolName":`, n.ToolName)
		o.strOrNullKey(`,"toolCallId":`, n.ToolCallID)
		o.boolKey(`,"inView":`, n.InView)
		o.b = append(o.b, '}')
	}
	if e.AlsoInOwnWords {
		o.boolKey(`,"alsoInOwnWords":`, true)
	}
	if p := e.EarlierPass; p != nil {
		o.intKey(`,"earlierPass":{"pass":`, p.Pass)
		o.strOrNullKey(`,"toolName":`, p.ToolName)
		o.strOrNullKey(`,"toolCallId":`, p.ToolCallID)
		o.intKey(`,"sentOn":[`, p.SentOn[0])
		o.intKey(`,`, p.SentOn[1])
		o.lit(`]}`)
	}
	if l := e.LookedFor; l != nil {
		o.strOrNullKey(`,"lookedFor":{"toolName":`, l.ToolName)
		o.strOrNullKey(`,"toolCallId":`, l.ToolCallID)
		o.b = append(o.b, '}')
	}
	if e.OwnVerdict != "" {
		o.strKey(`,"ownVerdict":`, e.OwnVerdict)
	}
	if len(e.InViewInside) > 0 {
		o.lit(`,"inViewInside":`)
		list(o, e.InViewInside, (*jsonOut).inText)
	}
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
			o.strKey(`{"value":`, near.Value)
			o.intKey(`,"distance":`, near.Distance)
			o.strOrNullKey(`,"toolName":`, near.ToolName)
			o.strOrNullKey(`,"toolCallId":`, near.ToolCallID)
			o.b = append(o.b, '}')
		}
	}
}

func (o *jsonOut) inText(t *provenance.InText) {
	o.strOrNullKey(`{"toolName":`, t.ToolName)
	o.strOrNullKey(`,"toolCallId":`, t.ToolCallID)
	o.strOrNullKey(`,"token":`, t.Token)
	o.b = append(o.b, '}')
}

func (o *jsonOut) source(s *provenance.Source) {
	o.strOrNullKey(`{"toolName":`, s.ToolName)
	o.strOrNullKey(`,"toolCallId":`, s.ToolCallID)
	o.intKey(`,"run":`, s.Run)
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
	o.intKey(`,"evictedAt":`, s.EvictedAt)
	o.strKey(`,"rule":`, s.Rule)
	if len(s.Rules) > 0 {
		o.lit(`,"rules":`)
		list(o, s.Rules, (*jsonOut).strOrNull)
	}
	o.b = append(o.b, '}')
}
