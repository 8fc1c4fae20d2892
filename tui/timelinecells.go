package tui

import (
	"slices"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/window"
)

// timelineCells is what the timeline's cells show but the ▲ of the call
// on screen: worked out once per replay and width, so that a step costs
// the cells, not every call's window.
type timelineCells struct {
	replay       *window.Replay
	calls, cells int
	maxChars     int
	// scaleTok is the token row's full block: the largest input, or
	// thresholdTokens under a token budget (budget) when calls were
	// counted (counted: some call has a token count); windowless: no
	// call has a window the screen can size
	scaleTok                    int
	counted, budget, windowless bool
	chars, toks                 []int
	over                        []bool
	// noWindow: no call of the cell has a window the screen can size (a
	// composition's own, §15.5); noTokens: none has a token count (no
	// llm_end: tier minimal, a call that failed or is under way)
	noWindow, noTokens []bool
	marks              []string
	markStyleIndex     []int // 0 Dim, 1 Differs, 2 Label, 3 Evicted
	folds, drops       bool  // some call folded turns into a summary (Σ), dropped some (×)
}

// makeTimelineCells is what w cells show of rp's calls, in one pass over
// the calls.
func makeTimelineCells(rp *window.Replay, w int) timelineCells {
	n := len(rp.Calls)
	m := timelineCells{replay: rp, calls: n, cells: w,
		chars: make([]int, w), toks: make([]int, w), over: make([]bool, w),
		noWindow: make([]bool, w), noTokens: make([]bool, w),
		marks: make([]string, w), markStyleIndex: make([]int, w)}
	th := rp.Policy.ThresholdTokens
	budget := rp.Policy.Strategy == model.TokenBudget && th > 0
	maxTok, counted := 0, false
	for j := range w {
		from, to := bucketOf(j, n, w)
		mark, ms := "·", 0
		m.noWindow[j], m.noTokens[j] = true, true
		for i := from; i < to; i++ {
			cr := &rp.Calls[i]
			m.chars[j] = max(m.chars[j], cr.WindowChars())
			m.noWindow[j] = m.noWindow[j] && provenance.Unjudged(cr)
			m.noTokens[j] = m.noTokens[j] && !cr.Call.Ended
			counted = counted || cr.Call.Ended
			in := cr.Call.Usage.Input
			m.toks[j] = max(m.toks[j], in)
			m.over[j] = m.over[j] || budget && in > th
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
				m.drops = true
			case len(cr.Visit.Evicted) > 0:
				mark, ms = "Σ", 3 // folded into a summary frame, not dropped
				m.folds = true
			}
		}
		m.marks[j], m.markStyleIndex[j] = mark, ms
		m.maxChars, maxTok = max(m.maxChars, m.chars[j]), max(maxTok, m.toks[j])
	}
	m.scaleTok, m.counted, m.budget, m.windowless = maxTok, counted, budget, !slices.Contains(m.noWindow, false)
	if counted && budget {
		m.scaleTok = th
	}
	return m
}

// bucketOf is the calls [from, to) of n that cell j of w shows.
func bucketOf(j, n, w int) (from, to int) { return j * n / w, max(j*n/w+1, (j+1)*n/w) }
