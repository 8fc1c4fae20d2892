package evidence

import (
	"unicode/utf8"

	"github.com/afinspect/inspect/model"
)

// MaxNear is the largest distance at which a value only a summary holds
// names the nearest form a tool result held (§9.3): a digit swapped, one
// typed wrong, one too many or too few, twice at most.
const MaxNear = 2

// NearForm is the form of tool result m, indexed as Hold indexes it (its
// whole content, then its own bytes), at the smallest optimal string
// alignment distance from the normalized value v, when that distance is
// at most MaxNear; on a tie the first in the order §3 adds the forms.
// ok is false when no form is that near.
func NearForm(v string, m *model.Message, view View) (form string, dist int, ok bool) {
	x := NewIndex()
	x.ordered = true
	x.AddToolResult(m.Content)
	if own := view.own(m); own != m.Content {
		x.AddToolResult(own)
	}
	dist = MaxNear + 1
	for _, f := range x.order {
		if d := osaDistance(v, f, MaxNear); d < dist {
			form, dist = f, d
		}
	}
	return form, dist, dist <= MaxNear
}

// osaDistance is the optimal string alignment distance between a and b
// (insert, delete or substitute a character, or swap two adjacent ones:
// one each; no substring edited twice), or k+1 when it is more than k.
// Characters are code points.
func osaDistance(a, b string, k int) int {
	if ascii(a) && ascii(b) {
		return osaBand([]byte(a), []byte(b), k)
	}
	if abs(utf8.RuneCountInString(a)-utf8.RuneCountInString(b)) > k {
		return k + 1
	}
	return osaBand([]rune(a), []rune(b), k)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// osaBand fills only the cells within k of the diagonal: a path that
// leaves the band costs more than k. Time and space are linear in the
// strings' lengths.
func osaBand[E comparable](a, b []E, k int) int {
	if abs(len(a)-len(b)) > k {
		return k + 1
	}
	w, inf := 2*k+1, k+1
	// row i holds cell (i, j) at j-i+k
	rows := [3][]int{make([]int, w), make([]int, w), make([]int, w)}
	at := func(row []int, i, j int) int {
		if j < 0 || j > len(b) || j-i > k || i-j > k {
			return inf
		}
		return row[j-i+k]
	}
	for j := range rows[1] {
		rows[1][j] = inf
	}
	for j := 0; j <= min(k, len(b)); j++ {
		rows[1][j+k] = j
	}
	for i := 1; i <= len(a); i++ {
		prev2, prev, cur := rows[0], rows[1], rows[2]
		for x := range cur {
			cur[x] = inf
		}
		for j := max(0, i-k); j <= min(len(b), i+k); j++ {
			if j == 0 {
				cur[j-i+k] = min(i, inf)
				continue
			}
			sub := 1
			if a[i-1] == b[j-1] {
				sub = 0
			}
			d := min(at(prev, i-1, j)+1, at(cur, i, j-1)+1, at(prev, i-1, j-1)+sub)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, at(prev2, i-2, j-2)+1)
			}
			cur[j-i+k] = min(d, inf)
		}
		rows[0], rows[1], rows[2] = prev, cur, prev2
	}
	return at(rows[1], len(a), len(b))
}
