package record

import (
	"math"
	"testing"
)

// Issue 45, failure 11: token counts at int64 max wrapped in collect's totals. Sums of
// counts saturate at MaxCount instead.
func TestAddCountSaturates(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{
		{1, 2, 3},
		{0, 0, 0},
		{MaxCount - 1, 1, MaxCount},
		{MaxCount, 1, MaxCount},
		{math.MaxInt64, math.MaxInt64, MaxCount},
		{math.MaxInt64, 1, MaxCount},
		{-5, 3, 3}, // a negative count is none
	} {
		if got := AddCount(tc.a, tc.b); got != tc.want {
			t.Errorf("AddCount(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	total := 0
	for range 10 {
		total = AddCount(total, math.MaxInt64)
		if total < 0 {
			t.Fatalf("sum wrapped to %d", total)
		}
	}
}
