package window

import (
	"strings"
	"testing"

	"github.com/afinspect/inspect/model"
)

// A Parallel branch (n06-parallel-composition: compositionPath
// ["Parallel:triage"], step "logs") whose windows changed and that
// names no strategy: the note says what holds in a Parallel, not that "a
// Sequence step has no meter"; a Sequence step's note still says that.
func TestParallelBranchNoteIsNotASequences(t *testing.T) {
	u := func(s string) *model.Message { return &model.Message{Role: model.RoleUser, Content: s} }
	a1, r1, a2 := &model.Message{Role: model.RoleAssistant, Content: "a"}, u("r"), &model.Message{Role: model.RoleAssistant, Content: "b"}
	for _, c := range []struct {
		path      []string
		want, not string
	}{
		{[]string{"Parallel:triage", "logs"}, "Parallel", "Sequence"},
		{[]string{"Sequence:pipeline", "step-write"}, "a Sequence step has no meter", "Parallel"},
		{[]string{"Agent:oncall"}, "no budget_pressure", "Sequence"},
	} {
		a := &model.Agent{Key: strings.Join(c.path, "/"), Path: c.path}
		run := &model.Run{Agent: a, Calls: []*model.Call{
			{Recorded: []*model.Message{u("q"), a1, r1}},
			{Recorded: []*model.Message{u("q"), a2}}, // something left between the calls
		}}
		f := gather(&model.Recording{Agents: []*model.Agent{a}, Runs: []*model.Run{run}}, a, []int{0})
		if f.strategy != model.SlidingWindow || !strings.Contains(f.strategyWhy, c.want) || strings.Contains(f.strategyWhy, c.not) {
			t.Errorf("%v: %s: %q", c.path, f.strategy, f.strategyWhy)
		}
	}
}
