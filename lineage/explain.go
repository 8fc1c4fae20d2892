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
func (d *decider) bestExplanation(_ int, r *model.Run, w1 []*model.Message) (int, Form, int) {
	request := r.RequestMessage
	if request == nil {
		request = &model.Message{Role: model.RoleUser, Content: r.Request}
	}
	c := choice{seen: map[seenKey]bool{}}
	d.fileAgent(r.Agent)
	x := d.x
	for _, b := range x.lookups(r.Agent, w1, request) {
		if x.buckets[b].shape.exact() && x.buckets[b].live > checkAll {
			if k, fresh := x.latest(b); k >= 0 {
				if score, ok := explainsEntry(w1, x.nodes[k].entry, request); ok {
					c.consider(x.nodes[k].entry, score, fresh, int(x.buckets[b].live))
					continue
				}
			}
		}
		for k := x.buckets[b].last; k >= 0; k = x.nodes[k].prev { // each checked, each counted once
			n := &x.nodes[k]
			if n.entry.gone || c.seen[seenKey{n.entry.run, n.entry.form}] {
				continue
			}
			c.seen[seenKey{n.entry.run, n.entry.form}] = true
			if score, ok := explainsEntry(w1, n.entry, request); ok {
				c.consider(n.entry, score, n.free == k, 1)
			}
		}
	}
	for _, e := range x.twoCandidates(r.Agent, w1, request) {
		if e.gone {
			continue
		}
		if score, ok := explainsEntry(w1, e, request); ok {
			c.consider(e, score, !e.cont, 1)
		}
	}
	if c.best == nil {
		return -1, Answered, 0
	}
	p := c.best.run
	if c.count > 1 {
		d.problem(r, "run %s: %d earlier runs explain its first window equally well (score %d); by §10.7's tie rule it continues run %s", r.RunID, c.count, c.score, d.rec.Runs[p].RunID)
	}
	return p, c.best.form, c.score
}

// twoCandidates are the entries explained across two visits that may
// explain w1. Every message of w1 before its request that is no notice,
// frame or request is one of pre's (ExplainsTwo), so each of them names
// a superset of the candidates: the fewest are taken (a text every run
// repeats, "Checking." before each tool call, names them all; a run's
// answer, one or two). When w1 has no such message, every one of the
// agent's is a candidate.
func (x *index) twoCandidates(a *model.Agent, w1 []*model.Message, request *model.Message) []*entry {
	var best []*entry
	found := false
	for _, m := range w1[:max(0, len(w1)-1)] {
		if isMarker(m) || model.SameText(m, request) {
			continue
		}
		es := x.two[twoKey{a, x.hash(m)}]
		if !found || len(es) < len(best) {
			best, found = es, true
		}
		if len(best) == 0 {
			break // no entry carries it: none explains w1
		}
	}
	if !found {
		return x.twoAll[a]
	}
	return best
}

// checkAll is the most members of a bucket whose members explain alike
// that are each checked (and counted once though found twice, which only
// a message repeated around the span can do); a bigger one has its chosen
// member checked and the rest counted: a log of many follow-ups that each
// keep only a notice and the request ties every run of that length.
const checkAll = 16

// choice is the best candidate so far by §10.7's order, and how many
// explain as well.
type choice struct {
	best  *entry
	score int
	fresh bool
	count int
	seen  map[seenKey]bool // candidates checked one by one
}

type seenKey struct {
	run  int
	form Form
}

// consider weighs e, whose score is score, fresh when no follow-up
// continues it yet, standing for n runs that explain alike. Of one run's
// two forms that explain alike, followUp's is taken (§14.4 lists it
// first).
func (c *choice) consider(e *entry, score int, fresh bool, n int) {
	switch {
	case c.best == nil || score > c.score:
		c.best, c.score, c.fresh, c.count = e, score, fresh, n
	case score == c.score:
		c.count += n
		if fresh && !c.fresh || fresh == c.fresh && (e.end > c.best.end || e.end == c.best.end && e.form < c.best.form) {
			c.best, c.fresh = e, fresh
		}
	}
}

// explainsEntry is Explains of w1 by what e offers: its carried history,
// then the request, save for resumeOnError's form, which appends nothing.
// Across two visits (e.two) it is ExplainsTwo, of a w1 that ends with the
// request as every followUp's does (the anchor keeps it).
func explainsEntry(w1 []*model.Message, e *entry, request *model.Message) (int, bool) {
	pre := e.carried
	if e.form != Reentered {
		pre = append(pre[:len(pre):len(pre)], request)
	}
	if e.two {
		if len(w1) == 0 || !model.SameText(w1[len(w1)-1], request) {
			return 0, false
		}
		return ExplainsTwo(w1, pre)
	}
	return Explains(w1, pre)
}

// Explains reports whether pre (a candidate's carried history plus the
// new request) explains w1 after one window visit, and the score: w1 =
// pre (score |w1|); or, with i the longest common prefix and j ≥ 1 the
// longest common suffix of what is left, n = |pre|−i−j ≥ 1 messages
// removed and, between them in w1, nothing or one drop notice or
// compaction frame naming n (score i+j). Messages compare by role and
// content.
func Explains(w1, pre []*model.Message) (int, bool) {
	i, j := commonEnds(w1, pre)
	if i == len(w1) && i == len(pre) {
		return len(w1), true
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

// commonEnds is the longest common prefix i of w1 and pre, and the
// longest common suffix j of what is left after it, by role and content.
func commonEnds(w1, pre []*model.Message) (i, j int) {
	for i < len(w1) && i < len(pre) && model.SameText(w1[i], pre[i]) {
		i++
	}
	for i+j < len(w1) && i+j < len(pre) && model.SameText(w1[len(w1)-1-j], pre[len(pre)-1-j]) {
		j++
	}
	return i, j
}
