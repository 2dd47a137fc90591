// Package pyrepr writes values as Python's repr() does, for the places where the tool must
// print or compare a value exactly as the official Python scripts see it (Spider's parsed
// SQL, a CSV cell, a value compared by its repr).
package pyrepr

import (
	"math"
	"strconv"
)

// Float is Python's repr of a float (see AppendFloat).
func Float(f float64) string {
	var b [32]byte
	return string(AppendFloat(b[:0], f))
}

// AppendFloat appends Python's repr of a float: the shortest digits that round-trip,
// in positional notation when the decimal exponent is in [-4, 16), otherwise in
// exponent notation with at least two exponent digits ('1e+16', '1e-05'); integral
// values keep '.0'.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64) // -d.ddde±xx
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	ep := 0
	for ep < len(e) && e[ep] != 'e' {
		ep++
	}
	var digits [24]byte
	nd := 0
	for _, c := range e[:ep] {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[ep+1:]))
	decpt := exp + 1 // value = 0.DIGITS * 10^decpt
	d := digits[:nd]
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			b = append(b, '0', '.')
			for i := 0; i < -decpt; i++ {
				b = append(b, '0')
			}
			return append(b, d...)
		case decpt >= nd:
			b = append(b, d...)
			for i := nd; i < decpt; i++ {
				b = append(b, '0')
			}
			return append(b, '.', '0')
		default:
			b = append(b, d[:decpt]...)
			b = append(b, '.')
			return append(b, d[decpt:]...)
		}
	}
	b = append(b, d[0])
	if nd > 1 {
		b = append(b, '.')
		b = append(b, d[1:]...)
	}
	b = append(b, 'e')
	x := decpt - 1
	if x < 0 {
		b = append(b, '-')
		x = -x
	} else {
		b = append(b, '+')
	}
	if x < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(x), 10)
}
