package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// The export's request beyond the messages, against wire.json: what the
// provider received as system prompt and tools on every call.

const e01 = "../testdata/request/e01-archive-system-prompt-recorded"

type requestExport struct {
	Tier  string `json:"tier"`
	Calls []struct {
		Call         int `json:"call"`
		SystemPrompt struct {
			Source string  `json:"source"`
			Text   *string `json:"text"`
			Chars  *int    `json:"chars"`
			Pieces []struct {
				Source, Reason, Text string
			} `json:"pieces"`
		} `json:"systemPrompt"`
		Tools []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tools"`
		Slots []struct {
			Slot      string `json:"slot"`
			Iteration int    `json:"iteration"`
			Cap       int    `json:"cap"`
		} `json:"slots"`
		Window []struct {
			Content string `json:"content"`
		} `json:"window"`
	} `json:"calls"`
}

type requestWire struct {
	Calls []struct {
		Call         int       `json:"call"`
		SystemPrompt *string   `json:"systemPrompt"`
		Tools        *[]string `json:"tools"`
	} `json:"calls"`
}

// requestDirs: e01, every repo folder with a wire.json, and the shared
// recordings not copied here when they are beside the repo.
func requestDirs(t *testing.T) []string {
	dirs := []string{e01}
	have := map[string]bool{}
	local, _ := filepath.Glob("../testdata/*/wire.json")
	shared, _ := filepath.Glob("../../shared/testdata*/*/wire.json")
	for _, w := range append(local, shared...) {
		d := filepath.Dir(w)
		if _, err := os.Stat(filepath.Join(d, "run.jsonl")); err != nil || have[filepath.Base(d)] {
			continue
		}
		have[filepath.Base(d)] = true
		dirs = append(dirs, d)
	}
	return dirs
}

func TestExportRequestMatchesWire(t *testing.T) {
	var prompts, tools int
	for _, dir := range requestDirs(t) {
		code, out, errs := runCLI("export", "-q", filepath.Join(dir, "run.jsonl"))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, errs)
		}
		var doc requestExport
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "wire.json"))
		if err != nil {
			t.Fatal(err)
		}
		var wire requestWire
		if err := json.Unmarshal(raw, &wire); err != nil {
			t.Fatal(err)
		}
		byNumber := map[int]int{}
		for i, c := range doc.Calls {
			byNumber[c.Call] = i
		}
		for _, w := range wire.Calls {
			i, ok := byNumber[w.Call]
			if !ok {
				continue // cut off
			}
			c := doc.Calls[i]
			sp := c.SystemPrompt
			if w.SystemPrompt != nil && len(sp.Pieces) > 0 {
				prompts++
				var texts []string
				for _, p := range sp.Pieces {
					texts = append(texts, p.Text)
				}
				if sp.Text == nil || *sp.Text != *w.SystemPrompt || strings.Join(texts, "\n\n") != *w.SystemPrompt {
					t.Errorf("%s call %d: system prompt (%s) %v, wire %q", dir, w.Call, sp.Source, sp.Text, *w.SystemPrompt)
				}
				if sp.Chars == nil || *sp.Chars != model.Len(*w.SystemPrompt) {
					t.Errorf("%s call %d: chars %v", dir, w.Call, sp.Chars)
				}
			}
			if w.Tools != nil && doc.Tier == "minimal" { // no llm_start: the log does not say
				if c.Tools != nil || sp.Source != "absent" || sp.Text != nil || sp.Chars != nil {
					t.Errorf("%s call %d at tier minimal: %+v %+v", dir, w.Call, sp, c.Tools)
				}
				continue
			}
			if w.Tools != nil {
				tools++
				var names []string
				for _, tl := range c.Tools {
					names = append(names, tl.Name)
				}
				if c.Tools == nil || !slices.Equal(names, *w.Tools) {
					t.Errorf("%s call %d: tools %v, wire %v", dir, w.Call, names, *w.Tools)
				}
			}
		}
	}
	if prompts < 50 || tools < 50 {
		t.Fatalf("only %d system prompts and %d tool lists compared", prompts, tools)
	}
}

// On the recording made with recordSystemPrompt the export's text is the
// recorded one, and the pieces joined by a blank line are it byte for
// byte; the system prompt is no message of the window.
func TestExportRecordedSystemPrompt(t *testing.T) {
	code, out, errs := runCLI("export", "-q", filepath.Join(e01, "run.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc requestExport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var lines []struct {
		Type    string
		Payload struct {
			SystemPromptText *string
		}
	}
	raw, _ := os.ReadFile(filepath.Join(e01, "run.jsonl"))
	for _, l := range bytes.Split(raw, []byte("\n")) {
		var ev struct {
			Type    string `json:"type"`
			Payload struct {
				SystemPromptText *string `json:"systemPromptText"`
			} `json:"payload"`
		}
		if json.Unmarshal(l, &ev) == nil && ev.Type == "agentfootprint.stream.llm_start" {
			lines = append(lines, struct {
				Type    string
				Payload struct{ SystemPromptText *string }
			}{ev.Type, struct{ SystemPromptText *string }{ev.Payload.SystemPromptText}})
		}
	}
	if len(lines) != 6 || len(doc.Calls) != 6 {
		t.Fatalf("%d llm_start, %d calls", len(lines), len(doc.Calls))
	}
	for i, c := range doc.Calls {
		recorded := lines[i].Payload.SystemPromptText
		var texts []string
		for _, p := range c.SystemPrompt.Pieces {
			texts = append(texts, p.Text)
		}
		if c.SystemPrompt.Source != "recorded" || recorded == nil || c.SystemPrompt.Text == nil ||
			*c.SystemPrompt.Text != *recorded || strings.Join(texts, "\n\n") != *recorded {
			t.Errorf("call %d: %s, pieces %q, recorded %v", i+1, c.SystemPrompt.Source, texts, recorded)
		}
		for _, m := range c.Window {
			if m.Content == *recorded {
				t.Errorf("call %d: the system prompt is a message of the window", i+1)
			}
		}
		if len(c.Slots) != 3 || c.Slots[0].Slot != "system-prompt" || c.Slots[0].Cap != 4000 {
			t.Errorf("call %d: slots %+v", i+1, c.Slots)
		}
	}
	// streamed call by call, byte for byte the document encoded at once
	rec, err := loader.StartLimited(filepath.Join(e01, "run.jsonl"), 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	s, err := study.Open(rec, study.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var streamed bytes.Buffer
	if err := writeExport(&streamed, "e01", s); err != nil {
		t.Fatal(err)
	}
	if whole := wholeExport(t, "e01", s); !bytes.Equal(streamed.Bytes(), whole) {
		t.Errorf("streamed export differs from the whole document")
	}
}

// An envelope's events are the log's: each call's request in the export
// of recording.json is the one of run.jsonl, call by call (runId,
// iteration, occurrence; the numbers can differ, §13.1). Two logs hold
// other calls than their envelope: s90's was cut on purpose (the calls
// both hold are compared), n09's was written at tier minimal (no llm_start: every request absent,
// while the envelope, which is not tier-filtered, has them).
func TestExportRequestEnvelopeIsTheLogs(t *testing.T) {
	envs, _ := filepath.Glob("../testdata/*/recording.json*")
	if len(envs) < 5 {
		t.Fatalf("%d envelopes", len(envs))
	}
	requests := func(path string) (string, map[string]string) {
		code, out, errs := runCLI("export", "-q", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errs)
		}
		var doc struct {
			Tier  string `json:"tier"`
			Calls []struct {
				RunID        string          `json:"runId"`
				Iteration    int             `json:"iteration"`
				SystemPrompt json.RawMessage `json:"systemPrompt"`
				Tools        json.RawMessage `json:"tools"`
				Slots        json.RawMessage `json:"slots"`
			} `json:"calls"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		rs, seen := map[string]string{}, map[string]int{}
		for _, c := range doc.Calls {
			k := c.RunID + " " + strconv.Itoa(c.Iteration)
			seen[k]++
			rs[k+" "+strconv.Itoa(seen[k])] = string(c.SystemPrompt) + string(c.Tools) + string(c.Slots)
		}
		return doc.Tier, rs
	}
	compared := 0
	for _, env := range envs {
		log := filepath.Join(filepath.Dir(env), "run.jsonl")
		if _, err := os.Stat(log); err != nil {
			continue
		}
		tier, fromLog := requests(log)
		_, fromEnv := requests(env)
		for k, r := range fromLog {
			switch {
			case tier == "minimal":
				if !strings.HasPrefix(r, `{"source":"absent","text":null,"chars":null,"pieces":[]}null[]`) || strings.Contains(fromEnv[k], `"absent"`) {
					t.Errorf("%s %s: at tier minimal %s, the envelope %s", env, k, r, fromEnv[k])
				}
			case fromEnv[k] == "":
			case r != fromEnv[k]:
				t.Errorf("%s %s: the log's request\n%s\nthe envelope's\n%s", env, k, r, fromEnv[k])
			default:
				compared++
			}
		}
	}
	if compared < 100 {
		t.Errorf("only %d calls compared", compared)
	}
}
