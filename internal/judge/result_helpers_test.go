package judge

import (
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// appendRow returns res with row appended (a new Result: results are immutable). Tests
// build small results row by row with it.
func appendRow(res *engine.Result, row []any) *engine.Result {
	var cols []string
	if res != nil {
		cols = res.Columns
	}
	rows := append(res.BoxedRows(), row)
	if cols != nil && len(cols) != len(row) {
		cols = nil // a width the columns do not give: width from the rows
	}
	return engine.NewResult(cols, rows)
}

// withMissing returns res with the given per-row MISSING cell indices (a NULL cell
// listed becomes MISSING; indices out of range are ignored, as a reader would).
func withMissing(res *engine.Result, missing ...[]int) *engine.Result {
	b := engine.NewResultBuilder(res.Columns)
	for i := range res.NumRows() {
		for j := range res.NumCols() {
			if i < len(missing) && slices.Contains(missing[i], j) && res.Kind(i, j) == engine.Null {
				b.AppendMissing()
			} else {
				b.AppendValue(res.Value(i, j))
			}
		}
		if err := b.EndRow(); err != nil {
			panic(err)
		}
	}
	return b.Result()
}
