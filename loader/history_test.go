package loader

import (
	"fmt"
	"strings"
	"testing"
)

// twoCalls is a run of two calls: call 1 sends [user "hi"], call 2
// [user "hi", assistant "a"], and call 2 is the run's last (no history).
// context.injected states the windows with the texts given.
func twoCalls(call1, call2 []string) string {
	var b strings.Builder
	ev := func(typ, payload string) {
		fmt.Fprintf(&b, `{"type":"agentfootprint.%s","payload":%s,"meta":{"runId":"r1"}}`+"\n", typ, payload)
	}
	inject := func(texts []string) {
		for i, t := range texts {
			role := "user"
			if i == 1 {
				role = "assistant"
			}
			ev("context.injected", fmt.Sprintf(`{"slot":"messages","asRole":%q,"rawContent":%q,"position":%d,"reason":"conversation history [%d]"}`, role, t, i, i))
		}
	}
	ev("agent.turn_start", `{"userPrompt":"hi"}`)
	inject(call1)
	ev("stream.llm_start", `{"iteration":1,"messagesCount":1}`)
	ev("stream.llm_end", `{"content":"a","usage":{"input":1,"output":1}}`)
	ev("agent.iteration_end", `{"history":[{"role":"user","content":"hi"},{"role":"assistant","content":"a"}]}`)
	inject(call2)
	ev("stream.llm_start", `{"iteration":2,"messagesCount":2}`)
	ev("stream.llm_end", `{"content":"b","usage":{"input":1,"output":1}}`)
	ev("agent.turn_end", `{"finalContent":"b"}`)
	return b.String()
}

// TestRecordedWindows: a call's window is its history's (the window as
// sent) when it has one, else context.injected's; one text is one
// interned message across calls; a window whose positions are not all
// stated is unknown.
func TestRecordedWindows(t *testing.T) {
	for _, c := range []struct {
		name         string
		call1, call2 []string
		want1, want2 string
	}{
		{"agree", []string{"hi"}, []string{"hi", "a"}, "[user:hi]", "[user:hi assistant:a]"},
		// call 1 has a history, which wins; call 2 has none
		{"injected differs", []string{"HI"}, []string{"HI", "a"}, "[user:hi]", "[user:HI assistant:a]"},
		{"a gap", []string{"hi"}, []string{"", "a"}, "[user:hi]", "unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			call2 := c.call2
			log := twoCalls(c.call1, call2)
			if c.name == "a gap" { // no event for position 0
				log = strings.Replace(log, `"rawContent":"","position":0`, `"rawContent":null,"position":0`, 1)
			}
			rec, err := Read(strings.NewReader(log), "two.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Problems) != 0 || len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 2 {
				t.Fatalf("problems %v, runs %d", rec.Problems, len(rec.Runs))
			}
			calls := rec.Runs[0].Calls
			for i, want := range []string{c.want1, c.want2} {
				got := "unknown"
				if w := calls[i].Recorded; w != nil {
					var parts []string
					for _, m := range w {
						parts = append(parts, m.Role+":"+m.Content)
					}
					got = "[" + strings.Join(parts, " ") + "]"
				}
				if got != want {
					t.Errorf("call %d: recorded %s, want %s", i+1, got, want)
				}
			}
			if c.name == "agree" && calls[0].Recorded[0] != calls[1].Recorded[0] {
				t.Errorf("one text, two messages: not interned")
			}
		})
	}
}
