package tui

import (
	"sync/atomic"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// judgement is what judging every call of a replay found: which calls
// have a flagged value, and for each source message the calls
// that used a value of it while it was out of view.
type judgement struct {
	flags []bool // the call's answer holds a flagged value (x, X)
	args  []bool // its tool calls' arguments do (x, X with arguments)
	used  map[*model.Message][]int
	// counts is each call's flagged values, the answer's and the
	// arguments' apart: what the header and the response row show, so
	// that a frame never judges a call itself (a 6.7 MB result in the
	// window takes seconds)
	counts []provenance.CallTally
}

// judgeAll judges calls 0..n-1 of a book.
func judgeAll(b *provenance.Book, n int) judgement {
	j, _ := judgeUntil(b, n, nil)
	return j
}

// judgeUntil is judgeAll, which gives up (false) as soon as stop says so.
func judgeUntil(b *provenance.Book, n int, stop *atomic.Bool) (judgement, bool) {
	j := judgement{flags: make([]bool, n), args: make([]bool, n), used: map[*model.Message][]int{}, counts: make([]provenance.CallTally, n)}
	if !judgeInto(&j, b, 0, n, stop) {
		return judgement{}, false
	}
	return j, true
}

// judgeInto judges calls from..n-1 of b into j; false when stop said
// to give up first.
func judgeInto(j *judgement, b *provenance.Book, from, n int, stop *atomic.Bool) bool {
	for i := from; i < n; i++ {
		if stop != nil && stop.Load() {
			return false
		}
		ce := b.Call(i)
		t := provenance.TallyOf(ce)
		j.flags[i], j.args[i], j.counts[i] = t.Answer.Total() > 0, t.Args.Total() > 0, t
		if ce == nil {
			continue
		}
		for _, e := range ce.Values {
			if e.Own() != evidence.Left {
				continue
			}
			for _, src := range e.OwnSources() {
				m := src.Message()
				if us := j.used[m]; len(us) == 0 || us[len(us)-1] != i {
					j.used[m] = append(us, i)
				}
			}
		}
	}
	return true
}

// usedOutOfView is the calls that used a value of m while m was out of
// view; false while the replay on screen is still being judged (a small
// recording is judged at once; a larger one's strip is drawn again when
// judgeCmd answers).
func (s *session) usedOutOfView(m *model.Message) ([]int, bool) {
	if s == nil || s.book == nil {
		return nil, false
	}
	j, ok := s.judgements[s.book]
	if !ok && s.smallToJudge() && s.lent != s.book {
		s.file(s.book, judgeAll(s.book, s.calls()))
		j, ok = s.judgements[s.book], true
	}
	return j.used[m], ok
}

// judgeLimit is how many characters of windows are judged at once on the
// UI goroutine when the background pass has not answered yet (a few
// milliseconds' work: the tokenizer reads some 100 M chars a second).
const judgeLimit = 2_000_000

// smallToJudge reports whether every call of the replay on screen can be
// judged at once: few calls, and windows small enough in all.
func (s *session) smallToJudge() bool {
	if s.calls() > smallJudge {
		return false
	}
	n := 0
	for i := range s.replay.Calls {
		if n += model.WindowChars(s.replay.Calls[i].Window()); n > judgeLimit {
			return false
		}
	}
	return true
}
