package lineage

import (
	"strconv"
	"strings"

	"github.com/afinspect/inspect/model"
)

// bestExplanation is the earlier segment whose final state explains w1,
// the first window of follow-up r, and its score (§10.7 rule 2): the
// highest score; among equals one no follow-up continues yet; among
// those the latest turn_end. -1 when none explains it.
func (d *decider) bestExplanation(i int, r *model.Run, w1 []*model.Message) (int, int) {
	request := &model.Message{Role: model.RoleUser, Content: r.Request}
	best, bestScore, ties := -1, -1, 0
	for k := 0; k < i; k++ {
		p := d.rec.Runs[k]
		if p.Agent != r.Agent || !p.Complete || p.TurnEndAt >= r.First || len(p.Calls) == 0 {
			continue
		}
		carried, visits := carriedBy(p)
		if carried == nil {
			continue
		}
		pre := make([]*model.Message, 0, len(carried)+2)
		pre = append(append(pre, carried...), &model.Message{Role: model.RoleAssistant, Content: p.FinalAnswer}, request)
		score, ok := Explains(w1, pre)
		if visits == 2 {
			score, ok = ExplainsTwo(w1, pre)
		}
		switch {
		case !ok || score < bestScore:
			continue
		case score == bestScore:
			ties++
			if !d.better(k, best) {
				continue
			}
		default:
			ties = 0
		}
		best, bestScore = k, score
	}
	if ties > 0 && best >= 0 {
		d.problem(r, "run %s: %d earlier runs explain its first window equally well (score %d); by §10.7's tie rule it continues run %s", r.RunID, ties+1, bestScore, d.rec.Runs[best].RunID)
	}
	return best, bestScore
}

// carriedBy is what run p hands a follow-up before its final answer, and
// how many window visits lie between that and the follow-up's first
// window: p's last recorded window (one visit: the follow-up's first); or,
// when that window is not in the log (tier minimal, §16.3), the history
// the iteration before it ended with (two: p's last call's and the
// follow-up's first). nil when neither is known.
func carriedBy(p *model.Run) ([]*model.Message, int) {
	n := len(p.Calls)
	if last := p.Calls[n-1]; last.Recorded != nil {
		return last.Recorded, 1
	}
	if n < 2 || p.Calls[n-2].Recorded == nil || len(p.Calls[n-2].Appended) == 0 {
		return nil, 0
	}
	prev := p.Calls[n-2]
	h := make([]*model.Message, 0, len(prev.Recorded)+len(prev.Appended))
	return append(append(h, prev.Recorded...), prev.Appended...), 2
}

// better reports whether candidate k wins a tie over best: one no
// follow-up continues yet, then the latest turn_end.
func (d *decider) better(k, best int) bool {
	if d.continued[k] != d.continued[best] {
		return !d.continued[k]
	}
	return d.rec.Runs[k].TurnEndAt > d.rec.Runs[best].TurnEndAt
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
