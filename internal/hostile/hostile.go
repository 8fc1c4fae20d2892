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

// Escapes is every attack on a terminal in one string: window title,
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

// Paste ends a bracketed paste, types a command and starts another: a
// tool result holding it, copied raw and pasted into a shell with
// bracketed paste on, runs `touch /tmp/x`.
const Paste = "\n\x1b[201~\ntouch /tmp/x\n\x1b[200~"

// PasteAfter returns run with Paste after every occurrence of word (a
// word of tool results, such as "alpha" in s01).
func PasteAfter(run []byte, word string) []byte {
	return bytes.ReplaceAll(run, []byte(word), []byte(word+escaped(Paste)))
}

// C02 returns c02-interleaved-agents with Name after agent billing's id
// and path, its follow-up's run id, a tool name and a tool-call id of
// it: what the header's label, the picker and the conversations' column
// show.
func C02(run []byte) []byte {
	return Names(Agent(run, "billing"), "run-1796029387850-2", "get_invoice", "call_0003")
}

// Evidence returns demo-evidence with Name after its agent, its first
// run id, and the tools and tool-call ids whose values left the window
// before call 13 (list_hosts call_0001, get_metrics call_0004): what the
// response block, K and enter on a value name.
func Evidence(run []byte) []byte {
	return Names(Agent(run, "agent"), "run-1796030442753-1", "list_hosts", "call_0001", "get_metrics", "call_0004")
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
