package metrics

// Helpers only this package's tests use, kept out of the build.

import (
	"sort"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Helpers only the tests use: TablePRF and ColumnPRF score lists as the conventions in
// schema.go describe (the run scores sets, ScoreSchemaSets).

// SetPRF scores a selected set against a relevant (gold) set. ok is false when gold is
// empty (the scores are undefined; see the conventions above).
func SetPRF(gold, selected []string) (prf PRF, ok bool) {
	g := lowerSet(gold)
	if len(g) == 0 {
		return PRF{}, false
	}
	return setPRF(g, lowerSet(selected))
}

// SchemaTables lists the tables of a {table: [columns]} schema.
func SchemaTables(s map[string][]string) []string {
	out := make([]string, 0, len(s))
	for t := range s {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// SchemaColumns lists the columns of a {table: [columns]} schema as "table.column".
func SchemaColumns(s map[string][]string) []string {
	var out []string
	for t, cols := range s {
		for _, c := range cols {
			out = append(out, t+"."+c)
		}
	}
	sort.Strings(out)
	return out
}

// TablePRF and ColumnPRF score one question's selection at the table and column level.
func TablePRF(gold, selected map[string][]string) (PRF, bool) {
	return SetPRF(SchemaTables(gold), SchemaTables(selected))
}

// ColumnPRF scores (table, column) pairs; see TablePRF.
func ColumnPRF(gold, selected map[string][]string) (PRF, bool) {
	return SetPRF(SchemaColumns(gold), SchemaColumns(selected))
}

// ScoreSchema fills a record's schema_table_* and schema_column_* fields from its
// GoldSchema and PredSchema (both must be set; otherwise the fields are cleared).
func ScoreSchema(r *record.Record) {
	if r.GoldSchema == nil || r.PredSchema == nil {
		ScoreSchemaSets(r, SchemaSets{})
		return
	}
	ScoreSchemaSets(r, SetsOf(r.GoldSchema))
}

// SelectionOf is the selection a run recorded (its manifest's list of ids; nil: all).
func SelectionOf(ids []string) Selection {
	if ids == nil {
		return Selection{}
	}
	s := Selection{ids: map[string]bool{}}
	for _, id := range ids {
		s.ids[id] = true
	}
	return s
}

// All reports whether every metric is chosen.
func (s Selection) All() bool { return s.ids == nil }
