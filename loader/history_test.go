package loader

import (
	"fmt"
	"strings"
	"testing"
)

// twoCalls is a run of two calls whose windows context.injected states in
// full: call 1 sends [user "hi"], call 2 [user "hi", assistant "a"]. The
// injected hashes are given by the caller (0: no event for that
// position), the iteration_end histories hold the messages themselves.
func twoCalls(call1, call2 []uint32) string {
	var b strings.Builder
	ev := func(typ, payload string) {
		fmt.Fprintf(&b, `{"type":"agentfootprint.%s","payload":%s,"meta":{"runId":"r1"}}`+"\n", typ, payload)
	}
	inject := func(hs []uint32) {
		for i, h := range hs {
			if h == 0 {
				continue // not stated
			}
			ev("context.injected", fmt.Sprintf(`{"slot":"messages","contentHash":"%08x","position":%d}`, h, i))
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
	ev("agent.iteration_end", `{"history":[{"role":"user","content":"hi"},{"role":"assistant","content":"a"},{"role":"assistant","content":"b"}]}`)
	ev("agent.turn_end", `{}`)
	return b.String()
}

// TestInjectedHashesSpareTheHistory: where context.injected states every
// hash of a window, they are the recorded window; the history is hashed
// only for the messages new to the window, and where those disagree the
// history wins for the rest of the run.
func TestInjectedHashesSpareTheHistory(t *testing.T) {
	hi, a := fnv1a("user", 0, "hi"), fnv1a("assistant", 1, "a")
	stale := fnv1a("user", 0, "HI") // what a hand-edited log might state
	for _, c := range []struct {
		name         string
		call1, call2 []uint32
		want1, want2 []uint32
	}{
		{"agree", []uint32{hi}, []uint32{hi, a}, []uint32{hi}, []uint32{hi, a}},
		// call 2's only new message is "a": the stale hash of the old
		// "hi" is not checked, so it stands
		{"old message not rehashed", []uint32{hi}, []uint32{stale, a}, []uint32{hi}, []uint32{stale, a}},
		// the new message of call 1 disagrees: the history wins from there
		{"new message disagrees", []uint32{stale}, []uint32{stale, a}, []uint32{hi}, []uint32{hi, a}},
		// not stated in full (a gap at position 0): the history is hashed
		{"gap", []uint32{hi}, []uint32{0, a}, []uint32{hi}, []uint32{hi, a}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := twoCalls(c.call1, c.call2)
			rec, err := Read(strings.NewReader(log), "two.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Problems) != 0 || len(rec.Runs) != 1 || len(rec.Runs[0].Calls) != 2 {
				t.Fatalf("problems %v, runs %d", rec.Problems, len(rec.Runs))
			}
			for i, want := range [][]uint32{c.want1, c.want2} {
				if got := rec.Runs[0].Calls[i].RecordedHashes; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("call %d: recorded hashes %08x, want %08x", i+1, got, want)
				}
			}
		})
	}
}
