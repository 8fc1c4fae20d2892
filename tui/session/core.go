package session

import (
	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/compare"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
)

// The answers of the core that the screen draws, named here so that the
// session is the one room of the UI that reaches study, advise and
// compare: the rooms above read these answers, and ask the session for
// any work on them.
type (
	// Study is one recording opened for inspection.
	Study = study.Study
	// Advice is the policy advisor's answer for one agent.
	Advice = advise.Advice
	// Pick is one of the advisor's picks (cheapest, keeps everything …).
	Pick = advise.Pick
	// Fit is the advisor's token model of the agent's calls.
	Fit = advise.Fit
	// Cost is what a policy costs against the recorded one.
	Cost = advise.Cost
	// Suggestion is one answer of the "what would have kept it" search.
	Suggestion = advise.Suggestion
	// Comparison is two recordings lined up call by call.
	Comparison = compare.Comparison
	// Pair is one aligned pair of calls of a Comparison.
	Pair = compare.Pair
	// Side is one recording of a Comparison.
	Side = compare.Side
)

// PairSame is the state of a pair whose windows are the same.
const PairSame = compare.Same

// AdviseGrowth is how many times the settled policy's messages a policy's
// windows may hold before the advisor leaves it out.
const AdviseGrowth = advise.AdviseGrowth

// AdviseProgress is the words for a sweep's progress, the same the
// command line prints.
func AdviseProgress(agent string, done, total int) (doing, count string) {
	return advise.Progress(agent, done, total)
}

// NoPolicyKeeps says that no policy within the search's knob steps keeps
// a value's sources in view.
func NoPolicyKeeps() string { return advise.NoneText() }

// WindowDiff is what two windows hold apart: the messages of a only, of
// b only, and those in both with other text.
func WindowDiff(a, b []*model.Message) (aOnly, bOnly []*model.Message, edited [][2]*model.Message) {
	return compare.WindowDiff(a, b)
}
