package hostile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// SweepVariants name the copies Sweep makes of a recording.
var SweepVariants = []string{"terminal", "encoding"}

// sweepTextKeys are the members whose string values are text a recording
// carries from outside: messages, tool results, prompts, summaries, tool
// names. Identifiers (run ids, tool-call ids) and the event's own words
// (types, roles, strategies) are left as they are, so that the copy still
// loads as the recording it was.
var sweepTextKeys = map[string]bool{
	"content": true, "rawContent": true, "contentSummary": true, "result": true,
	"userPrompt": true, "finalContent": true, "description": true, "rationale": true,
	"text": true, "summary": true, "systemPromptText": true, "prompt": true,
	"toolName": true, "name": true, "answer": true, "error": true, "message": true,
}

// sweepTreeKeys are members every string of whose value is text: a tool
// call's arguments.
var sweepTreeKeys = map[string]bool{"args": true, "arguments": true, "input": true}

// Sweep is run (an NDJSON log, or one JSON document: a bare recording or
// an envelope) with an attack after every text string (sweepTextKeys,
// and every string of a tool call's arguments), members in their order:
//   - "terminal": Escapes, Name (a spoofed line, hidden text, C1 and bidi
//     controls), Paste (a bracketed-paste breakout) and a NUL;
//   - "encoding": raw invalid UTF-8 (0xff, an overlong '/', a cut
//     sequence), a raw 0x9b (8-bit CSI) and lone surrogate escapes.
//
// A line (or document) that is not JSON is kept as it is.
func Sweep(run []byte, variant string) []byte {
	if doc := bytes.TrimSpace(run); json.Valid(doc) { // one document (several lines of NDJSON are not one)
		if out, err := sweepValue(doc, variant); err == nil {
			if bytes.HasSuffix(run, []byte("\n")) {
				out = append(out, '\n')
			}
			return out
		}
	}
	var out bytes.Buffer
	for i, l := range bytes.Split(run, []byte("\n")) {
		if i > 0 {
			out.WriteByte('\n')
		}
		if m, err := sweepValue(l, variant); err == nil && len(bytes.TrimSpace(l)) > 0 {
			out.Write(m)
		} else {
			out.Write(l)
		}
	}
	return out.Bytes()
}

// sweepAttack is what a text string gets appended, as it reads inside a
// JSON string (raw bytes where the variant wants bytes that are not
// UTF-8).
func sweepAttack(variant string) string {
	if variant == "encoding" {
		return "\xff\xc0\xaf\xe2\x82\x9b31m\\ud83d\\udc00x\\udbff"
	}
	return escaped(Escapes + Name + Paste + "\x00")
}

// frame is one open object or array of the value being rewritten.
type frame struct {
	object  bool
	n       int    // members or elements written so far
	key     string // the member whose value comes next (objects)
	wantKey bool
	text    bool // every string inside is text (a tool call's arguments)
}

// sweepValue rewrites one JSON value, token by token, member order kept.
func sweepValue(doc []byte, variant string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out bytes.Buffer
	var stack []*frame
	attack := sweepAttack(variant)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].wantKey = true
			}
			continue
		}
		// a separator before this token, and a key is written as one
		if top != nil {
			if top.object && top.wantKey {
				if top.n > 0 {
					out.WriteByte(',')
				}
				k, _ := tok.(string)
				b, _ := json.Marshal(k)
				out.Write(b)
				out.WriteByte(':')
				top.key, top.wantKey = k, false
				top.n++
				continue
			}
			if !top.object {
				if top.n > 0 {
					out.WriteByte(',')
				}
				top.n++
			}
		}
		inText := top != nil && (top.text || top.object && sweepTextKeys[top.key])
		switch t := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(t))
			text := top != nil && (top.text || top.object && sweepTreeKeys[top.key])
			stack = append(stack, &frame{object: t == '{', wantKey: t == '{', text: text})
			continue
		case string:
			b, _ := json.Marshal(t)
			if inText && t != "" {
				b = append(append(b[:len(b)-1], attack...), '"')
			}
			out.Write(b)
		case json.Number:
			out.WriteString(t.String())
		case bool:
			out.WriteString(map[bool]string{true: "true", false: "false"}[t])
		case nil:
			out.WriteString("null")
		}
		if top != nil && top.object {
			top.wantKey = true
		}
	}
	return out.Bytes(), nil
}
