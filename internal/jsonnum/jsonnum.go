// Package jsonnum reads the JSON number grammar,
// -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?, for the two hand-written JSON
// readers: the loader's scanner over a line's bytes and the evidence
// package's parser over a tool call's argument string. It only finds
// where a number ends; what the number is worth is each reader's business.
package jsonnum

// End returns the end of the JSON number that starts at s[i], and false
// when none does (a lone '-', a leading '.', a fraction or an exponent
// with no digits). A leading zero ends the integer part, so "01" is the
// number 0 followed by whatever reads the 1.
func End[T ~string | ~[]byte](s T, i int) (int, bool) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = Digits(s, i)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		j := Digits(s, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := Digits(s, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// Digits returns the end of the run of ASCII digits starting at s[i].
func Digits[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
