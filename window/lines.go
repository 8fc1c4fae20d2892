package window

import (
	"maps"
	"slices"

	"github.com/afinspect/inspect/model"
)

// A conversation branches when two runs continue the same run
// (docs/rules/runs-and-conversations.md §10.7, §10.8): each carries that run's history, and
// each evicts its turns at its own calls. What a ledger shows at a call
// is that call's own chain — the run it belongs to and the runs it
// continues, up to the call it continues — never a sibling branch's
// turns or evictions (nor does the evidence's, provenance/lines.go). So
// calls are put on lines: a conversation's calls from its first on, until
// a call continues one that another call already continued; that call
// starts a line of its own. Where no line branches (nearly always) the
// replay's one turn log is every call's; where one does, each line has
// a turn log of its own chain, built the same way, and its calls'
// ledgers read that one.

// Lines are the calls of a replay put on lines, as above. The ledger's
// turn logs and the evidence's lives of messages (provenance) both read
// a call's own chain from them.
type Lines struct {
	of    []int // each call's line
	lines []line
	roots map[int]int // each conversation's first line
}

// line is a stretch of calls of one run chain.
type line struct {
	parent, fork int // the line it branched from and the call it continues there; -1, -1 for a conversation's first
	tip          int // its latest call so far
}

// NewLines are lines for a replay of calls calls, none joined yet.
func NewLines(calls int) *Lines {
	return &Lines{of: make([]int, calls), roots: map[int]int{}}
}

// Join puts call i of conversation conv on a line: its predecessor's
// (pred, -1 for none) when it is that line's latest call, else a line
// branching there; with none, the conversation's first line. It reports
// whether the call starts a branch.
func (ls *Lines) Join(i, pred, conv int) (branch bool) {
	n, ok := ls.roots[conv]
	switch {
	case pred >= 0 && ls.lines[ls.of[pred]].tip == pred:
		n = ls.of[pred]
	case pred >= 0:
		n = len(ls.lines)
		ls.lines = append(ls.lines, line{parent: ls.of[pred], fork: pred})
		branch = true
	case !ok:
		n = len(ls.lines)
		ls.lines = append(ls.lines, line{parent: -1, fork: -1})
		ls.roots[conv] = n
	}
	ls.of[i], ls.lines[n].tip = n, i
	return branch
}

// Of is call i's line.
func (ls *Lines) Of(i int) int { return ls.of[i] }

// Fork is the line that line n branched from and the call it continues
// there; -1, -1 for a conversation's first line.
func (ls *Lines) Fork(n int) (parent, call int) { return ls.lines[n].parent, ls.lines[n].fork }

// Grown is a copy of ls for a replay of calls calls whose first calls
// are ls's: joining the others changes nothing of ls.
func (ls *Lines) Grown(calls int) *Lines {
	of := make([]int, calls)
	copy(of, ls.of)
	return &Lines{of: of, lines: slices.Clone(ls.lines), roots: maps.Clone(ls.roots)}
}

// turnLines is each call of a replay on its line.
type turnLines struct {
	*Lines
	pred     []int // each call's predecessor on its chain; -1 for none
	branched bool  // some line branches from another
}

// linesOf puts every call of r on its line, after its predecessor
// (Preds).
// With one run (a long run, nearly always) there is one line, and no
// call needs its line looked up: nothing is kept per call.
func linesOf(r *Replay) *turnLines {
	if r.oneRun || oneRun(r.Calls) {
		return &turnLines{}
	}
	ls := &turnLines{Lines: NewLines(len(r.Calls)), pred: r.Preds()}
	for i := range r.Calls {
		if ls.Join(i, ls.pred[i], r.Calls[i].Conversation) {
			ls.branched = true
		}
	}
	return ls
}

// Preds is each call's predecessor on its run chain (-1 for none): the
// call before it of its run, or for a run's first call the latest call
// so far of the run it continues — for a run resumeOnError() started
// after a failure, the call whose history it starts from, not the failed
// call after it (docs/rules/evidence.md §9.6). Every reader of a run chain —
// the ledger's lines, the evidence's messages gone — follows these.
func (r *Replay) Preds() []int {
	pred := make([]int, len(r.Calls))
	last := map[*model.Run]int{} // a run's latest call, written when the next call is another run's
	var at map[*model.Call]int   // where the calls resumed from are
	for i := range r.Calls {
		if c := r.Calls[i].resumes; c != nil {
			if at == nil {
				at = map[*model.Call]int{}
			}
			at[c] = -1
		}
	}
	for i := range r.Calls {
		c := &r.Calls[i]
		if _, ok := at[c.Call]; ok {
			at[c.Call] = i
		}
		pred[i] = -1
		switch {
		case i > 0 && r.Calls[i-1].Run == c.Run:
			pred[i] = i - 1
		default:
			if i > 0 {
				last[r.Calls[i-1].Run] = i - 1
			}
			if j, ok := last[c.Run]; ok {
				pred[i] = j
			} else if j, ok := at[c.resumes]; ok && c.resumes != nil && j >= 0 {
				pred[i] = j
			} else if j, ok := last[c.continues]; ok && c.continues != nil {
				pred[i] = j
			}
		}
	}
	return pred
}

// oneRun: every call is of one run.
func oneRun(calls []CallReplay) bool {
	for i := range calls {
		if calls[i].Run != calls[0].Run {
			return false
		}
	}
	return true
}

// chains is each line's chain: the calls of the lines it branched from,
// up to the call it continues, then its own, in order.
func (ls *turnLines) chains() [][]int {
	own := make([][]int, len(ls.lines))
	for i, n := range ls.of {
		own[n] = append(own[n], i)
	}
	out := make([][]int, len(ls.lines))
	for n, l := range ls.lines { // a line's parent is an earlier line
		if l.parent < 0 {
			out[n] = own[n]
			continue
		}
		up := out[l.parent]
		cut, _ := slices.BinarySearch(up, l.fork+1)
		out[n] = append(slices.Clip(up[:cut]), own[n]...)
	}
	return out
}

// lineViews is, for each line, r with that line's chain's turn log.
func (r *Replay) lineViews() []*Replay {
	chains := r.lines.chains()
	views := make([]*Replay, len(chains))
	for n, ch := range chains {
		v := &Replay{Policy: r.Policy, Policies: r.Policies, Rules: r.Rules, Lineage: r.Lineage, Calls: r.Calls, Problems: r.Problems, lines: r.lines}
		v.logOnce.Do(func() { v.log, v.places, v.begun = v.buildLog(ch) })
		views[n] = v
	}
	return views
}

// on is the replay whose turn log tells call's chain: r itself unless the
// conversation branches.
func (r *Replay) on(call int) *Replay {
	r.turnLog()
	if r.views == nil || call < 0 || call >= len(r.Calls) {
		return r
	}
	return r.views[r.lines.of[call]]
}

// LastOn is the latest call of call's chain: the replay's last call
// unless the conversation branches.
func (r *Replay) LastOn(call int) int {
	r.turnLog()
	if r.views == nil || call < 0 || call >= len(r.Calls) {
		return len(r.Calls) - 1
	}
	return r.lines.lines[r.lines.of[call]].tip
}

// TurnAt is TurnOf as call's chain tells the turn: where the conversation
// branches, the calls and the eviction of that chain, never a sibling's.
func (r *Replay) TurnAt(k string, call int) (row *Row, ok bool) {
	return r.on(call).TurnOf(k)
}

// Branches says whether the conversation branches: some call's chain
// is not the replay's whole (its Story tells every chain at once).
func (r *Replay) Branches() bool {
	r.turnLog()
	return r.views != nil
}
