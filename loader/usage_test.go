package loader

import (
	"strings"
	"testing"
)

// usage.input -5 on s01's second llm_end (line 32) is no count of tokens:
// a problem naming the file and the line, and the call has no reading;
// the other calls keep theirs.
func TestNegativeUsageIsAProblem(t *testing.T) {
	lines := s01Lines(t)
	if !strings.Contains(lines[31], `"usage":{"input":555,`) {
		t.Fatalf("line 32 is %.120q", lines[31])
	}
	lines[31] = strings.Replace(lines[31], `"usage":{"input":555,`, `"usage":{"input":-5,`, 1)
	rec, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "neg.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 1 || rec.Problems[0].Line != 32 ||
		rec.Problems[0].Message != "neg.jsonl:32: stream.llm_end usage.input -5 is not a count of tokens; taken as not given" {
		t.Fatalf("problems %v", rec.Problems)
	}
	var calls []bool
	for _, r := range rec.Runs {
		for _, c := range r.Calls {
			if c.Usage.Input < 0 {
				t.Errorf("call %d: input %d taken as a count", c.Number, c.Usage.Input)
			}
			calls = append(calls, c.Measured)
		}
	}
	if len(calls) != 9 || calls[1] || !calls[0] || !calls[2] {
		t.Errorf("measured %v: only call 2 has no reading", calls)
	}
}
