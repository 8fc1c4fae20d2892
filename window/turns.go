package window

import "github.com/afinspect/inspect/model"

// Segment cuts a window into turns: every non-tool message starts a turn,
// a tool message joins the turn in progress (or starts one when none is).
func Segment(w []*model.Message) []model.Turn {
	turns := make([]model.Turn, countTurns(w))
	segmentInto(turns, w)
	return turns
}

// segmentInto fills turns, which has countTurns(w) elements.
func segmentInto(turns []model.Turn, w []*model.Message) {
	n := 0
	for i, m := range w {
		if m.Role == model.RoleTool && n > 0 {
			turns[n-1].Length++
			continue
		}
		turns[n] = model.Turn{Index: n, Start: i, Length: 1}
		n++
	}
}

// turnOf returns the index of the turn holding message index mi, or -1.
func turnOf(turns []model.Turn, mi int) int {
	if mi < 0 {
		return -1
	}
	for _, t := range turns {
		if mi >= t.Start && mi < t.Start+t.Length {
			return t.Index
		}
	}
	return -1
}

func chars(w []*model.Message) int { return model.WindowChars(w) }

// countTurns is len(Segment(w)) without building the turns.
func countTurns(w []*model.Message) int {
	n := 0
	for i, m := range w {
		if m.Role != model.RoleTool || i == 0 {
			n++
		}
	}
	return n
}
