package sqlast

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/sqlc-dev/meyer/ast"
)

// Use is what a query uses of a database schema (see the package doc for the rules).
type Use struct {
	Tables     []string `json:"tables"`     // base tables used, schema's original spelling, sorted, unique
	Columns    []string `json:"columns"`    // "table.column", schema's original spelling, sorted, unique
	Unresolved []string `json:"unresolved"` // column references that match no table in scope, as written (dequoted)
	Ambiguous  []string `json:"ambiguous"`  // column references that match several tables in scope
	// UnknownTables are names in FROM that are neither a CTE nor a table of the schema.
	UnknownTables []string `json:"unknown_tables,omitempty"`
}

// ExtractSchema parses sql and returns what it uses of s. Errors wrap ErrParse or
// ErrNotSelect. A nil schema makes every table unknown.
func ExtractSchema(sql string, s *dbschema.Schema) (*Use, error) {
	q, err := Parse(sql)
	if err != nil {
		return nil, err
	}
	return q.Use(s)
}

// Use resolves the parsed query against s and returns what it uses. It fails (wrapping
// ErrNotSelect) only for a statement that is not a query.
func (q *Query) Use(s *dbschema.Schema) (*Use, error) {
	st, ok := q.stmt.(*ast.SelectStmt)
	if !ok {
		return nil, fmt.Errorf("%w: %s statement", ErrNotSelect, q.Kind())
	}
	r := newResolver(s)
	r.selectStmt(st, nil, nil)
	return r.result(), nil
}

func (r *resolver) result() *Use {
	u := &Use{
		Tables:        make([]string, 0, len(r.tables)),
		Columns:       make([]string, 0, len(r.cols)),
		Unresolved:    keys(r.unresolved),
		Ambiguous:     keys(r.ambiguous),
		UnknownTables: keys(r.unknown),
	}
	for t := range r.tables {
		u.Tables = append(u.Tables, t.Name)
	}
	for k := range r.cols {
		u.Columns = append(u.Columns, k.table.Name+"."+k.col.Name)
	}
	slices.Sort(u.Tables)
	u.Tables = slices.Compact(u.Tables)
	slices.Sort(u.Columns)
	u.Columns = slices.Compact(u.Columns)
	if len(u.UnknownTables) == 0 {
		u.UnknownTables = nil
	}
	return u
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TableColumns returns the used columns grouped by table: every used table is a key
// (with no columns when only the table was used, as in SELECT COUNT(*) FROM t), and its
// columns keep the schema's spelling, sorted. This is the shape of a record's
// selected_schema.
func (u *Use) TableColumns() map[string][]string {
	m := make(map[string][]string, len(u.Tables))
	for _, t := range u.Tables {
		m[t] = []string{}
	}
	for _, c := range u.Columns {
		// Table names may themselves contain dots only in exotic schemas; the column
		// list is built from schema objects, so split at the table name's length.
		for _, t := range u.Tables {
			if strings.HasPrefix(c, t+".") {
				m[t] = append(m[t], c[len(t)+1:])
				break
			}
		}
	}
	return m
}
