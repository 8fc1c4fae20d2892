package picker

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/afinspect/inspect/tui/session"

	"github.com/sahilm/fuzzy"

	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
)

// The picker's filter (/ inside w): what is typed is matched fuzzily, as
// fzf and k9s do, against each conversation's words (its agent's key,
// "conversation N", its pass) and each run's (its id, its step). A
// conversation is listed when its words match, with all its runs; or
// when some of its runs match, with those runs. The best matches come
// first, as in fzf (a match of the letters in one stretch beats one of
// letters scattered), ties in the file's order, so an agent whose key was
// typed whole has its conversations together at the top. Exact ids are
// what the main screen's / searches; here a few letters suffice.
//
// A letter typed onto a pattern can only narrow what it matched, so the
// matches of each pattern typed are kept and the next letter searches
// those only (backspace finds its pattern kept): at 20,000 conversations
// only the first letter reads every text.

// filterWords are the texts the filter matches: one per conversation,
// and one per run with the row it stands for; and the matches of the
// patterns typed so far. Made on the first filter.
type filterWords struct {
	convs []string
	runs  []string
	runAt []session.PickRow
	kept  map[string]*filterHits
}

// filterHits are a pattern's matches: indices in convs and in runs, each
// with its score.
type filterHits struct {
	convs, runs []fuzzy.Match
}

// subset is a fuzzy.Source over some of a list's texts.
type subset struct {
	all []string
	at  []fuzzy.Match // nil: every text
}

func (s subset) String(i int) string {
	if s.at == nil {
		return s.all[i]
	}
	return s.all[s.at[i].Index]
}

func (s subset) Len() int {
	if s.at == nil {
		return len(s.all)
	}
	return len(s.at)
}

// find matches pattern against the texts of s, indices into s.all.
func (s subset) find(pattern string) []fuzzy.Match {
	ms := fuzzy.FindFromNoSort(pattern, s)
	if s.at != nil {
		for i := range ms {
			ms[i].Index = s.at[ms[i].Index].Index
		}
	}
	for i := range ms {
		ms[i].MatchedIndexes = nil // the screen does not mark letters: let them go
	}
	return ms
}

// filterWords makes (once per views) the texts the filter matches.
func (p *Picker) filterWords() *filterWords {
	vs := p.vs
	if p.wordsOf == vs.All && p.words != nil {
		return p.words
	}
	fw := &filterWords{convs: make([]string, len(vs.Convs)), kept: map[string]*filterHits{}}
	for i, cv := range vs.Convs {
		what := fmt.Sprintf("conversation %d", cv.Number)
		if cv.Composition {
			what = present.CompositionWords(cv.Agent) + " its own calls"
		}
		fw.convs[i] = termtext.Line(cv.Agent.Key) + " " + what + vs.PassOf(cv)
		for r, run := range cv.Runs {
			w := "run " + termtext.Line(run.Run.RunID)
			if run.Run.Step != "" {
				w += " " + present.StepWords(run.Run.Agent, run.Run.Step)
			}
			fw.runs = append(fw.runs, w)
			fw.runAt = append(fw.runAt, session.PickRow{Kind: session.RunRow, Conv: i, Run: r})
		}
	}
	p.words, p.wordsOf = fw, vs.All
	return fw
}

// hits are pattern's matches, from the matches of the longest pattern
// kept that it extends (every text when none is).
func (fw *filterWords) hits(pattern string) *filterHits {
	if h, ok := fw.kept[pattern]; ok {
		return h
	}
	convs, runs := subset{all: fw.convs}, subset{all: fw.runs}
	for p := pattern; p != ""; {
		_, size := utf8.DecodeLastRuneInString(p)
		if p = p[:len(p)-size]; p == "" {
			break
		}
		if h, ok := fw.kept[p]; ok {
			convs.at, runs.at = h.convs, h.runs
			break
		}
	}
	h := &filterHits{convs: convs.find(pattern), runs: runs.find(pattern)}
	if h.convs == nil {
		h.convs = []fuzzy.Match{} // none (nil in a subset would be every text)
	}
	if h.runs == nil {
		h.runs = []fuzzy.Match{}
	}
	if len(fw.kept) > 64 {
		clear(fw.kept) // patterns typed long ago: made again if typed again
	}
	fw.kept[pattern] = h
	return h
}

// filterRows are the rows pattern matches, the best first.
func (p *Picker) filterRows(pattern string) *session.RowIndex {
	vs, fw := p.vs, p.filterWords()
	h := fw.hits(pattern)
	score := make([]int, len(vs.Convs)) // of each conversation matched, its best match's
	matched := make([]bool, len(vs.Convs))
	whole := make([]bool, len(vs.Convs))
	for _, mt := range h.convs {
		whole[mt.Index], matched[mt.Index], score[mt.Index] = true, true, mt.Score
	}
	some := map[int][]int{} // conversation → its runs matched
	for _, mt := range h.runs {
		r := fw.runAt[mt.Index]
		if !matched[r.Conv] || mt.Score > score[r.Conv] {
			score[r.Conv] = mt.Score
		}
		matched[r.Conv] = true
		if !whole[r.Conv] {
			some[r.Conv] = append(some[r.Conv], r.Run)
		}
	}
	order := make([]int, 0, len(h.convs)+len(some))
	for i, ok := range matched {
		if ok {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return score[b] - score[a] })
	x := &session.RowIndex{Rows: make([]session.PickRow, 0, 3*len(order)+len(h.runs)), Order: make([]int, 0, len(order)), Conv: make([]int, 0, len(order))}
	for _, i := range order {
		if runs := some[i]; !whole[i] {
			slices.Sort(runs)
			x.Add(vs, i, slices.Values(runs))
			continue
		}
		x.Add(vs, i, func(yield func(int) bool) {
			for r := range vs.Convs[i].Runs {
				if !yield(r) {
					return
				}
			}
		})
	}
	return x
}
