package jsjson

import (
	"math"
	"strconv"
	"strings"
)

// FormatNumber returns the JSON text of the number f (SPEC.md section 1.2):
// ECMAScript Number::toString, that is the shortest digits that round-trip,
// in exponent form outside [1e-6, 1e21); -0 is written 0, and NaN and the
// infinities null, as JSON.stringify writes them.
func FormatNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±xx
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // f = 0.digits × 10^n
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		es := "+"
		if n-1 < 0 {
			es = "-"
		}
		ex := strconv.Itoa(max(n-1, 1-n)) // |n-1|
		if k == 1 {
			out = digits + "e" + es + ex
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + es + ex
		}
	}
	return sign + out
}
