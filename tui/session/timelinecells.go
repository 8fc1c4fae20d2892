package session

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// TimelineCells is what the timeline's cells show but the ▲ of the call
// on screen: worked out once per replay and width, so that a step costs
// the cells, not every call's window.
type TimelineCells struct {
	Replay       *window.Replay
	Calls, Cells int
	MaxChars     int
	// scaleTok is the token row's full block: the largest input, or
	// thresholdTokens under a token budget (budget) when calls were
	// counted (counted: some call has a token count); windowless: no
	// call has a window the screen can size
	ScaleTok                    int
	Counted, Budget, Windowless bool
	Chars, Toks                 []int
	Over                        []bool
	// noWindow: no call of the cell has a window the screen can size (a
	// composition's own, §15.5); noTokens: none has a token count (no
	// llm_end: tier minimal, a call that failed or is under way)
	NoWindow, NoTokens []bool
	Marks              []string
	MarkStyleIndex     []int // 0 Dim, 1 Differs, 2 Label, 3 Evicted
	Folds, Drops       bool  // some call folded turns into a summary (Σ), dropped some (×)
}

// MakeTimelineCells is what w cells show of rp's calls, in one pass over
// the calls.
func MakeTimelineCells(rp *window.Replay, w int) TimelineCells {
	n := len(rp.Calls)
	m := TimelineCells{Replay: rp, Calls: n, Cells: w,
		Chars: make([]int, w), Toks: make([]int, w), Over: make([]bool, w),
		NoWindow: make([]bool, w), NoTokens: make([]bool, w),
		Marks: make([]string, w), MarkStyleIndex: make([]int, w)}
	th := rp.Policy.ThresholdTokens
	budget := rp.Policy.Strategy == model.TokenBudget && th > 0
	maxTok, counted := 0, false
	for j := range w {
		from, to := BucketOf(j, n, w)
		mark, ms := "·", 0
		m.NoWindow[j], m.NoTokens[j] = true, true
		for i := from; i < to; i++ {
			cr := &rp.Calls[i]
			m.Chars[j] = max(m.Chars[j], cr.WindowChars())
			m.NoWindow[j] = m.NoWindow[j] && provenance.Unjudged(cr)
			m.NoTokens[j] = m.NoTokens[j] && !cr.Call.Ended
			counted = counted || cr.Call.Ended
			in := cr.Call.Usage.Input
			m.Toks[j] = max(m.Toks[j], in)
			m.Over[j] = m.Over[j] || budget && in > th
			switch {
			case mark == "≠":
			case cr.Recorded() == window.Differs:
				mark, ms = "≠", 1
			case mark == "│":
			case i > 0 && cr.Run != rp.Calls[i-1].Run:
				mark, ms = "│", 2
			case mark == "×":
			case len(cr.Visit.Evicted) > 0 && cr.Visit.Frame == nil:
				mark, ms = "×", 3
				m.Drops = true
			case len(cr.Visit.Evicted) > 0:
				mark, ms = "Σ", 3 // folded into a summary frame, not dropped
				m.Folds = true
			}
		}
		m.Marks[j], m.MarkStyleIndex[j] = mark, ms
		m.MaxChars, maxTok = max(m.MaxChars, m.Chars[j]), max(maxTok, m.Toks[j])
	}
	m.ScaleTok, m.Counted, m.Budget, m.Windowless = maxTok, counted, budget, !slices.Contains(m.NoWindow, false)
	if counted && budget {
		m.ScaleTok = th
	}
	return m
}

// BucketOf is the calls [from, to) of n that cell j of w shows.
func BucketOf(j, n, w int) (from, to int) { return j * n / w, max(j*n/w+1, (j+1)*n/w) }
