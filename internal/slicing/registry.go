package slicing

import (
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// Facts are what the slices read of one question.
type Facts struct {
	// SQL are the first gold query's characteristics; Parsed is false when it does not
	// parse as SQLite SQL (its SQL slices then leave the question out).
	SQL        sqlast.Features
	Parsed     bool
	Evidence   bool
	Difficulty string
	DB         string
}

// FactsOf reads every question's facts, by question index.
func FactsOf(ds *dataset.Dataset) map[int]Facts {
	out := make(map[int]Facts, len(ds.Questions))
	for _, q := range ds.Questions {
		f := Facts{Evidence: q.Evidence != "", Difficulty: q.Difficulty, DB: q.DBID}
		if len(q.Gold) > 0 {
			if p, err := sqlast.Parse(q.Gold[0]); err == nil && p.IsSelect() {
				f.SQL, f.Parsed = p.Features(), true
			}
		}
		out[q.Index] = f
	}
	return out
}

// Slice declares one way to split questions: Of gives a question's group ("" leaves it
// out of this slice).
type Slice struct {
	ID    string // key in summary.json; never renamed
	Label string // what the outputs call it
	From  string // "gold_sql" or "dataset"
	Of    func(f *Facts) string
}

// Groups order: yes before no, counts ascending, others as first seen.
const (
	yes = "yes"
	no  = "no"
)

// Declared lists every slice in report order.
func Declared() []Slice {
	sql := func(id, label string, has func(*sqlast.Features) bool) Slice {
		return Slice{ID: id, Label: label, From: "gold_sql", Of: func(f *Facts) string {
			if !f.Parsed {
				return ""
			}
			if has(&f.SQL) {
				return yes
			}
			return no
		}}
	}
	return []Slice{
		{ID: "joins", Label: "joins", From: "gold_sql", Of: func(f *Facts) string {
			switch {
			case !f.Parsed:
				return ""
			case f.SQL.Joins >= 3:
				return "3+"
			}
			return strconv.Itoa(f.SQL.Joins)
		}},
		sql("nested", "nested subquery", func(s *sqlast.Features) bool { return s.Nested }),
		sql("aggregation", "aggregation", func(s *sqlast.Features) bool { return s.Aggregation }),
		sql("group_by", "GROUP BY", func(s *sqlast.Features) bool { return s.GroupBy }),
		sql("having", "HAVING", func(s *sqlast.Features) bool { return s.Having }),
		sql("order_limit", "ORDER BY + LIMIT", func(s *sqlast.Features) bool { return s.OrderLimit }),
		sql("set_op", "set operation", func(s *sqlast.Features) bool { return s.SetOp }),
		sql("window", "window function", func(s *sqlast.Features) bool { return s.Window }),
		sql("case", "CASE", func(s *sqlast.Features) bool { return s.Case }),
		sql("like", "LIKE", func(s *sqlast.Features) bool { return s.Like }),
		sql("date_time", "date/time function", func(s *sqlast.Features) bool { return s.DateTime }),
		sql("arithmetic", "arithmetic in SELECT", func(s *sqlast.Features) bool { return s.Arithmetic }),
		sql("distinct", "DISTINCT", func(s *sqlast.Features) bool { return s.Distinct }),
		{ID: "evidence", Label: "evidence given", From: "dataset", Of: func(f *Facts) string {
			if f.Evidence {
				return yes
			}
			return no
		}},
		{ID: "difficulty", Label: "difficulty", From: "dataset", Of: func(f *Facts) string { return f.Difficulty }},
		{ID: "database", Label: "database", From: "dataset", Of: func(f *Facts) string { return f.DB }},
	}
}
