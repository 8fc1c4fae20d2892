package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// jsonOut writes the pieces of a call (encodeCall) as encoding/json
// writes them without HTML escaping, by hand: the same bytes, without
// reflection. It writes only what it is sure of: a string that is not
// UTF-8 (a lone surrogate, say, which withSurrogates writes as the
// library would), a number encoding/json refuses, or raw JSON that does
// not compact sets bad, and the caller encodes that piece with
// encoding/json instead. termtext.JSON is the caller's, as for
// encoding/json's output.
type jsonOut struct {
	b         []byte
	bad       bool
	contentAt int          // where message wrote the content's string, after its opening quote
	html      bool         // < > & escaped too, as json.Marshal does (a record's strings)
	raw       bytes.Buffer // raw JSON compacted
}

const hexDigits = "0123456789abcdef"

// str is encoding/json's string: ", \ and the controls below U+0020
// escaped (\b \f \n \r \t by name, the others \u00XX), U+2028 and U+2029
// as \u2028 and \u2029, with o.html < > & as \u003c \u003e \u0026,
// everything else as it is.
func (o *jsonOut) str(s string) {
	b := append(o.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if !o.html {
			i += plainJSON(s[i:])
			if i == len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && !(o.html && (c == '<' || c == '>' || c == '&')) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			o.bad = true
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	o.b = append(append(b, s[start:]...), '"')
}

// plainJSON is the length of the ASCII that s starts with that a JSON
// string holds as it is (no control, " or \\), read eight bytes at a
// time: a message's text is mostly that.
func plainJSON(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// a byte below 0x20, a zero byte of q or bs, or a byte of 0x80
		// or more sets the top bit of its byte here
		if ((x-ones*0x20)|(q-ones)|(bs-ones)|x)&highs != 0 {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

func (o *jsonOut) int(n int) { o.b = strconv.AppendInt(o.b, int64(n), 10) }

func (o *jsonOut) bool(v bool) { o.b = strconv.AppendBool(o.b, v) }

// float is encoding/json's float64: plain notation from 1e-6 to 1e21,
// else exponent notation without a leading zero in the exponent.
func (o *jsonOut) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		o.bad = true
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(o.b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	o.b = b
}

// rawJSON is encoding/json's json.RawMessage: null for none, else
// compacted.
func (o *jsonOut) rawJSON(r json.RawMessage) {
	if r == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.raw.Reset()
	if json.Compact(&o.raw, r) != nil {
		o.bad = true
		return
	}
	o.b = append(o.b, o.raw.Bytes()...)
}

// lit writes JSON text as it is (a key with its colon, and the comma
// before it but for the first).
func (o *jsonOut) lit(s string) { o.b = append(o.b, s...) }

func (o *jsonOut) strOrNull(s *string) {
	if s == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.str(*s)
}

// message is a model.Message as its struct tags say.
func (o *jsonOut) message(m *model.Message) {
	o.b = append(o.b, '{')
	o.lit(`"role":`)
	o.str(m.Role)
	o.lit(`,"content":`)
	o.contentAt = len(o.b) + 1
	o.str(m.Content)
	if m.ToolCallID != "" {
		o.lit(`,"toolCallId":`)
		o.str(m.ToolCallID)
	}
	if m.ToolName != "" {
		o.lit(`,"toolName":`)
		o.str(m.ToolName)
	}
	if len(m.ToolCalls) > 0 {
		o.lit(`,"toolCalls":`)
		o.toolCalls(m.ToolCalls)
	}
	if m.Ephemeral {
		o.lit(`,"ephemeral":`)
		o.bool(true)
	}
	if m.ToolChars != nil {
		o.lit(`,"toolChars":`)
		o.float(*m.ToolChars)
	}
	if m.Placeholder {
		o.lit(`,"placeholder":`)
		o.bool(true)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) toolCalls(tcs []model.ToolCall) {
	if tcs == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i, tc := range tcs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = append(o.b, '{')
		o.lit(`"id":`)
		o.str(tc.ID)
		o.lit(`,"name":`)
		o.str(tc.Name)
		if len(tc.Args) > 0 {
			o.lit(`,"args":`)
			o.rawJSON(tc.Args)
		}
		o.b = append(o.b, '}')
	}
	o.b = append(o.b, ']')
}

// head is the call's callHead without its closing brace.
func (o *jsonOut) head(h *callHead) {
	o.b = append(o.b, '{')
	o.lit(`"call":`)
	o.int(h.Call)
	o.lit(`,"run":`)
	o.int(h.Run)
	o.lit(`,"runId":`)
	o.str(h.RunID)
	o.lit(`,"conversation":`)
	o.int(h.Conversation)
	o.lit(`,"agent":`)
	o.str(h.Agent)
	o.lit(`,"iteration":`)
	o.int(h.Iteration)
}

// tail is the call's callTail without its opening brace.
func (o *jsonOut) tail(t *callTail) {
	o.lit(`"turns":`)
	o.turns(t.Turns)
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

func (o *jsonOut) turns(ts []exportTurn) {
	if ts == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i := range ts {
		t := &ts[i]
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = append(o.b, '{')
		o.lit(`"index":`)
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
	o.b = append(o.b, ']')
}

// record is what the record's MarshalJSON writes (json.Marshal, so with
// < > & escaped), compacted as encoding/json compacts what a Marshaler
// returns, which changes nothing in json.Marshal's output. A
// summarize-oldest record is its MarshalJSON's.
func (o *jsonOut) record(r *model.Record) {
	if r == nil {
		o.b = append(o.b, "null"...)
		return
	}
	if r.Strategy == model.SummarizeOldest {
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
	o.b = append(o.b, '{')
	o.lit(`"strategy":`)
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
		o.lit(`,"overBudget":`)
		o.bool(true)
	}
	o.intKey(`,"thresholdTokens":`, r.ThresholdTokens, true)
	o.lit(`,"refusals":`)
	o.refusals(r.Refusals)
	if len(r.DroppedObservations) > 0 {
		o.lit(`,"droppedObservations":`)
		o.b = append(o.b, '[')
		for i, d := range r.DroppedObservations {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.str(d)
		}
		o.b = append(o.b, ']')
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
		o.lit(`,"summarizerSkipped":`)
		o.bool(true)
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

func (o *jsonOut) refusals(rs []model.Refusal) {
	if rs == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i, r := range rs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = append(o.b, '{')
		o.lit(`"reason":`)
		o.str(r.Reason)
		o.intKey(`,"turnIndex":`, r.TurnIndex, false)
		o.intKey(`,"messageIndex":`, r.MessageIndex, false)
		o.b = append(o.b, '}')
	}
	o.b = append(o.b, ']')
}

func (o *jsonOut) observations(obs *model.Observations) {
	o.b = append(o.b, '{')
	o.lit(`"pinned":`)
	if obs.Pinned == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, '[')
		for i, p := range obs.Pinned {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = append(o.b, '{')
			o.lit(`"toolName":`)
			o.str(p.ToolName)
			o.intKey(`,"turnIndex":`, p.TurnIndex, false)
			o.intKey(`,"chars":`, p.Chars, false)
			o.b = append(o.b, '}')
		}
		o.b = append(o.b, ']')
	}
	o.intKey(`,"yielded":`, obs.Yielded, false)
	o.intKey(`,"limit":`, obs.Limit, false)
	if obs.StandDown {
		o.lit(`,"standDown":`)
		o.bool(true)
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) usage(u *model.Usage) {
	if u == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '{')
	o.lit(`"input":`)
	o.int(u.Input)
	o.lit(`,"output":`)
	o.int(u.Output)
	o.b = append(o.b, '}')
}

func (o *jsonOut) response(r *model.Response) {
	o.b = append(o.b, '{')
	o.lit(`"content":`)
	o.str(r.Content)
	o.lit(`,"toolCalls":`)
	o.toolCalls(r.ToolCalls)
	o.lit(`,"usage":`)
	o.usage(r.Usage)
	o.lit(`,"stopReason":`)
	o.strOrNull(r.StopReason)
	o.b = append(o.b, '}')
}

func (o *jsonOut) evidence(e *exportEvidence) {
	o.b = append(o.b, '{')
	o.lit(`"candidates":`)
	o.int(e.Candidates)
	o.lit(`,"values":`)
	if e.Values == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, '[')
		for i := range e.Values {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.entry(&e.Values[i])
		}
		o.b = append(o.b, ']')
	}
	o.lit(`,"library":`)
	o.rawJSON(e.Library)
	o.b = append(o.b, '}')
}

func (o *jsonOut) entry(e *provenance.Entry) {
	o.b = append(o.b, '{')
	o.lit(`"value":`)
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
	if e.Sources == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, '[')
		for i := range e.Sources {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.source(&e.Sources[i])
		}
		o.b = append(o.b, ']')
	}
	o.b = append(o.b, '}')
}

func (o *jsonOut) source(s *provenance.Source) {
	o.b = append(o.b, '{')
	o.lit(`"toolName":`)
	o.strOrNull(s.ToolName)
	o.lit(`,"toolCallId":`)
	o.strOrNull(s.ToolCallID)
	o.lit(`,"run":`)
	o.int(s.Run)
	o.lit(`,"sentOn":`)
	o.b = append(o.b, '[')
	o.int(s.SentOn[0])
	o.b = append(o.b, ',')
	o.int(s.SentOn[1])
	o.b = append(o.b, ']')
	o.lit(`,"evictedAt":`)
	o.int(s.EvictedAt)
	o.lit(`,"rule":`)
	o.str(s.Rule)
	o.b = append(o.b, '}')
}
