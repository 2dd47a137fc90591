package judge

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

func rowsOf(rows ...[]any) *engine.Result { return engine.NewResult(nil, rows) }

func TestSoftF1(t *testing.T) {
	tests := []struct {
		name       string
		pred, gold *engine.Result
		want       float64
	}{
		{"both empty", rowsOf(), rowsOf(), 1},
		{"nil is empty", nil, rowsOf(), 1},
		{"empty prediction", rowsOf(), rowsOf([]any{int64(1)}), 0},
		{"empty gold", rowsOf([]any{int64(1)}), rowsOf(), 0},
		{"identical", rowsOf([]any{int64(1), "a"}), rowsOf([]any{int64(1), "a"}), 1},
		{"int equals float", rowsOf([]any{1.0}), rowsOf([]any{int64(1)}), 1},
		{"text never equals blob", rowsOf([]any{[]byte("a")}), rowsOf([]any{"a"}), 0},
		// one of two values matched: tp=.5 fp=.5 fn=.5 -> p=r=.5
		{"half a row", rowsOf([]any{int64(1), int64(9)}), rowsOf([]any{int64(1), int64(2)}), 0.5},
		// column order inside a row does not matter
		{"swapped columns", rowsOf([]any{"b", "a"}), rowsOf([]any{"a", "b"}), 1},
		// gold has 2 rows, prediction 1 matching the first: tp=1 fn=1 -> p=1 r=.5
		{"missing row", rowsOf([]any{int64(1)}), rowsOf([]any{int64(1)}, []any{int64(2)}), 2.0 / 3},
		// extra prediction row: tp=1 fp=1 -> p=.5 r=1
		{"extra row", rowsOf([]any{int64(1)}, []any{int64(2)}), rowsOf([]any{int64(1)}), 2.0 / 3},
		// duplicates dropped first: [1,1,2] -> [1,2]
		{"duplicates dropped", rowsOf([]any{int64(1)}, []any{int64(1)}, []any{int64(2)}), rowsOf([]any{int64(1)}, []any{int64(2)}), 1},
		// positional pairing: same rows, other order, nothing matches
		{"order matters", rowsOf([]any{int64(2)}, []any{int64(1)}), rowsOf([]any{int64(1)}, []any{int64(2)}), 0},
		// prediction wider than gold: tp=1/1, fp=1/1 -> p=.5 r=1
		{"wider prediction", rowsOf([]any{int64(1), int64(5)}), rowsOf([]any{int64(1)}), 2.0 / 3},
		{"invalid utf-8 scores 0", rowsOf([]any{"\xff"}), rowsOf([]any{"\xff"}), 0},
		{"null matches null", rowsOf([]any{nil}), rowsOf([]any{nil}), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SoftF1(tt.pred, tt.gold); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("SoftF1 = %v, want %v", got, tt.want)
			}
		})
	}
}
