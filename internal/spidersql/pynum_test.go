package spidersql

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

func TestPyFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1", 1, true}, {"-3", -3, true}, {"+2.5", 2.5, true}, {"1.", 1, true}, {".5", 0.5, true},
		{"1e3", 1000, true}, {"1E-2", 0.01, true}, {"1_000", 1000, true}, {"1_0.0_1", 10.01, true},
		{"1e999", math.Inf(1), true}, {"inf", math.Inf(1), true}, {"-Infinity", math.Inf(-1), true},
		{"", 0, false}, {".", 0, false}, {"-", 0, false}, {"e5", 0, false}, {"1e", 0, false},
		{"1_", 0, false}, {"_1", 0, false}, {"1__0", 0, false}, {"0x10", 0, false}, {"0x1p4", 0, false},
		{"1.2.3", 0, false}, {"--1", 0, false}, {"+-1", 0, false}, {"1,2", 0, false}, {"abc", 0, false},
		{"1e+-5", 0, false}, {`"1"`, 0, false},
	}
	for _, tt := range tests {
		got, ok := pyFloat(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("pyFloat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if f, ok := pyFloat("NaN"); !ok || !math.IsNaN(f) {
		t.Errorf("pyFloat(NaN) = %v, %v", f, ok)
	}
}

func TestPyInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"3", 3, true}, {"007", 7, true}, {"-1", -1, true}, {"1_0", 10, true},
		{"99999999999999999999", math.MaxInt64, true},
		{"1.0", 0, false}, {"", 0, false}, {"x", 0, false}, {"1e3", 0, false}, {`"3"`, 0, false},
	}
	for _, tt := range tests {
		got, ok := pyInt(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("pyInt(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPyReprs(t *testing.T) {
	floats := []struct {
		in   float64
		want string
	}{
		{1, "1.0"}, {0.5, "0.5"}, {-2, "-2.0"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{0.0001, "0.0001"}, {0.00001, "1e-05"}, {0, "0.0"}, {math.Copysign(0, -1), "-0.0"},
		{math.Inf(-1), "-inf"}, {math.NaN(), "nan"}, {123.456, "123.456"},
	}
	for _, tt := range floats {
		if got := pyrepr.Float(tt.in); got != tt.want {
			t.Errorf("pyFloatRepr(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	strs := []struct{ in, want string }{
		{`"abc"`, `'"abc"'`}, {"it's", `"it's"`}, {`a'b"c`, `'a\'b"c'`}, {"a\nb\\", `'a\nb\\'`},
		{"\x01é", `'\x01é'`},
	}
	for _, tt := range strs {
		if got := pyStr(tt.in); got != tt.want {
			t.Errorf("pyStr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
