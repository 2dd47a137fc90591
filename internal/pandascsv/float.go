package pandascsv

import (
	"math"
	"strconv"
	"strings"
)

// pow10 holds 1e0 .. 1e308 correctly rounded, as C's double literals in pandas' table
// are (math.Pow10 multiplies two table entries and can be one ulp off).
var pow10 = func() [309]float64 {
	var p [309]float64
	for i := range p {
		p[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i), 64)
	}
	return p
}()

// parseFloat reads a float64 as pandas 1.5's default converter does: precise_xstrtod
// (at most 17 significant digits kept, the rest truncated, then one multiplication or
// division by a power of ten), whitespace allowed around it, and, when that fails, the
// strings inf, +inf, -inf, Infinity, +Infinity and -Infinity in any case. ok is false
// when the field is not a float to pandas (then the column is not float64).
func parseFloat(s string) (float64, bool) {
	if f, ok := preciseXstrtod(s); ok {
		return f, true
	}
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// preciseXstrtod reproduces pandas' precise_xstrtod with decimal '.', 'e'/'E' exponents,
// no thousands separator, trailing whitespace skipped, and the whole field consumed.
func preciseXstrtod(s string) (float64, bool) {
	const maxDigits = 17
	p, n := 0, len(s)
	for p < n && isSpace(s[p]) {
		p++
	}
	neg := false
	if p < n && (s[p] == '-' || s[p] == '+') {
		neg = s[p] == '-'
		p++
	}
	number, exponent, digits, decimals := 0.0, 0, 0, 0
	for p < n && isDigit(s[p]) {
		if digits < maxDigits {
			number = number*10 + float64(s[p]-'0')
			digits++
		} else {
			exponent++
		}
		p++
	}
	if p < n && s[p] == '.' {
		p++
		for digits < maxDigits && p < n && isDigit(s[p]) {
			number = number*10 + float64(s[p]-'0')
			p++
			digits++
			decimals++
		}
		if digits >= maxDigits {
			for p < n && isDigit(s[p]) {
				p++
			}
		}
		exponent -= decimals
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		number = -number
	}
	if p < n && (s[p] == 'e' || s[p] == 'E') {
		q := p + 1
		eneg := false
		if q < n && (s[q] == '-' || s[q] == '+') {
			eneg = s[q] == '-'
			q++
		}
		ed, e := 0, 0
		for ed < maxDigits && q < n && isDigit(s[q]) {
			e = e*10 + int(s[q]-'0')
			ed++
			q++
		}
		if ed > 0 {
			if eneg {
				exponent -= e
			} else {
				exponent += e
			}
			p = q
		}
		// No digits after the 'e': it is left unconsumed, and the field fails below.
	}
	switch {
	case exponent > 308:
		return 0, false // ERANGE
	case exponent > 0:
		number *= pow10[exponent]
	case exponent < -308:
		if exponent < -616 {
			number = 0
		} else {
			number /= pow10[-308-exponent]
			number /= pow10[308]
		}
	default:
		number /= pow10[-exponent]
	}
	if math.IsInf(number, 0) {
		return 0, false
	}
	for p < n && isSpace(s[p]) {
		p++
	}
	return number, p == n
}
