package evidence

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// jsNumberString is JavaScript's String(Number(s)) for a decimal literal
// (a plain or JSON number): the double nearest to s, printed by
// jsFormat. ok is false when s is not a number at all.
func jsNumberString(s string) (string, bool) {
	if plainInteger(s) {
		return s, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", false
	}
	// ErrRange: f is ±Inf (overflow) or ±0 (underflow), as in JavaScript
	return jsFormat(f), true
}

// plainInteger: s is an integer of at most 15 digits, without a plus
// sign or a leading zero, and not -0: the double nearest to it is it
// exactly (below 2^53), which JavaScript prints as s.
func plainInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || d[0] == '0' && (len(d) > 1 || len(s) > 1) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if !isDigit(d[i]) {
			return false
		}
	}
	return true
}

// jsFormat prints a double as JavaScript's Number.prototype.toString does
// (ECMA-262 Number::toString): the shortest digits that read back as the
// same double, in plain notation when 1e-6 ≤ |x| < 1e21, else
// d.ddde±n. -0 prints as 0.
func jsFormat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	case x < 0:
		return "-" + jsFormat(-x)
	}
	// shortest round-trip digits and exponent: "d.dddde±XX"
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	p, _ := strconv.Atoi(exp)
	k, n := len(digits), p+1 // x = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	ex := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return digits + "e" + sign + ex
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + ex
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
