package loader

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// edited is s01-basic-loop with line n (1-based) passed through edit;
// an edit returning "" drops the line.
func edited(t *testing.T, edits map[int]func(string) string) *model.Recording {
	t.Helper()
	var out []string
	for i, l := range s01Lines(t) {
		if e := edits[i+1]; e != nil {
			if l = e(l); l == "" {
				continue
			}
		}
		out = append(out, l)
	}
	rec, err := Read(strings.NewReader(joined(out)), "s01")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func replace(old, new string) func(string) string {
	return func(l string) string { return strings.Replace(l, old, new, 1) }
}

// hasProblem reports whether a problem at line names want.
func hasProblem(rec *model.Recording, line int, want string) bool {
	for _, p := range rec.Problems {
		if p.Line == line && strings.Contains(p.Message, want) {
			return true
		}
	}
	return false
}

func problemsOf(rec *model.Recording) string {
	var s []string
	for _, p := range rec.Problems {
		s = append(s, p.Message)
	}
	return strings.Join(s, "\n")
}

// tool_end before its tool_start dropped a valid result.
func TestToolEndBeforeToolStartIsJoinedByID(t *testing.T) {
	lines := s01Lines(t)
	start, end := lines[15], lines[16] // call_0001's tool_start and tool_end
	rec := edited(t, map[int]func(string) string{16: func(string) string { return end }, 17: func(string) string { return start }})
	want := edited(t, nil)
	got, exp := rec.Runs[0].Calls[0].Appended, want.Runs[0].Calls[0].Appended
	if len(got) != len(exp) || got[len(got)-1].Content != exp[len(exp)-1].Content || got[len(got)-1].Content == "" {
		t.Errorf("call 1 appended %d messages, want %d with the tool's result", len(got), len(exp))
	}
	if len(rec.Problems) != 0 {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestNullUserPromptIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{2: func(l string) string {
		return `{"type":"agentfootprint.agent.turn_start","payload":{"turnIndex":0,"userPrompt":null},"meta":{"runId":"run-1796000736897-1"}}`
	}})
	if !hasProblem(rec, 2, "userPrompt") {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestNullToolNameIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{16: replace(`"toolName":"search_docs"`, `"toolName":null`)})
	if !hasProblem(rec, 16, "toolName") {
		t.Errorf("problems: %s", problemsOf(rec))
	}
	if calls(rec) != 9 {
		t.Errorf("%d calls, want 9", calls(rec))
	}
}

func TestNullToolResultIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{17: func(l string) string {
		i := strings.Index(l, `"result":"`)
		j := strings.Index(l[i+10:], `"`) + i + 10
		return l[:i] + `"result":null` + l[j+1:]
	}})
	if !hasProblem(rec, 17, "result") {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestDanglingToolStartIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{17: func(string) string { return "" }})
	if !hasProblem(rec, 16, "call_0001") {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestDuplicateTypeKeyIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{2: replace(`{"type":"agentfootprint.agent.turn_start",`, `{"type":"agentfootprint.agent.turn_end","type":"agentfootprint.agent.turn_start",`)})
	if !hasProblem(rec, 2, `"type"`) {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestUnknownStrategyInRunConfiguredIsAProblem(t *testing.T) {
	rec := edited(t, map[int]func(string) string{1: replace(`"window":"sliding-window"`, `"window":"foo"`)})
	if !hasProblem(rec, 1, `"foo"`) {
		t.Errorf("problems: %s", problemsOf(rec))
	}
}

func TestNonIntegerMessagesCountKeepsTheCall(t *testing.T) {
	var line int
	for i, l := range s01Lines(t) {
		if strings.Contains(l, "llm_start") && strings.Contains(l, `"messagesCount":3`) {
			line = i + 1
			break
		}
	}
	rec := edited(t, map[int]func(string) string{line: replace(`"messagesCount":3`, `"messagesCount":1.5`)})
	if !hasProblem(rec, line, "messagesCount") {
		t.Errorf("problems: %s", problemsOf(rec))
	}
	if calls(rec) != 9 {
		t.Errorf("%d calls, want 9: the call is kept", calls(rec))
	}
}
