package pyrepr

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestFloat: Python's repr on the boundaries of positional notation, integral values,
// signs and the special values (the wanted strings are what CPython 3 prints).
func TestFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{1e-4, "0.0001"},
		{9.999999999999999e-05, "9.999999999999999e-05"},
		{1e-5, "1e-05"},
		{1.5e-7, "1.5e-07"},
		{1e15, "1000000000000000.0"},
		{9999999999999998, "9999999999999998.0"},
		{1e16, "1e+16"},
		{1.2345e22, "1.2345e+22"},
		{1e100, "1e+100"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{123456.789, "123456.789"},
		{math.NaN(), "nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
	}
	for _, tc := range tests {
		if got := Float(tc.f); got != tc.want {
			t.Errorf("Float(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestFloatMatchesReference: on random bit patterns and decimal boundaries, Float agrees
// with a plain reference built on strconv's shortest digits and their decimal exponent.
func TestFloatMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		f := math.Float64frombits(r.Uint64())
		if i%2 == 0 {
			f = math.Pow(10, float64(r.IntN(40)-20)) * (1 + float64(r.IntN(3)-1)*1e-16)
		}
		if got, want := Float(f), referenceFloat(f); got != want {
			t.Fatalf("Float(%b) = %q, reference %q", f, got, want)
		}
	}
}

func referenceFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 0):
		if f > 0 {
			return "inf"
		}
		return "-inf"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if f != 0 && (exp < -4 || exp >= 16) {
		return sci
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
