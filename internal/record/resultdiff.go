package record

// Result-diff kinds: how an incorrect prediction's result differs from the gold's
// (internal/judge, resultdiff.go; docs/result-diff.md). The first that applies, in this
// order, is the record's kind.
const (
	DiffEmpty         = "empty_result"       // the prediction returned no rows, the gold some
	DiffColumnCount   = "wrong_column_count" // a different number of columns
	DiffRowOrder      = "row_order"          // the same rows (as a bag), another order where order counts
	DiffDuplicates    = "duplicates_only"    // the same distinct rows, other multiplicities
	DiffNearValues    = "near_values"        // equal up to rounding (2 decimals), case or whitespace
	DiffColumnOrder   = "column_order"       // the same values in every row, columns in another order
	DiffMissingRows   = "missing_rows"       // every predicted row is in the gold, some gold rows are not predicted
	DiffExtraRows     = "extra_rows"         // every gold row is predicted, plus others
	DiffMissingExtra  = "missing_and_extra"  // both: rows missing and rows extra
	DiffOtherSameRows = "other"              // equal as bags, yet incorrect under the run's semantics
)

// DiffKinds lists every result-diff kind in report order.
var DiffKinds = []string{DiffEmpty, DiffColumnCount, DiffMissingRows, DiffExtraRows, DiffMissingExtra,
	DiffNearValues, DiffColumnOrder, DiffDuplicates, DiffRowOrder, DiffOtherSameRows}

// DiffClauses lists the clauses ResultDiff.Clauses may name, in report order.
var DiffClauses = []string{"select", "from/join", "where", "group", "having", "order/limit", "set_op"}

// ResultDiff says how an incorrect prediction is wrong. Present only on records with
// verdict incorrect.
type ResultDiff struct {
	Diff *Diff `json:"result_diff,omitempty"`
}

// Diff is one incorrect record's difference from the gold result (the first gold).
type Diff struct {
	Kind string `json:"kind"`
	// PredCols and GoldCols count the two results' columns.
	PredCols int `json:"pred_cols"`
	GoldCols int `json:"gold_cols"`
	// Missing counts gold rows without an equal predicted row and Extra predicted rows
	// without an equal gold row, matched as bags (0 when the column counts differ).
	Missing int `json:"missing"`
	Extra   int `json:"extra"`
	// Clauses names the clauses of the prediction that differ from the gold's
	// (DiffClauses), from the exact-set-match comparison; absent where either query does
	// not parse or ESM was not computed.
	Clauses []string `json:"clauses,omitempty"`
}
