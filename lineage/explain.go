package lineage

import (
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// bestExplanation is the earlier segment whose history explains w1, the
// first window of follow-up r, the form it offers, and the score (§10.7
// rule 2, §14.4): the highest score; among equals one no follow-up
// continues yet; among those the latest end (turn_end, else last event).
// -1 when none explains it.
func (d *decider) bestExplanation(r *model.Run, w1 []*model.Message) (int, Form, int) {
	request := r.RequestMessage
	if request == nil {
		request = &model.Message{Role: model.RoleUser, Content: r.Request}
	}
	var best *class
	bestK, bestScore, bestFresh, count := -1, -1, false, 0
	for _, c := range d.x.candidates(r.Agent, w1, r.Request) {
		pre := c.carried
		if c.form != Reentered {
			pre = append(pre[:len(pre):len(pre)], request)
		}
		score, ok := Explains(w1, pre)
		if !ok || score < bestScore {
			continue
		}
		k, fresh := c.latest()
		if k < 0 {
			continue
		}
		if score > bestScore {
			count = 0
		}
		count += c.live
		if score == bestScore && (bestFresh && !fresh || bestFresh == fresh && c.ends[k] <= best.ends[bestK]) {
			continue
		}
		best, bestK, bestScore, bestFresh = c, k, score, fresh
	}
	if best == nil {
		return -1, Answered, 0
	}
	p := best.members[bestK]
	if count > 1 {
		d.problem(r, "run %s: %d earlier runs explain its first window equally well (score %d); by §10.7's tie rule it continues run %s", r.RunID, count, bestScore, d.rec.Runs[p].RunID)
	}
	return p, best.form, bestScore
}

// Explains reports whether pre (a candidate's carried history plus the
// new request) explains w1 after one window visit, and the score: w1 =
// pre (score |w1|); or, with i the longest common prefix and j ≥ 1 the
// longest common suffix of what is left, n = |pre|−i−j ≥ 1 messages
// removed and, between them in w1, nothing or one drop notice or
// compaction frame naming n (score i+j). Messages compare by role and
// content.
func Explains(w1, pre []*model.Message) (int, bool) {
	i := 0
	for i < len(w1) && i < len(pre) && model.SameText(w1[i], pre[i]) {
		i++
	}
	if i == len(w1) && i == len(pre) {
		return len(w1), true
	}
	j := 0
	for i+j < len(w1) && i+j < len(pre) && model.SameText(w1[len(w1)-1-j], pre[len(pre)-1-j]) {
		j++
	}
	n := len(pre) - i - j
	if j < 1 || n < 1 {
		return 0, false
	}
	switch mid := w1[i : len(w1)-j]; len(mid) {
	case 0:
		return i + j, true
	case 1:
		if mid[0].Role == model.RoleUser && namesRemoved(mid[0].Content, n) {
			return i + j, true
		}
	}
	return 0, false
}

// namesRemoved: content is a drop notice or compaction frame saying n
// earlier messages left.
func namesRemoved(content string, n int) bool {
	count := strconv.Itoa(n) + " earlier message(s)"
	return strings.HasPrefix(content, "[dropped history — "+count) ||
		strings.HasPrefix(content, "[compacted history — "+count)
}
