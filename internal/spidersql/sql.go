package spidersql

// Operator tables (read-only). Ids in the parse are indexes into these, as in process_sql,
// so that a parse can be compared with (or printed as) the Python structure.
var (
	// ClauseKeywords end a select list, a value or a condition.
	ClauseKeywords = []string{"select", "from", "where", "group", "order", "limit", "intersect", "union", "except"}
	// JoinKeywords also end a value or a condition.
	JoinKeywords = []string{"join", "on", "as"}
	// WhereOps are the condition operators; CondUnit.Op indexes this.
	WhereOps = []string{"not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists"}
	// UnitOps are the arithmetic operators of a ValUnit; ValUnit.Op indexes this.
	UnitOps = []string{"none", "-", "+", "*", "/"}
	// AggOps are the aggregates; ColUnit.Agg and SelectItem.Agg index this.
	AggOps = []string{"none", "max", "min", "count", "sum", "avg"}
	// CondOps join condition units.
	CondOps = []string{"and", "or"}
	// SQLOps are the set operations.
	SQLOps = []string{"intersect", "union", "except"}
	// OrderOps are the sort directions.
	OrderOps = []string{"desc", "asc"}
)

// Indexes used by the hardness counters.
const (
	aggNone  = 0
	unitNone = 0
	opLike   = 9 // index of "like" in WhereOps
)

// Table unit kinds (process_sql's TABLE_TYPE).
const (
	TableUnitTable = "table_unit"
	TableUnitSQL   = "sql"
)

// SQL is one parsed query: process_sql's dict.
type SQL struct {
	Select  Select
	From    From
	Where   Condition
	GroupBy []ColUnit
	Having  Condition
	OrderBy *OrderBy // nil when there is no ORDER BY (process_sql: [])
	Limit   *int64   // nil when there is no LIMIT (process_sql: None)

	Intersect *SQL
	Union     *SQL
	Except    *SQL
}

// Select is (isDistinct, [(agg_id, val_unit), ...]).
type Select struct {
	Distinct bool
	Items    []SelectItem
}

// SelectItem is (agg_id, val_unit): the aggregate written before a select expression, as
// in "count(*)", is kept here, not in the ColUnit.
type SelectItem struct {
	Agg int
	Val ValUnit
}

// From is {'table_units': [...], 'conds': condition}; JOIN ... ON conditions are joined
// with "and".
type From struct {
	Tables []TableUnit
	Conds  Condition
}

// TableUnit is ('table_unit', '__table__') or ('sql', nested query).
type TableUnit struct {
	Type  string // TableUnitTable or TableUnitSQL
	Table string // "__table__" when Type is TableUnitTable
	SQL   *SQL   // the subquery when Type is TableUnitSQL
}

// ColUnit is (agg_id, col_id, isDistinct); ColID is "__all__" or "__table.column__".
type ColUnit struct {
	Agg      int
	ColID    string
	Distinct bool
}

// ValUnit is (unit_op, col_unit1, col_unit2); Col2 is nil unless Op is set.
type ValUnit struct {
	Op   int
	Col1 ColUnit
	Col2 *ColUnit
}

// Condition is process_sql's flat list: condition units at even positions and "and"/"or"
// between them. It is kept positional, like the Python list, because the reference reads
// it by position (conds[::2], conds[1::2]) and counts its length.
type Condition []CondItem

// CondItem is one element of a Condition: a unit, or a conjunction when Unit is nil.
type CondItem struct {
	Unit *CondUnit
	Conj string // "and" or "or" when Unit is nil
}

// CondUnit is (not_op, op_id, val_unit, val1, val2); Val2 is set only for BETWEEN.
type CondUnit struct {
	Not  bool
	Op   int
	Val  ValUnit
	Val1 *Value
	Val2 *Value
}

// ValueKind says which field of a Value is set.
type ValueKind int

// Value kinds: process_sql's val is a float, a quoted string, a nested query or a col_unit.
const (
	ValueNumber ValueKind = iota
	ValueString
	ValueSQL
	ValueColumn
)

// Value is the right-hand side of a condition.
type Value struct {
	Kind   ValueKind
	Number float64 // ValueNumber: the token read as a Python float
	Str    string  // ValueString: the literal with its double quotes, original case
	SQL    *SQL    // ValueSQL
	Col    ColUnit // ValueColumn
}

// OrderBy is ('asc'/'desc', [val_unit, ...]); Dir is the last direction written ("asc" if none).
type OrderBy struct {
	Dir   string
	Units []ValUnit
}

// Units returns the condition units at even positions (process_sql's conds[::2]), skipping
// a conjunction that malformed input put there.
func (c Condition) Units() []*CondUnit {
	var out []*CondUnit
	for i := 0; i < len(c); i += 2 {
		if c[i].Unit != nil {
			out = append(out, c[i].Unit)
		}
	}
	return out
}

// Conjs returns the conjunctions at odd positions (conds[1::2]), skipping a unit that
// malformed input put there.
func (c Condition) Conjs() []string {
	var out []string
	for i := 1; i < len(c); i += 2 {
		if c[i].Unit == nil {
			out = append(out, c[i].Conj)
		}
	}
	return out
}
