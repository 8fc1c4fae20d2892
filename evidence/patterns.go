package evidence

import "github.com/afinspect/inspect/internal/jsonlex"

// The whole-string patterns of §1 and §2, written as small matchers rather
// than regular expressions: each reads its pattern in the comment above it,
// and like JavaScript's ^…$ it must match the whole string.

// numberPrefix matches [-+]?\d+(\.\d+)? at the start of s (the optional
// sign when sign is true) and returns where it ends, or -1.
func numberPrefix(s string, sign bool) int {
	i := 0
	if sign && i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	j := jsonlex.Digits(s, i)
	if j == i {
		return -1
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j = jsonlex.Digits(s, j+1)
	}
	return j
}

// isPlainNumber: [-+]?\d+(\.\d+)?
func isPlainNumber(s string) bool { return numberPrefix(s, true) == len(s) }

// isGrouped: -?\d{1,3}(,\d{3})+(\.\d+)?
func isGrouped(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := jsonlex.Digits(s, i)
	if j == i || j-i > 3 {
		return false
	}
	groups := 0
	for j < len(s) && s[j] == ',' {
		k := jsonlex.Digits(s, j+1)
		if k-(j+1) != 3 {
			return false
		}
		j, groups = k, groups+1
	}
	if groups == 0 {
		return false
	}
	if j == len(s) {
		return true
	}
	if s[j] != '.' {
		return false
	}
	k := jsonlex.Digits(s, j+1)
	return k > j+1 && k == len(s)
}

// isRatio: \d{1,2}/\d{1,2}
func isRatio(s string) bool {
	j := jsonlex.Digits(s, 0)
	if j == 0 || j > 2 || j >= len(s) || s[j] != '/' {
		return false
	}
	k := jsonlex.Digits(s, j+1)
	return k-(j+1) >= 1 && k-(j+1) <= 2 && k == len(s)
}

// shortTail: ([-+]?\d+(\.\d+)?)[-/]?[a-z]{1,5}(/[a-z]{1,5})? — it returns
// group 1 and whether s matched. Backtracking cannot change the answer: the
// number is followed by a letter, '-' or '/', none of which it can end in,
// except that (\.\d+)? may give back nothing useful (a '.' is not a tail).
func shortTail(s string) (string, bool) {
	n := numberPrefix(s, true)
	if n < 0 {
		return "", false
	}
	num := s[:n]
	i := n
	if i < len(s) && (s[i] == '-' || s[i] == '/') {
		i++
	}
	j := lettersAt(s, i)
	if j-i < 1 || j-i > 5 {
		return "", false
	}
	if j == len(s) {
		return num, true
	}
	if s[j] != '/' {
		return "", false
	}
	k := lettersAt(s, j+1)
	if k-(j+1) < 1 || k-(j+1) > 5 || k != len(s) {
		return "", false
	}
	return num, true
}

func lettersAt(s string, i int) int {
	for i < len(s) && 'a' <= s[i] && s[i] <= 'z' {
		i++
	}
	return i
}
