package session

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// The "what would have kept it" search (K applies what it found): for
// each value of the call on screen that left the window, the smallest
// change of its agent's policy under which a source of it is in view on
// that call — advise's Searcher, over a sweep of the conversation on
// screen, off the UI goroutine.

// What the search for a value found.
const (
	SugPending = iota // not answered yet
	SugFound
	SugNone
)

// Suggestions are the search's answers for the replay on screen: by
// call, then by value.
type Suggestions struct {
	Gen     int // the replay they were asked for (Model.gen)
	Answers map[int]map[string]*advise.Suggestion
	Search  *advise.Searcher // the last search started, given up when the replay changes
	// keepsAll names the advisor's policy that keeps every value of the
	// agent on screen in view, when the advisor has found one ("" else):
	// a value no nearby policy keeps says that one does (it is further)
	KeepsAll string
	Costs    map[model.Policy]advise.Cost // what each policy found costs (K says it)
}

func (k Suggestions) Of(call int, value string) (advise.Suggestion, int) {
	vs, ok := k.Answers[call]
	if !ok {
		return advise.Suggestion{}, SugPending
	}
	if sug := vs[value]; sug != nil {
		return *sug, SugFound
	}
	return advise.Suggestion{}, SugNone
}

// SuggestedMsg is sent by suggestCmd with the suggestions for one call's
// values that left; gen names the replay they were worked out on.
type SuggestedMsg struct {
	Gen   int
	Call  int
	Sugs  map[string]*advise.Suggestion
	Costs map[model.Policy]advise.Cost // what each policy found costs
}

// SuggestCmd searches nearby policies, by replay, for each value of call
// i that left the window: slow (a replay per policy tried), so off the
// UI goroutine. It reads the searcher it is given and nothing else of
// the session.
func SuggestCmd(gen int, search *advise.Searcher, rec *model.Recording, agent string, vals []provenance.Entry, i int) tea.Cmd {
	return func() tea.Msg {
		sugs := map[string]*advise.Suggestion{}
		costs := map[model.Policy]advise.Cost{}
		for _, e := range vals {
			if sug, ok := search.Keep(i, e); ok {
				sugs[e.Value] = &sug
				if _, done := costs[sug.Policy]; !done {
					if c, ok := search.CostOf(rec, agent, sug.Policy); ok {
						costs[sug.Policy] = c
					}
				}
			}
		}
		return SuggestedMsg{Gen: gen, Call: i, Sugs: sugs, Costs: costs}
	}
}

// NewSearcher is the "what would have kept it" search over the replay on
// screen: one sweep serves every call of it.
func (s *Session) NewSearcher() *advise.Searcher { return advise.ViewSearcher(s.View, s.Replay) }
