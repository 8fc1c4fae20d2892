// Package jsonlex reads the pieces of JSON's lexical grammar (RFC 8259)
// that the two hand-written JSON readers share: the loader's scanner over
// a line's bytes and the evidence package's parser over a tool call's
// argument string. It only finds where a piece ends; what a value is
// worth is each reader's business.
package jsonlex

// Number returns the end of the JSON number
// -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? that starts at s[i], and false
// when none does (a lone '-', a leading '.', a fraction or an exponent
// with no digits). A leading zero ends the integer part, so "01" is the
// number 0 followed by whatever reads the 1.
func Number[T ~string | ~[]byte](s T, i int) (int, bool) {
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

// Space returns the end of the JSON whitespace (space, tab, line feed,
// carriage return) starting at s[i].
func Space[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
