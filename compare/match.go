package compare

import (
	"slices"
	"sort"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// matches are the places of a and b whose names are matched, in order of
// both: the calls one side made as the other did. go-udiff's lcs alone
// bounds its search (a Myers diff cut at 50 differences), and two runs far
// apart — hundreds of calls one side made alone, all over — come out of
// it paired wrong; so the names that occur once on each side are matched
// first (the longest run of them in the same order, as a patience diff
// does), and lcs only matches what lies between two of them. Time about
// n log n where the calls are named apart, memory linear.
func matches(a, b []rune) [][2]int {
	var out [][2]int
	matchInto(a, b, 0, 0, &out)
	return out
}

func matchInto(a, b []rune, offA, offB int, out *[][2]int) {
	// the same head and the same tail match as they are
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		*out = append(*out, [2]int{offA + head, offB + head})
		head++
	}
	a, b, offA, offB = a[head:], b[head:], offA+head, offB+head
	tail := 0
	for tail < len(a) && tail < len(b) && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	matchMiddle(a[:len(a)-tail], b[:len(b)-tail], offA, offB, out)
	for k := tail; k > 0; k-- {
		*out = append(*out, [2]int{offA + len(a) - k, offB + len(b) - k})
	}
}

// matchMiddle matches a and b, whose heads and tails differ.
func matchMiddle(a, b []rune, offA, offB int, out *[][2]int) {
	if len(a) == 0 || len(b) == 0 {
		return
	}
	anchors := unique(a, b)
	if len(anchors) == 0 {
		x, y := 0, 0
		for _, d := range lcs.DiffRunes(a, b) {
			for x < d.Start && y < d.ReplStart {
				*out = append(*out, [2]int{offA + x, offB + y})
				x, y = x+1, y+1
			}
			x, y = d.End, d.ReplEnd
		}
		for x < len(a) && y < len(b) {
			*out = append(*out, [2]int{offA + x, offB + y})
			x, y = x+1, y+1
		}
		return
	}
	x, y := 0, 0
	for _, an := range anchors {
		matchInto(a[x:an[0]], b[y:an[1]], offA+x, offB+y, out)
		*out = append(*out, [2]int{offA + an[0], offB + an[1]})
		x, y = an[0]+1, an[1]+1
	}
	matchInto(a[x:], b[y:], offA+x, offB+y, out)
}

// unique are the places of the names that occur once in a and once in b,
// the longest run of them in the same order on both sides.
func unique(a, b []rune) [][2]int {
	type seen struct{ na, nb, ia, ib int }
	count := map[rune]*seen{}
	for i, r := range a {
		s := count[r]
		if s == nil {
			s = &seen{}
			count[r] = s
		}
		s.na++
		s.ia = i
	}
	for i, r := range b {
		if s := count[r]; s != nil {
			s.nb++
			s.ib = i
		}
	}
	var cand [][2]int
	for _, s := range count {
		if s.na == 1 && s.nb == 1 {
			cand = append(cand, [2]int{s.ia, s.ib})
		}
	}
	slices.SortFunc(cand, func(x, y [2]int) int { return x[0] - y[0] })
	// the longest increasing run of b's places (patience sorting)
	var tops []int // tops[k]: the candidate ending the best run of length k+1
	prev := make([]int, len(cand))
	for k, c := range cand {
		at := sort.Search(len(tops), func(i int) bool { return cand[tops[i]][1] >= c[1] })
		if at > 0 {
			prev[k] = tops[at-1]
		} else {
			prev[k] = -1
		}
		if at == len(tops) {
			tops = append(tops, k)
		} else {
			tops[at] = k
		}
	}
	if len(tops) == 0 {
		return nil
	}
	run := make([][2]int, len(tops))
	for k, i := len(tops)-1, tops[len(tops)-1]; k >= 0; k, i = k-1, prev[i] {
		run[k] = cand[i]
	}
	return run
}
