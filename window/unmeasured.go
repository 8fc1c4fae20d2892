package window

import (
	"fmt"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// unmeasured reads, for one segment of a log written at tier minimal,
// where its token strategy engaged (docs/rules/versions-and-tiers.md §16.4). Such a log
// keeps no token count, yet the strategy engaged in the library as at any
// tier: a visit whose window differs from the history before it removed a
// span, so its reading was over budget. The replay takes that reading
// where it is in step with the library (its history before the visit is
// the library's), and nowhere else.
type unmeasured struct {
	rec *model.Recording
	lin *lineage.Lineage
	seg int // the segment's index in rec.Runs
	// told are the calls (numbers) whose visit the log shows engaged;
	// untold those whose visit it cannot tell, replayed as not engaged
	told, untold []int
}

// newUnmeasured is the reader for segment i replayed under p, nil unless
// the log keeps no token counts and p's strategy is a token strategy the
// segment was configured with (the replayed strategy is the recorded one;
// another has no reading at all).
func newUnmeasured(rec *model.Recording, lin *lineage.Lineage, i int, p model.Policy) *unmeasured {
	run := rec.Runs[i]
	if rec.Tier != model.TierMinimal || !p.NeedsThreshold() || !run.Configured || run.Strategy != p.Strategy {
		return nil
	}
	return &unmeasured{rec: rec, lin: lin, seg: i}
}

// overAt reports whether the visit before call ci reads as over budget:
// the library's history before it, P, and its window, W, are known and
// differ, and the replay's history is P. A chain's first visit never
// has a reading; a Sequence step has no meter.
func (u *unmeasured) overAt(x *runner, history []*model.Message, ci int) bool {
	if u == nil || !metered(x.run.Agent) || ci == 0 && x.link.Kind != lineage.Resume {
		return false
	}
	call := x.run.Calls[ci]
	p := libraryBefore(u.rec, u.lin, u.seg, ci)
	w := u.windowOf(ci)
	switch {
	case p == nil || w == nil || !sameWindow(history, p):
		u.untold = append(u.untold, call.Number)
		return false
	case sameWindow(p, w):
		return false // under budget, or over with every turn refused: the log cannot show which
	}
	u.told = append(u.told, call.Number)
	return true
}

// windowOf is the window the library sent on call ci less its
// deliveries: the recorded one, or for a run's last call, whose window no
// iteration_end holds, the first window of the follow-up that continues
// the run less its last two messages, the answer and the new request
// (the follow-up's own first visit never engages: no reading yet). nil
// when the log does not hold it.
func (u *unmeasured) windowOf(ci int) []*model.Message {
	run := u.rec.Runs[u.seg]
	if w := sentBeforeDeliveries(run.Calls[ci]); w != nil || ci != len(run.Calls)-1 {
		return w
	}
	for j, l := range u.lin.Links {
		if l.Kind != lineage.FollowUp || l.Pred != u.seg {
			continue
		}
		next := u.rec.Runs[j]
		w1 := lineage.FirstWindow(next)
		n := len(w1)
		if n < 2 || w1[n-2].Role != model.RoleAssistant || w1[n-2].Content != run.FinalAnswer ||
			w1[n-1].Role != model.RoleUser || w1[n-1].Content != next.Request {
			continue
		}
		return w1[:n-2]
	}
	return nil
}

// problems say where the log showed the strategy engaged, and where it
// could not tell (replayed as not engaged), once per segment.
func (u *unmeasured) problems(run *model.Run, p model.Policy) []string {
	if u == nil {
		return nil
	}
	var out []string
	where := fmt.Sprintf("run %s", run.RunID)
	if run.Step != "" {
		where += " step " + run.Step
	}
	if len(u.told) > 0 {
		out = append(out, fmt.Sprintf("tier minimal keeps no token counts: %s engaged at call(s) %s of %s as the log shows (its window changed); the count over thresholdTokens is unknown",
			p.Strategy, ranges(u.told), where))
	}
	if len(u.untold) > 0 {
		out = append(out, fmt.Sprintf("tier minimal keeps no token counts: whether %s engaged at call(s) %s of %s the log cannot tell (a run's last window with no follow-up, or the replay's history no longer the library's); replayed as not engaged",
			p.Strategy, ranges(u.untold), where))
	}
	return out
}
