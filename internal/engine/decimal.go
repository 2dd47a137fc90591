package engine

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Exact decimals. PostgreSQL NUMERIC and MySQL DECIMAL values reach the official scripts
// as Python Decimals (psycopg2, pymysql), which compare by exact value: Decimal == int and
// Decimal == float are exact (Decimal('0.1') != 0.1), and Decimal('1.10') ==
// Decimal('1.1'). A Result keeps such a value as an Int or a Float when one holds it
// exactly, so the comparators' fast paths give Python's answer; any other value (more
// digits than float64 keeps, or a fraction no binary float is) is a Decimal cell holding
// its canonical text, which equals only a Decimal with the same text.

// DecimalText is the canonical text of an exact decimal that neither an int64 nor a float64
// holds exactly: an optional '-', no leading zeros (but "0." before a fraction), no
// trailing fractional zeros, never an exponent. Result.Value returns it for a Decimal
// cell; AppendValue appends it as one.
type DecimalText string

// maxDecimalExponent bounds the exponent of a decimal written with one (PostgreSQL and
// MySQL never do): 1e1000000 would otherwise become a million digits.
const maxDecimalExponent = 1000

// parseDecimal reads a NUMERIC or DECIMAL value's text: an int64 when it is an integer
// that fits, a float64 when the float64 equals it exactly (2.5, 55.00) or it is NaN or an
// infinity, else its canonical DecimalText.
func parseDecimal(s string) (any, error) {
	if !strings.ContainsAny(s, ".eEnNiI") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Errorf("decimal %q: %w", s, err)
	}
	if math.IsNaN(f) || (math.IsInf(f, 0) && err == nil) {
		return f, nil // NaN, Infinity: Decimal('Infinity') == float('inf') in Python
	}
	canon, ok := canonicalDecimal(s)
	if !ok {
		return nil, fmt.Errorf("decimal %q: exponent out of range", s)
	}
	if canon == "0" || (err == nil && floatIsExactly(f, canon)) {
		return f, nil
	}
	return DecimalText(canon), nil
}

// canonicalDecimal writes the decimal number s (which strconv.ParseFloat accepted, not
// NaN or an infinity) in DecimalText's canonical form; ok is false for an exponent beyond
// maxDecimalExponent.
func canonicalDecimal(s string) (string, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	exp := 0
	if k := strings.IndexAny(s, "eE"); k >= 0 {
		e, err := strconv.Atoi(s[k+1:])
		if err != nil || e > maxDecimalExponent || e < -maxDecimalExponent {
			return "", false
		}
		exp, s = e, s[:k]
	}
	s = strings.ReplaceAll(s, "_", "") // ParseFloat allows underscores between digits
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) + exp - (len(intPart) + len(frac) - len(digits)) // digits before the point
	// Drop fractional trailing zeros; integral trailing zeros stay (point > len).
	for len(digits) > max(point, 0) && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if digits == "" {
		return "0", true
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(digits)
	case point >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	}
	return b.String(), true
}

// floatIsExactly reports whether f's exact value is the canonical decimal canon. A
// float's exact decimal expansion has as many fractional digits as its value has
// fractional bits, so f is canon exactly when those counts agree and f printed with that
// many digits (exactly, then) is canon.
func floatIsExactly(f float64, canon string) bool {
	k := 0
	if _, frac, ok := strings.Cut(canon, "."); ok {
		k = len(frac)
	}
	if fractionBits(f) != k {
		return false
	}
	var buf [64]byte
	return string(strconv.AppendFloat(buf[:0], f, 'f', k, 64)) == canon
}

// fractionBits is the e of f = m / 2^e with m an odd integer; 0 when f is an integer.
func fractionBits(f float64) int {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	fr, exp := math.Frexp(math.Abs(f)) // |f| = fr * 2^exp, fr in [0.5, 1): 53 bits at most
	m := uint64(fr * (1 << 53))
	e := 53 - exp - bits.TrailingZeros64(m)
	return max(e, 0)
}
