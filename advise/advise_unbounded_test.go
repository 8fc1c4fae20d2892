package advise

import (
	"context"
	"slices"
	"testing"

	"github.com/afinspect/inspect/internal/rungen"
	"github.com/afinspect/inspect/loader"
	"github.com/afinspect/inspect/study"
)

// A token threshold that the replay seldom engages keeps whole histories:
// over a conversation of follow-ups, windows that hold every earlier
// message. The sweep gives such a policy up once its windows hold
// AdviseGrowth times the recorded ones, and lists it as left out; the
// other rows are the same as without a budget.
func TestAdviceLeavesOutPoliciesWhoseWindowsGrowWithoutBound(t *testing.T) {
	path, _, err := rungen.CachedConversations(rungen.FollowUpChain(300)) // 600 calls
	if err != nil {
		t.Fatal(err)
	}
	rec, err := loader.StartLimited(path, 0).Wait()
	if err != nil {
		t.Fatal(err)
	}
	advise := func(floor int) *Advice {
		was := adviseFloor
		adviseFloor = floor
		defer func() { adviseFloor = was }()
		s, err := study.Open(rec, study.Request{})
		if err != nil {
			t.Fatal(err)
		}
		ads, err := Files(context.Background(), []*study.Study{s}, "", nil)
		if err != nil || len(ads) != 1 {
			t.Fatalf("%d answers, %v", len(ads), err)
		}
		return ads[0]
	}
	whole, budgeted := advise(1<<40), advise(0)
	if len(whole.Unbounded) != 0 {
		t.Fatalf("left out with no budget: %v", whole.Unbounded)
	}
	if len(budgeted.Unbounded) == 0 {
		t.Fatal("no policy left out under the budget")
	}
	for _, p := range budgeted.Unbounded {
		if !p.NeedsThreshold() {
			t.Errorf("left out %v: a sliding window is bounded by its K", p)
		}
		i := slices.IndexFunc(whole.Rows, func(r Row) bool { return r.Policy == p })
		if i < 0 {
			t.Fatalf("%v is in no row of the whole sweep", p)
		}
		if r := whole.Rows[i]; r.Chars < AdviseGrowth*whole.Rows[whole.RecordedRow].Chars/4 {
			t.Errorf("%v left out, yet its windows hold %d chars against the recorded %d", p, r.Chars, whole.Rows[whole.RecordedRow].Chars)
		}
	}
	if len(budgeted.Rows)+len(budgeted.Unbounded) != len(whole.Rows) {
		t.Errorf("%d rows and %d left out, of %d", len(budgeted.Rows), len(budgeted.Unbounded), len(whole.Rows))
	}
	if budgeted.Rows[budgeted.RecordedRow].Policy != budgeted.Recorded {
		t.Errorf("the recorded row is %v, the recorded policy %v", budgeted.Rows[budgeted.RecordedRow].Policy, budgeted.Recorded)
	}
	for _, r := range budgeted.Rows {
		i := slices.IndexFunc(whole.Rows, func(w Row) bool { return w.Policy == r.Policy })
		w := whole.Rows[i]
		w.Frontier, r.Frontier = false, false
		if r != w {
			t.Errorf("%v under the budget %+v, without %+v", r.Policy, r, w)
		}
	}
}
