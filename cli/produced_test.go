package cli

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

func TestProduced(t *testing.T) {
	for _, c := range []struct {
		r    model.Response
		want string
	}{
		{model.Response{Content: "Ruling out the zone.", ToolCalls: []model.ToolCall{{Name: "get_metrics", Args: []byte(`{"host":"web-9d4b27","window":"14:00-14:30Z"}`)}}}, "→ get_metrics(web-9d4b27, …)"},
		{model.Response{ToolCalls: []model.ToolCall{{Name: "list_hosts", Args: []byte(`{"service":"checkout"}`)}, {Name: "ping", Args: []byte(`{}`)}}}, "→ list_hosts(checkout), ping()"},
		{model.Response{Content: "héllo 😀"}, "answer 8 chars"}, // UTF-16 units
		{model.Response{}, "-"},
	} {
		if got := produced(&model.Call{Facts: model.CallFacts{Response: c.r}}); got != c.want {
			t.Errorf("produced = %q, want %q", got, c.want)
		}
	}
}

// Each answer's fate is on its row (docs/rules/evidence.md §9.4): e02-rails'
// first answer (call 7) was sent back for revision, its revision (call
// 9) refused — run() threw UnsupportedValuesError and nothing was
// delivered (README) —, and e01-guard's revision (call 9) was returned.
// A call with tool calls is no answer.
func TestReportSaysEachAnswersOutcome(t *testing.T) {
	for _, c := range []struct {
		file  string
		rows  map[string]string // call → outcome
		extra string
	}{
		{"../testdata/e02-rails/run.jsonl", map[string]string{"7": "revision-asked", "8": "-", "9": "refused"},
			"call 9 refused: run() threw UnsupportedValuesError; the caller got nothing"},
		{"../testdata/e01-guard/run.jsonl", map[string]string{"7": "revision-asked", "8": "-", "9": "delivered"}, ""},
	} {
		_, out, _ := runCLI("report", "-q", c.file)
		lines := strings.Split(out, "\n")
		col := strings.Index(lines[0], "OUTCOME")
		if col < 0 || col > strings.Index(lines[0], "PRODUCED") {
			t.Fatalf("%s: no OUTCOME column before PRODUCED:\n%s", c.file, lines[0])
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) == 0 || c.rows[f[0]] == "" {
				continue
			}
			if got := strings.Fields(l[col:])[0]; got != c.rows[f[0]] {
				t.Errorf("%s call %s: outcome %q, want %q", c.file, f[0], got, c.rows[f[0]])
			}
		}
		if c.extra != "" && !strings.Contains(out, c.extra) {
			t.Errorf("%s: no %q in\n%s", c.file, c.extra, out)
		}
		if c.extra == "" && strings.Contains(out, "refused") {
			t.Errorf("%s: says refused\n%s", c.file, out)
		}
	}
}

// c02's billing windows are reproduced by every keepLastToolResults 0–5
// (its README: pins off), oncall's by 2–5 (README: 2): the report's
// footer says each knob is a guess among those.
func TestReportSaysTheKnobIsAGuess(t *testing.T) {
	_, out, _ := runCLI("report", "-q", c02)
	for _, want := range []string{
		"policy of billing (inferred): sliding-window keepRecentTurns=4 keepLastToolResults=2 (a guess: keepLastToolResults 0–5 reproduce the same windows)",
		"policy of oncall: sliding-window keepRecentTurns=2 keepLastToolResults=2 (a guess: keepLastToolResults 2–5 reproduce the same windows)",
		"(a guess: PINS and STAYED BECAUSE are under the value chosen",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
