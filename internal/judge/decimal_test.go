package judge

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// TestDecimalCells: a Decimal cell (an exact NUMERIC no int64 or float64 holds) follows
// Python's Decimal rules in every comparator: equal only to the same Decimal, hashed
// consistently (sets, bags, Soft-F1), never equal to a float or an int.
func TestDecimalCells(t *testing.T) {
	d := func(s string) any { return engine.DecimalText(s) }
	tests := []struct {
		name       string
		pred, gold [][]any
		equal      bool
	}{
		{"same decimal", [][]any{{d("0.1")}}, [][]any{{d("0.1")}}, true},
		{"decimals differ in the 30th digit", [][]any{{d("123456789012345678901234567891")}}, [][]any{{d("123456789012345678901234567890")}}, false},
		{"decimal vs its nearest float", [][]any{{0.1}}, [][]any{{d("0.1")}}, false},
		{"decimal vs text", [][]any{{"0.1"}}, [][]any{{d("0.1")}}, false},
		{"big decimal vs the float it rounds to", [][]any{{1e20}}, [][]any{{d("99999999999999999999")}}, false},
		{"set of rows, duplicates and order", [][]any{{d("0.1"), int64(1)}, {d("0.3"), int64(2)}, {d("0.1"), int64(1)}},
			[][]any{{d("0.3"), int64(2)}, {d("0.1"), int64(1)}}, true},
		{"row differs in its decimal", [][]any{{d("0.1"), int64(1)}}, [][]any{{d("0.10000000000000001"), int64(1)}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := engine.NewResult(nil, tc.pred)
			g := engine.NewResult(nil, tc.gold)
			if got := BirdEqual(p, g); got != tc.equal {
				t.Errorf("BirdEqual = %v, want %v", got, tc.equal)
			}
			if len(tc.pred) == len(tc.gold) {
				if got := SpiderEqual(g, p, false); got != tc.equal {
					t.Errorf("SpiderEqual = %v, want %v", got, tc.equal)
				}
			}
			if got := SoftF1(g, g); got != 1 {
				t.Errorf("SoftF1(gold, gold) = %v, want 1", got)
			}
			if !tc.equal {
				if got := SoftF1(p, g); got == 1 {
					t.Errorf("SoftF1 = 1 for unequal results")
				}
			}
		})
	}
}
