package judge

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestDiffResults(t *testing.T) {
	res := func(cols []string, rows ...[]any) *engine.Result { return engine.NewResult(cols, rows) }
	one := []string{"a"}
	two := []string{"a", "b"}
	for _, tc := range []struct {
		name           string
		pred, gold     *engine.Result
		order          bool
		kind           string
		missing, extra int
	}{
		{"empty", res(one), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffEmpty, 2, 0},
		{"columns", res(two, []any{int64(1), "x"}), res(one, []any{int64(1)}), false, record.DiffColumnCount, 0, 0},
		{"missing", res(one, []any{int64(1)}), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffMissingRows, 1, 0},
		{"extra", res(one, []any{int64(1)}, []any{int64(3)}, []any{int64(2)}), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffExtraRows, 0, 1},
		{"both", res(one, []any{int64(1)}, []any{int64(3)}), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffMissingExtra, 1, 1},
		{"order", res(one, []any{int64(2)}, []any{int64(1)}), res(one, []any{int64(1)}, []any{int64(2)}), true, record.DiffRowOrder, 0, 0},
		{"same bag, order free", res(one, []any{int64(2)}, []any{int64(1)}), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffOtherSameRows, 0, 0},
		{"duplicates", res(one, []any{int64(1)}, []any{int64(1)}, []any{int64(2)}), res(one, []any{int64(1)}, []any{int64(2)}), false, record.DiffDuplicates, 0, 1},
		{"rounding", res(one, []any{0.3333333}), res(one, []any{0.33}), false, record.DiffNearValues, 1, 1},
		{"case and space", res(one, []any{"New  York "}), res(one, []any{"new york"}), false, record.DiffNearValues, 1, 1},
		{"number as text", res(one, []any{"12"}), res(one, []any{int64(12)}), false, record.DiffNearValues, 1, 1},
		{"int equals float", res(one, []any{float64(3)}, []any{int64(4)}), res(one, []any{int64(3)}), false, record.DiffExtraRows, 0, 1},
		{"column order", res(two, []any{"x", int64(1)}), res(two, []any{int64(1), "x"}), false, record.DiffColumnOrder, 1, 1},
		{"null rows", res(one, []any{nil}), res(one, []any{int64(0)}), false, record.DiffMissingExtra, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := DiffResults(tc.pred, tc.gold, tc.order)
			if d.Kind != tc.kind || d.Missing != tc.missing || d.Extra != tc.extra {
				t.Errorf("got %s missing %d extra %d, want %s missing %d extra %d", d.Kind, d.Missing, d.Extra, tc.kind, tc.missing, tc.extra)
			}
			if d.PredCols != tc.pred.NumCols() || d.GoldCols != tc.gold.NumCols() {
				t.Errorf("cols %d/%d, want %d/%d", d.PredCols, d.GoldCols, tc.pred.NumCols(), tc.gold.NumCols())
			}
		})
	}
}
