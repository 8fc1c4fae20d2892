package detail

import (
	"slices"
	"testing"

	"github.com/afinspect/inspect/model"
)

// requestChanges names what arrived, left and changed, by source and id,
// and the tools offered or withdrawn.
func TestRequestChanges(t *testing.T) {
	base := model.PromptPiece{Source: "base", Text: "You are x."}
	skill := model.PromptPiece{Source: "skill", SourceID: "triage", Text: "Step 1."}
	rag := model.PromptPiece{Source: "rag", SourceID: "doc#1", Text: "passage"}
	tools := func(ns ...string) []model.Tool {
		var ts []model.Tool
		for _, n := range ns {
			ts = append(ts, model.Tool{Name: n})
		}
		return ts
	}
	before := model.Request{SystemPrompt: model.SystemPrompt{Source: model.PromptAssembled, Text: "You are x.\n\npassage",
		Pieces: []model.PromptPiece{base, rag}}, Tools: tools("a", "b"), ToolsKnown: true}
	rag2 := rag
	rag2.Text = "another passage"
	now := model.Request{SystemPrompt: model.SystemPrompt{Source: model.PromptAssembled, Text: "…",
		Pieces: []model.PromptPiece{base, skill, rag2}}, Tools: tools("b", "c"), ToolsKnown: true}
	got := requestChanges(before, now)
	want := []string{"+ skill triage arrived in the system prompt", "≠ rag doc#1 changed", "+ tool c offered", "− tool a no longer offered"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q\nwant %q", got, want)
	}
	if got := requestChanges(now, before); !slices.Contains(got, "− skill triage left the system prompt") {
		t.Errorf("back: %q", got)
	}
	if got := requestChanges(before, before); len(got) != 0 {
		t.Errorf("no change: %q", got)
	}
}
