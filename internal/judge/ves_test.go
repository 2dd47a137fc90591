package judge

import (
	"math"
	"testing"
)

func TestCleanAbnormal(t *testing.T) {
	// 20 ratios of 1 and one of 100: the outlier lies beyond mean + 3 std and is dropped.
	rs := make([]float64, 20)
	for i := range rs {
		rs[i] = 1
	}
	rs = append(rs, 100)
	if got := CleanAbnormal(rs); len(got) != 20 {
		t.Errorf("CleanAbnormal kept %d of 21, want 20", len(got))
	}
	if got := OfficialRatio(rs); got != 1 {
		t.Errorf("OfficialRatio = %v, want 1", got)
	}
	// Quirk BIRD-ves-constant: identical ratios have std 0 and nothing survives.
	if got := OfficialRatio([]float64{2, 2, 2}); got != 0 {
		t.Errorf("OfficialRatio(constant) = %v, want 0", got)
	}
	if got := OfficialRatio([]float64{1, 3}); got != 2 {
		t.Errorf("OfficialRatio(1, 3) = %v, want 2", got)
	}
	if got := OfficialRatio(nil); got != 0 {
		t.Errorf("OfficialRatio(nil) = %v, want 0", got)
	}
}

func TestRewards(t *testing.T) {
	tests := []struct {
		ratio, rves, ves float64
	}{
		{0, 0, 0},
		{math.NaN(), 0, 0},
		{0.1, 0.25, math.Sqrt(0.1)},
		{0.25, 0.5, 0.5},
		{0.4999, 0.5, math.Sqrt(0.4999)},
		{0.5, 0.75, math.Sqrt(0.5)},
		{0.9999, 0.75, math.Sqrt(0.9999)},
		{1, 1, 1},
		{1.9999, 1, math.Sqrt(1.9999)},
		{2, 1.25, math.Sqrt2},
		{9, 1.25, 3},
	}
	for _, tt := range tests {
		if got := RVESReward(tt.ratio); got != tt.rves {
			t.Errorf("RVESReward(%v) = %v, want %v", tt.ratio, got, tt.rves)
		}
		if got := VESReward(tt.ratio); math.Abs(got-tt.ves) > 1e-12 {
			t.Errorf("VESReward(%v) = %v, want %v", tt.ratio, got, tt.ves)
		}
	}
}

func TestMedianIQR(t *testing.T) {
	tests := []struct {
		xs          []float64
		median, iqr float64
	}{
		{nil, 0, 0},
		{[]float64{3}, 3, 0},
		{[]float64{4, 1, 3, 2}, 2.5, 1.5},
		{[]float64{5, 1, 3, 2, 4}, 3, 2},
	}
	for _, tt := range tests {
		if got := Median(tt.xs); got != tt.median {
			t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.median)
		}
		if got := IQR(tt.xs); got != tt.iqr {
			t.Errorf("IQR(%v) = %v, want %v", tt.xs, got, tt.iqr)
		}
	}
	xs := []float64{3, 1, 2}
	Median(xs)
	if xs[0] != 3 {
		t.Error("Median sorted its argument in place")
	}
}

func TestSameSQL(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"SELECT count(*) FROM singer", "select COUNT(*)  from singer;", true},
		{"SELECT name ,  country FROM singer", "SELECT name, country\nFROM singer", true},
		{"SELECT a FROM t WHERE b = 'X'", "SELECT a FROM t WHERE b = 'x'", false},
		{"SELECT a FROM t WHERE b = \"X Y\"", "select a from t where b = \"X Y\"", true},
		{"SELECT a FROM t", "SELECT b FROM t", false},
		{"SELECT [Big Col] FROM t", "select [Big Col] from t", true},
		{"SELECT [Big Col] FROM t", "select [big col] from t", false},
	}
	for _, tt := range tests {
		if got := SameSQL(tt.a, tt.b); got != tt.want {
			t.Errorf("SameSQL(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestParseTimingMode(t *testing.T) {
	for _, s := range []string{"official", "robust"} {
		if m, err := ParseTimingMode(s); err != nil || string(m) != s {
			t.Errorf("ParseTimingMode(%q) = %q, %v", s, m, err)
		}
	}
	if _, err := ParseTimingMode("fast"); err == nil {
		t.Error("ParseTimingMode(fast): no error")
	}
}
