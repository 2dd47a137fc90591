package metrics

import (
	"sort"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Schema-selection metrics (NL2SQLBench paper, Section 3.1.1, eq. 1-3): precision, recall
// and F1 of the selected tables and of the selected (table, column) pairs against the
// gold schema, per question, then averaged per question (macro), as the paper's tables are.
//
// Conventions:
//   - names are compared case-insensitively;
//   - columns are compared per table: "name" in table a and "name" in table b are different
//     elements (a column is the pair table.column);
//   - a table listed with no columns selects the table and no column;
//   - an empty gold set (e.g. the columns of SELECT COUNT(*) FROM t) makes P/R/F1 undefined
//     for that question: it is left out of that level's average, and counted in
//     SchemaLevel.Undefined;
//   - an empty selection against a non-empty gold set scores P = R = F1 = 0 (selecting
//     nothing earns no credit);
//   - F1 is 2PR/(P+R) per question, 0 when P+R = 0; the reported F1 is the mean of the
//     per-question F1s, not recomputed from the mean P and R.

// PRF is one precision / recall / F1 triple.
type PRF struct {
	P  float64 `json:"p"`
	R  float64 `json:"r"`
	F1 float64 `json:"f1"`
}

// setPRF is SetPRF over sets already lower-cased and trimmed; g is not empty.
func setPRF(g, s map[string]bool) (prf PRF, ok bool) {
	if len(s) == 0 {
		return PRF{}, true
	}
	hit := 0
	for x := range s {
		if g[x] {
			hit++
		}
	}
	prf.P = float64(hit) / float64(len(s))
	prf.R = float64(hit) / float64(len(g))
	if prf.P+prf.R > 0 {
		prf.F1 = 2 * prf.P * prf.R / (prf.P + prf.R)
	}
	return prf, true
}

// NormalizeSchema lower-cases a schema's names, merges duplicates and sorts columns, so
// schemas from different sources compare and print alike. nil stays nil.
func NormalizeSchema(s map[string][]string) map[string][]string {
	if s == nil {
		return nil
	}
	out := make(map[string][]string, len(s))
	for t, cols := range s {
		lt := strings.ToLower(strings.TrimSpace(t))
		set := lowerSet(append(out[lt], cols...))
		merged := make([]string, 0, len(set))
		for c := range set {
			merged = append(merged, c)
		}
		sort.Strings(merged)
		out[lt] = merged
	}
	return out
}

// SchemaLevel is the macro average at one level (tables or columns).
type SchemaLevel struct {
	Questions int     `json:"questions"` // questions averaged
	Undefined int     `json:"undefined"` // questions left out: empty gold set at this level
	P         float64 `json:"p"`
	R         float64 `json:"r"`
	F1        float64 `json:"f1"`
	// FullRecall counts the averaged questions whose recall is 1.
	FullRecall int `json:"full_recall"`
}

// SchemaSelection is one system's schema-selection scores.
type SchemaSelection struct {
	// Questions are the judged records with both a gold and a predicted schema: the same
	// questions the registry's schema metrics average over (a question skipped for a
	// missing database is left out, as from every other score).
	Questions int `json:"questions"`
	// Source counts where the predicted schemas came from ("reported", "pred_sql").
	Source map[string]int `json:"pred_schema_source"`
	// NoGold counts records whose gold schema could not be extracted.
	NoGold int         `json:"no_gold_schema"`
	Tables SchemaLevel `json:"tables"`
	Column SchemaLevel `json:"columns"`
}

// SchemaSelectionOf averages the per-record scores (schema_table_* and schema_column_*)
// over every judged record with a gold and a predicted schema. It returns nil when there
// is none.
func SchemaSelectionOf(recs []record.Record) *SchemaSelection {
	s := &SchemaSelection{Source: map[string]int{}}
	var tab, col []PRF
	for i := range recs {
		r := &recs[i]
		if !r.Judged() {
			continue
		}
		if r.GoldSchema == nil {
			s.NoGold++
			continue
		}
		if r.PredSchema == nil {
			continue
		}
		s.Questions++
		s.Source[r.PredSchemaSource]++
		if p, ok := recordPRF(r.SchemaTableP, r.SchemaTableR, r.SchemaTableF1); ok {
			tab = append(tab, p)
		} else {
			s.Tables.Undefined++
		}
		if p, ok := recordPRF(r.SchemaColumnP, r.SchemaColumnR, r.SchemaColumnF1); ok {
			col = append(col, p)
		} else {
			s.Column.Undefined++
		}
	}
	if s.Questions == 0 {
		return nil
	}
	s.Tables = macro(tab, s.Tables.Undefined)
	s.Column = macro(col, s.Column.Undefined)
	return s
}

func recordPRF(p, r, f *float64) (PRF, bool) {
	if p == nil || r == nil || f == nil {
		return PRF{}, false
	}
	return PRF{P: *p, R: *r, F1: *f}, true
}

// macro averages per-question scores.
func macro(xs []PRF, undefined int) SchemaLevel {
	l := SchemaLevel{Questions: len(xs), Undefined: undefined}
	if len(xs) == 0 {
		return l
	}
	for _, x := range xs {
		l.P += x.P
		l.R += x.R
		l.F1 += x.F1
		if x.R == 1 {
			l.FullRecall++
		}
	}
	n := float64(len(xs))
	l.P /= n
	l.R /= n
	l.F1 /= n
	return l
}

// FullRecall reports whether a record's selection holds every gold table and column
// (table and column recall both 1; an undefined level counts as complete). ok is false
// when the record has no schema scores.
func FullRecall(r *record.Record) (full, ok bool) {
	if r.SchemaTableR == nil && r.SchemaColumnR == nil {
		return false, false
	}
	full = true
	if r.SchemaTableR != nil && *r.SchemaTableR < 1 {
		full = false
	}
	if r.SchemaColumnR != nil && *r.SchemaColumnR < 1 {
		full = false
	}
	return full, true
}

// SchemaSets are a schema's tables and "table.column" pairs as TablePRF and ColumnPRF
// compare them (lower-cased, trimmed, empty names dropped). A gold schema's are built
// once per question and scored against every system's selection (ScoreSchemaSets).
type SchemaSets struct {
	Tables, Columns map[string]bool
}

// SetsOf builds s's sets: lowerSet(SchemaTables(s)) and lowerSet(SchemaColumns(s)),
// without the sorted lists in between.
func SetsOf(s map[string][]string) SchemaSets {
	n := 0
	for _, cols := range s {
		n += len(cols)
	}
	out := SchemaSets{Tables: make(map[string]bool, len(s)), Columns: make(map[string]bool, n)}
	out.fill(s)
	return out
}

// fill adds s's tables and pairs to the sets.
func (out SchemaSets) fill(s map[string][]string) {
	for t, cols := range s {
		if x := strings.ToLower(strings.TrimSpace(t)); x != "" {
			out.Tables[x] = true
		}
		for _, c := range cols {
			// The pair is trimmed and lowered whole, as lowerSet(SchemaColumns) does.
			if x := strings.ToLower(strings.TrimSpace(t + "." + c)); x != "" {
				out.Columns[x] = true
			}
		}
	}
}

// predSets are reused (cleared) maps for a selection's sets: ScoreSchemaSets builds them
// for every record and drops them at once.
var predSets = sync.Pool{New: func() any {
	return &SchemaSets{Tables: map[string]bool{}, Columns: map[string]bool{}}
}}

// ScoreSchemaSets is ScoreSchema with the gold schema's sets given: gold must be
// SetsOf(r.GoldSchema). It allows one SetsOf per question rather than per system.
func ScoreSchemaSets(r *record.Record, gold SchemaSets) {
	r.SchemaTableP, r.SchemaTableR, r.SchemaTableF1 = nil, nil, nil
	r.SchemaColumnP, r.SchemaColumnR, r.SchemaColumnF1 = nil, nil, nil
	if r.GoldSchema == nil || r.PredSchema == nil {
		return
	}
	pred := predSets.Get().(*SchemaSets)
	defer func() {
		clear(pred.Tables)
		clear(pred.Columns)
		predSets.Put(pred)
	}()
	pred.fill(r.PredSchema)
	if len(gold.Tables) > 0 {
		p, _ := setPRF(gold.Tables, pred.Tables)
		r.SchemaTableP, r.SchemaTableR, r.SchemaTableF1 = &p.P, &p.R, &p.F1
	}
	if len(gold.Columns) > 0 {
		p, _ := setPRF(gold.Columns, pred.Columns)
		r.SchemaColumnP, r.SchemaColumnR, r.SchemaColumnF1 = &p.P, &p.R, &p.F1
	}
}

func lowerSet(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		x = strings.ToLower(strings.TrimSpace(x))
		if x != "" {
			m[x] = true
		}
	}
	return m
}
