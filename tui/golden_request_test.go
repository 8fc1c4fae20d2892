package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

func TestGoldenRequestE01Call2(t *testing.T) {
	// e01 (recordSystemPrompt: true), call 2: the request line shows the
	// recorded prompt of 735 chars in 5 pieces (llm_start
	// systemPromptChars), 4 tools and the 3 messages sent (wire.json
	// messageCount 3); S opens it: the skill conservation-handling, which
	// read_skill activated on call 1, arrived (README.txt: its body is in
	// the system prompt from call 2 on), the pieces base, steering, skill,
	// rag, rag, each with its source and reason, then the four tools.
	cfg := fileConfig("../testdata/request/e01-archive-system-prompt-recorded/run.jsonl")
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/4",
		step{keys: []string{"l"}, wait: "call 2/4"}, step{keys: []string{"S"}, wait: "request of call 2"}))
}
