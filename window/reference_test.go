package window

import (
	"strings"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// What the tests replay and compare with: the simple ways to ask for a
// replay, an inference or a notice, and the one-pass helpers the visit
// fuses, written plainly.

// Run replays every agent of rec under p (§10.9), deciding rec's lineage.
// Under summarize-oldest the summaries come from the recorded folds,
// learned taking p as the recorded policy.
func Run(rec *model.Recording, p model.Policy) *Replay {
	lin := lineage.Decide(rec)
	var book *FoldBook
	if p.Strategy == model.SummarizeOldest {
		book = RecordedFolds(rec, lin, p)
	}
	return RunFolds(rec, lin, p, book)
}

// RunNear is RunNearUntil never given up.
func RunNear(rec *model.Recording, lin *lineage.Lineage, p model.Policy, book *FoldBook, near *Replay) *Replay {
	return runFolds(rec, lin, p, book, near, nil).built()
}

// Infer is the first agent's inference (the only one, in a one-agent
// file), deciding rec's lineage.
func Infer(rec *model.Recording) Inference {
	infs := InferAgents(rec, lineage.Decide(rec))
	if len(infs) == 0 {
		return Inference{Policy: model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns,
			KeepLastToolResults: model.DefaultKeepLastToolResults}, Evidence: "no calls: library defaults"}
	}
	return infs[0]
}

// NoticeText is the drop notice the library writes in place of n dropped
// messages at iteration. requestKept adds the sentence saying the current
// request is still above; toolNames (already filtered, in order) adds the
// rich sentence naming them.
func NoticeText(n, iteration int, strategy string, requestKept bool, toolNames []string) string {
	var b strings.Builder
	b.Grow(noticeMaxBytes + len(strategy))
	writeNotice(&b, n, iteration, noticeMiddle(strategy, requestKept, len(toolNames) > 0), toolNames)
	return b.String()
}

// segmentAnchor is Segment appending to turns, and the current request
// as pinning.CurrentRequest finds it (when anchor), in one pass: the last
// person-said message whose content is the request, else the last
// person-said message, else -1.
func segmentAnchor(turns []model.Turn, w []*model.Message, request string, anchor bool) ([]model.Turn, int) {
	exact, last := -1, -1
	for i, m := range w {
		if m.Role == model.RoleTool {
			if len(turns) > 0 {
				turns[len(turns)-1].Length++
				continue
			}
		} else if anchor && m.IsPersonSaid() {
			last = i
			if m.Content == request {
				exact = i
			}
		}
		turns = append(turns, model.Turn{Index: len(turns), Start: i, Length: 1})
	}
	if exact >= 0 {
		return turns, exact
	}
	return turns, last
}

// turnChars is the size of each turn of w in characters, in memory reused
// by every visit (segmentFacts does it in its one pass).
func (a *arena) turnChars(w []*model.Message, turns []model.Turn) []int {
	if cap(a.scratchChars) < len(turns) {
		a.scratchChars = make([]int, len(turns), len(turns)*2)
	}
	tc := a.scratchChars[:len(turns)]
	for i, t := range turns {
		n := 0
		for _, m := range w[t.Start : t.Start+t.Length] {
			n += m.Chars()
		}
		tc[i] = n
	}
	return tc
}

// RunAgents replays every agent of rec under its policy in policies (an
// agent with none: the library defaults), each segment from the seed lin
// names for it (§10.9); summarize-oldest takes its summaries from book.
func RunAgents(rec *model.Recording, lin *lineage.Lineage, policies map[string]model.Policy, book *FoldBook) *Replay {
	out := replay(rec, lin, replayOptions{policy: everyAgent(policies), book: book, note: true})
	out.Policies = policies
	if len(rec.Agents) > 0 {
		out.Policy = policyOf(policies, rec.Agents[0])
	}
	return out
}
