package session

import (
	"sync/atomic"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// Judgement is what judging every call of a replay found: which calls
// have a flagged value, and for each source message the calls
// that used a value of it while it was out of view.
type Judgement struct {
	Flags []bool // the call's answer holds a flagged value (x, X)
	args  []bool // its tool calls' arguments do (x, X with arguments)
	Used  map[*model.Message][]int
	// counts is each call's flagged values, the answer's and the
	// arguments' apart: what the header and the response row show, so
	// that a frame never judges a call itself (a 6.7 MB result in the
	// window takes seconds)
	Counts []provenance.CallTally
}

// JudgeAll judges calls 0..n-1 of a book.
func JudgeAll(b *provenance.Book, n int) Judgement {
	j, _ := JudgeUntil(b, n, nil)
	return j
}

// JudgeUntil is judgeAll, which gives up (false) as soon as stop says so.
func JudgeUntil(b *provenance.Book, n int, stop *atomic.Bool) (Judgement, bool) {
	j := Judgement{Flags: make([]bool, n), args: make([]bool, n), Used: map[*model.Message][]int{}, Counts: make([]provenance.CallTally, n)}
	if !judgeInto(&j, b, 0, n, stop) {
		return Judgement{}, false
	}
	return j, true
}

// judgeInto judges calls from..n-1 of b into j; false when stop said
// to give up first.
func judgeInto(j *Judgement, b *provenance.Book, from, n int, stop *atomic.Bool) bool {
	for i := from; i < n; i++ {
		if stop != nil && stop.Load() {
			return false
		}
		ce := b.Call(i)
		t := provenance.TallyOf(ce)
		j.Flags[i], j.args[i], j.Counts[i] = t.Answer.Total() > 0, t.Args.Total() > 0, t
		if ce == nil {
			continue
		}
		for _, e := range ce.Values {
			if e.Own() != evidence.Left {
				continue
			}
			for _, src := range e.OwnSources() {
				m := src.Message()
				if us := j.Used[m]; len(us) == 0 || us[len(us)-1] != i {
					j.Used[m] = append(us, i)
				}
			}
		}
	}
	return true
}

// UsedOutOfView is the calls that used a value of m while m was out of
// view; false while the replay on screen is still being judged (a small
// recording is judged at once; a larger one's strip is drawn again when
// judgeCmd answers).
func (s *Session) UsedOutOfView(m *model.Message) ([]int, bool) {
	if s == nil || s.Book == nil {
		return nil, false
	}
	j, ok := s.Judgements[s.Book]
	if !ok && s.SmallToJudge() && s.Lent != s.Book {
		s.File(s.Book, JudgeAll(s.Book, s.Calls()))
		j, ok = s.Judgements[s.Book], true
	}
	return j.Used[m], ok
}

// judgeLimit is how many characters of windows are judged at once on the
// UI goroutine when the background pass has not answered yet (a few
// milliseconds' work: the tokenizer reads some 100 M chars a second).
const judgeLimit = 2_000_000

// SmallToJudge reports whether every call of the replay on screen can be
// judged at once: few calls, and windows small enough in all.
func (s *Session) SmallToJudge() bool {
	if s.Calls() > smallJudge {
		return false
	}
	n := 0
	for i := range s.Replay.Calls {
		if n += model.WindowChars(s.Replay.Calls[i].Window()); n > judgeLimit {
			return false
		}
	}
	return true
}
