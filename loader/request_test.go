package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// The request beyond the messages, checked against wire.json: the system
// prompt and the tool names the provider received on every call, captured
// outside the library.

// requestWire is what wire.json says of each call's request; a derived
// wire.json (t01-toolchars) has neither key.
type requestWire struct {
	Calls []struct {
		Call         int       `json:"call"`
		RunID        string    `json:"runId"`
		Iteration    int       `json:"iteration"`
		SystemPrompt *string   `json:"systemPrompt"`
		Tools        *[]string `json:"tools"`
	} `json:"calls"`
}

// requestFolders are the folders holding run.jsonl and wire.json: the
// repo's copies, and the shared recordings when they are beside it.
func requestFolders(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{filepath.Join(testdata, "*"), filepath.Join(testdata, "request", "*"), "../../shared/testdata*/*"} {
		found, _ := filepath.Glob(pattern)
		for _, d := range found {
			_, e1 := os.Stat(filepath.Join(d, "run.jsonl"))
			_, e2 := os.Stat(filepath.Join(d, "wire.json"))
			if e1 == nil && e2 == nil {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no recordings with a wire.json")
	}
	return dirs
}

func callsByNumber(rec *model.Recording) map[int]*model.Call {
	calls := map[int]*model.Call{}
	for _, r := range rec.Runs {
		for _, c := range r.Calls {
			calls[c.Number] = c
		}
	}
	return calls
}

func TestRequestMatchesWire(t *testing.T) {
	var prompts, tools int
	for _, dir := range requestFolders(t) {
		t.Run(dir, func(t *testing.T) {
			rec, err := Load(filepath.Join(dir, "run.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range rec.Problems {
				if strings.Contains(p.Message, "system-prompt pieces") || strings.Contains(p.Message, "slot_composed") ||
					strings.Contains(p.Message, "llm_start tools") {
					t.Errorf("problem: %s", p.Message)
				}
			}
			raw, err := os.ReadFile(filepath.Join(dir, "wire.json"))
			if err != nil {
				t.Fatal(err)
			}
			var wire requestWire
			if err := json.Unmarshal(raw, &wire); err != nil {
				t.Fatal(err)
			}
			calls := callsByNumber(rec)
			if rec.Tier == model.TierMinimal { // no llm_start, no injection record: nothing to tell
				for _, c := range calls {
					if r := c.Request; r.SystemPrompt.Source != model.PromptAbsent || r.SystemPrompt.HasChars || r.ToolsKnown || r.Slots != nil {
						t.Errorf("call %d at tier minimal: %+v", c.Number, r)
					}
				}
				return
			}
			for _, w := range wire.Calls {
				c := calls[w.Call]
				if c == nil {
					continue // s90-truncated: the log was cut before it
				}
				if w.RunID != "" && w.Iteration != c.Iteration {
					t.Fatalf("call %d: iteration %d, wire %d", w.Call, c.Iteration, w.Iteration)
				}
				sp := c.Request.SystemPrompt
				if w.SystemPrompt != nil {
					want := *w.SystemPrompt
					if !sp.HasChars || sp.Chars != model.Len(want) {
						t.Errorf("call %d: systemPromptChars %d (%v), wire %d", w.Call, sp.Chars, sp.HasChars, model.Len(want))
					}
					if len(sp.Pieces) > 0 {
						prompts++
						if got := sp.Assembled(); got != want {
							t.Errorf("call %d: the %d pieces joined by a blank line are\n%q\nwire:\n%q", w.Call, len(sp.Pieces), got, want)
						}
						if sp.Source != model.PromptAssembled && sp.Source != model.PromptRecorded || sp.Text != want {
							t.Errorf("call %d: system prompt %s %q, wire %q", w.Call, sp.Source, sp.Text, want)
						}
					} else if want != "" || sp.Source != model.PromptAssembled {
						t.Errorf("call %d: no pieces, source %s; wire %q", w.Call, sp.Source, want)
					}
				}
				if w.Tools != nil {
					tools++
					var names []string
					for _, tl := range c.Request.Tools {
						names = append(names, tl.Name)
					}
					if !c.Request.ToolsKnown || !slices.Equal(names, *w.Tools) && len(*w.Tools)+len(names) > 0 {
						t.Errorf("call %d: tools %v (known %v), wire %v", w.Call, names, c.Request.ToolsKnown, *w.Tools)
					}
				}
				for _, s := range c.Request.Slots {
					if s.Iteration != c.Iteration {
						t.Errorf("call %d (iteration %d): slot %s composed for iteration %d", w.Call, c.Iteration, s.Slot, s.Iteration)
					}
				}
			}
		})
	}
	if prompts == 0 || tools == 0 {
		t.Fatalf("%d system prompts and %d tool lists compared", prompts, tools)
	}
	t.Logf("%d system prompts and %d tool lists equal wire.json's", prompts, tools)
}

// TestRecordedSystemPrompt: with recordSystemPrompt the log holds the
// prompt verbatim, and the pieces assemble to it byte for byte.
func TestRecordedSystemPrompt(t *testing.T) {
	rec, err := Load(filepath.Join(testdata, "request", "e01-archive-system-prompt-recorded", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	calls := callsByNumber(rec)
	if len(calls) != 6 {
		t.Fatalf("%d calls, want 6", len(calls))
	}
	var sources []string
	for n := 1; n <= 6; n++ {
		c := calls[n]
		sp := c.Request.SystemPrompt
		if sp.Source != model.PromptRecorded {
			t.Errorf("call %d: source %s", n, sp.Source)
		}
		if sp.Assembled() != sp.Text {
			t.Errorf("call %d: assembled\n%q\nrecorded\n%q", n, sp.Assembled(), sp.Text)
		}
		var s []string
		for _, p := range sp.Pieces {
			s = append(s, p.Source)
		}
		sources = append(sources, strings.Join(s, ","))
		if len(c.Request.Slots) != 3 {
			t.Errorf("call %d: %d slots", n, len(c.Request.Slots))
		}
	}
	// README.txt: the skill's body from call 2 on, the loan instruction in
	// run 2 only, run 2 recalls run 1 from memory
	want := []string{
		"base,steering,rag,rag",
		"base,steering,skill,rag,rag",
		"base,steering,skill,rag,rag",
		"base,steering,skill,rag,rag",
	}
	if !slices.Equal(sources[:4], want) {
		t.Errorf("run 1 pieces %q, want %q", sources[:4], want)
	}
	for _, s := range sources[4:] {
		if !strings.Contains(s, "instructions") || !strings.Contains(s, "memory") {
			t.Errorf("run 2 pieces %q: no instruction or memory recall", s)
		}
	}
	// the budget of the first call's system-prompt slot, as logged
	s := calls[1].Request.Slots[0]
	if !reflect.DeepEqual(s, model.Slot{Slot: "system-prompt", Iteration: 1, Cap: 4000, Used: 544, Headroom: 3456}) {
		t.Errorf("call 1 slot %+v", s)
	}
	tl := calls[1].Request.Tools
	if len(tl) != 4 || tl[0] != (model.Tool{Name: "get_item", Description: "Catalogue record of an archive item."}) {
		t.Errorf("call 1 tools %+v", tl)
	}
}

// requestLines are a call's request as a hand-written log: two pieces of
// the system prompt (one escaped, one without rawContent), two records of
// the tools slot, a slot budget, and llm_start without a tools catalog.
var requestLines = []string{
	fmt.Sprintf(turnStart, "go"),
	`{"type":"agentfootprint.context.injected","payload":{"slot":"system-prompt","source":"base","reason":"Agent.system()","rawContent":"You are \"careful\".\nBe brief."},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"system-prompt","source":"skill","sourceId":"s1","reason":"r\u00e9ason","contentSummary":"Step one\u2026"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.slot_composed","payload":{"slot":"system-prompt","iteration":1,"budget":{"cap":100,"used":40,"headroomChars":60},"droppedCount":1,"droppedSummaries":["rag: old passage"]},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"tools","source":"registry","sourceId":"get","reason":"tool registry","rawContent":"get: Reads one item.","position":0},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"tools","source":"registry","sourceId":"put","reason":"tool registry","rawContent":"put: Writes: one item.","position":1},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","asRole":"user","rawContent":"go","position":0,"reason":"conversation history [0]"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"messagesCount":1,"systemPromptChars":39,"toolsCount":2},"meta":{"runId":"r"}}`,
	llmEnd,
	// the second call composes nothing again: the first call's pieces; its
	// catalog is recorded, and the prompt text too
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":2,"messagesCount":1,"systemPromptChars":3,"systemPromptText":"a\u00e9b","toolsCount":1,"tools":[{"name":"get"}]},"meta":{"runId":"r"}}`,
	llmEnd,
	// the third call's pieces do not make the length sent
	`{"type":"agentfootprint.context.injected","payload":{"slot":"system-prompt","source":7,"rawContent":"short"},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":3,"messagesCount":1,"systemPromptChars":500,"tools":{"name":"x"}},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.context.slot_composed","payload":{"slot":"tools","iteration":4,"budget":"full","droppedSummaries":[1]},"meta":{"runId":"r"}}`,
	`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":4,"messagesCount":1,"tools":[{"description":"no name"}]},"meta":{"runId":"r"}}`,
}

func TestRequestByHand(t *testing.T) {
	data := []byte(strings.Join(requestLines, "\n"))
	checkSameWays(t, data)
	rec, err := Read(bytes.NewReader(data), "log")
	if err != nil {
		t.Fatal(err)
	}
	calls := callsByNumber(rec)
	if len(calls) != 4 {
		t.Fatalf("%d calls", len(calls))
	}
	pieces := []model.PromptPiece{
		{Source: "base", Reason: "Agent.system()", Text: "You are \"careful\".\nBe brief."},
		{Source: "skill", SourceID: "s1", Reason: "réason", Text: "Step one…", Summary: true},
	}
	want := model.Request{
		SystemPrompt: model.SystemPrompt{Source: model.PromptAssembled, Text: "You are \"careful\".\nBe brief.\n\nStep one…",
			Chars: 39, HasChars: true, Pieces: pieces},
		Tools:      []model.Tool{{Name: "get", Description: "Reads one item."}, {Name: "put", Description: "Writes: one item."}},
		ToolsKnown: true,
		Slots:      []model.Slot{{Slot: "system-prompt", Iteration: 1, Cap: 100, Used: 40, Headroom: 60, DroppedCount: 1, Dropped: []string{"rag: old passage"}}},
	}
	if got := calls[1].Request; !reflect.DeepEqual(got, want) {
		t.Errorf("call 1:\n%+v\nwant\n%+v", got, want)
	}
	want = model.Request{
		SystemPrompt: model.SystemPrompt{Source: model.PromptRecorded, Text: "aéb", Chars: 3, HasChars: true, Pieces: pieces},
		Tools:        []model.Tool{{Name: "get"}}, ToolsKnown: true,
	}
	if got := calls[2].Request; !reflect.DeepEqual(got, want) {
		t.Errorf("call 2:\n%+v\nwant\n%+v", got, want)
	}
	want = model.Request{SystemPrompt: model.SystemPrompt{Source: model.PromptAbsent, Chars: 500, HasChars: true,
		Pieces: []model.PromptPiece{{Text: "short"}}}}
	if got := calls[3].Request; !reflect.DeepEqual(got, want) {
		t.Errorf("call 3:\n%+v\nwant\n%+v", got, want)
	}
	if got := calls[4].Request; got.ToolsKnown || len(got.Slots) != 1 || got.Slots[0].Slot != "tools" || got.Slots[0].Cap != 0 {
		t.Errorf("call 4: %+v", got)
	}
	var probs []string
	for _, p := range rec.Problems {
		probs = append(probs, p.Message)
	}
	wantProbs := []string{
		"log:13: call 3: its 1 system-prompt pieces join to 5 characters, but stream.llm_start systemPromptChars is 500; the prompt's text is not in the log",
		"log:13: stream.llm_start tools is a JSON object, not a list",
		"log:14: context.slot_composed budget: ",
		"log:14: context.slot_composed droppedSummaries: ",
		"log:15: stream.llm_start tools: tool 1 has no name",
	}
	if len(probs) != len(wantProbs) {
		t.Fatalf("problems:\n%s", strings.Join(probs, "\n"))
	}
	for i, p := range probs {
		if !strings.HasPrefix(p, wantProbs[i]) {
			t.Errorf("problem %d: %s\nwant %s…", i+1, p, wantProbs[i])
		}
	}
}

// FuzzRequestDifferential: the request's events, however mangled, read
// the same by both decoders (the fast one hands what it does not accept
// to the reference).
func FuzzRequestDifferential(f *testing.F) {
	f.Add([]byte(strings.Join(requestLines, "\n")))
	for _, l := range requestLines {
		f.Add([]byte(llmStart + "\n" + l + "\n" + llmStart))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkSameWays(t, data) })
}
