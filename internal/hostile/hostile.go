// Package hostile makes an attacker's copy of a real recording for the
// tests that a recording never drives the terminal: terminal escapes, C1
// and bidi controls and width-ambiguous emoji, put into the user prompt, a tool
// name and the tool results of a log the library wrote.
//
// It is a test helper, not a user command.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Escapes is every attack of the issue in one string: window title,
// clipboard write, leaving the alternate screen, autowrap off, insert
// mode on, carriage return and backspace, a C1 CSI, a bidi override, a
// zero-width space, and emoji terminals draw at different widths.
const Escapes = "\x1b]0;PWNED\x07\x1b]52;c;cHduZWQ=\x07\x1b[?1049l\x1b[?7l\x1b[4h\rX\bY\u009b31m\u202eevil\u200b 👍🏽 👨\u200d👩\u200d👧 🇺🇸 ❤\ufe0f\x7f"

// Spoof is a line an attacker draws with a newline and colour in a
// one-line field (an agent id or path, a run id, a tool name): shown
// raw, it takes the place of the header's second line, green.
const Spoof = "\n\x1b[1;32mSPOOFED LINE: replay vs recorded: match   problems 0\x1b[0m\n"

// Name is what Names and Agent put after a name: Spoof, text hidden by
// SGR 8, C1 controls (NEL, CSI), carriage return and backspace, bidi
// override and isolates.
const Name = Spoof + "\x1b[8mhidden\x1b[0m\u0085\u009b1m\rX\bY\u202eevil\u2066\u2069"

// Names returns run with Name and a NUL after every JSON string that is
// exactly one of names (a run id, a tool name, a tool-call id, a step),
// everywhere it occurs.
func Names(run []byte, names ...string) []byte {
	esc := escaped(Name + "\x00")
	for _, n := range names {
		run = bytes.ReplaceAll(run, []byte(`"`+n+`"`), []byte(`"`+n+esc+`"`))
	}
	return run
}

// Agent returns run with Name after agent id's name: its agentId and
// its compositionPath entry "Agent:id" (no NUL: the loader joins the
// path's entries with one).
func Agent(run []byte, id string) []byte {
	esc := escaped(Name)
	run = bytes.ReplaceAll(run, []byte(`"agentId":"`+id+`"`), []byte(`"agentId":"`+id+esc+`"`))
	return bytes.ReplaceAll(run, []byte(`"Agent:`+id+`"`), []byte(`"Agent:`+id+esc+`"`))
}

// Recording returns run (an NDJSON event log) with Escapes put into the
// user prompt ("Find out why"), a tool name ("read_file") and the tool
// results ("alpha bravo"), everywhere they occur.
func Recording(run []byte) []byte {
	esc := escaped(Escapes)
	for _, w := range []string{"Find out why", "read_file", "alpha"} {
		run = bytes.ReplaceAll(run, []byte(w), []byte(w+esc))
	}
	return run
}

// Strategy returns run with Escapes after the strategy name of
// run_configured.
func Strategy(run []byte) []byte {
	return bytes.ReplaceAll(run, []byte(`"window":"sliding-window"`), []byte(`"window":"sliding-window`+escaped(Escapes)+`"`))
}

// escaped is s as it reads inside a JSON string.
func escaped(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// BigResult returns run with the first tool result replaced, wherever
// the log holds it (tool_end, context.injected, iteration_end history),
// by a JSON array of about n bytes (a fleet dump): the model call after
// it is sent a result of that size.
func BigResult(run []byte, n int) []byte {
	var rows bytes.Buffer
	rows.WriteByte('[')
	for i := 0; rows.Len() < n; i++ {
		if i > 0 {
			rows.WriteByte(',')
		}
		fmt.Fprintf(&rows, `{"id":"web-%06d","region":"us-east-1","az":"us-east-1b","cpu":%d}`, i, i%97)
	}
	rows.WriteByte(']')
	for _, l := range bytes.Split(run, []byte("\n")) {
		var ev struct {
			Type    string
			Payload struct{ Result json.RawMessage }
		}
		if json.Unmarshal(l, &ev) != nil || ev.Type != "agentfootprint.stream.tool_end" || len(ev.Payload.Result) < 3 {
			continue
		}
		old := ev.Payload.Result[1 : len(ev.Payload.Result)-1]
		return bytes.ReplaceAll(run, old, []byte(escaped(rows.String())))
	}
	return run
}
