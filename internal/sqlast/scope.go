package sqlast

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// colKey is one base column.
type colKey struct {
	table *dbschema.Table
	col   *dbschema.Column
}

// outCol is an output column of a subquery or CTE: its name and the base columns it was
// computed from.
type outCol struct {
	name    string
	lineage []colKey
}

// source is one item of a FROM clause as seen by name lookup.
type source struct {
	name  string          // alias, else the table or CTE name; compared ignoring case
	table *dbschema.Table // a base table, or nil
	cols  []outCol        // a CTE or subquery: its output columns
	// opaque: the source's columns are unknown (a table missing from the schema, a
	// table-valued function). A qualified reference through it is unresolved (unknown
	// table) or accepted silently (function).
	opaque  bool
	unknown bool // opaque because the table is not in the schema
	// merged holds lower-cased column names a USING or NATURAL join merged into an
	// earlier source, so an unqualified reference to them is not ambiguous.
	merged map[string]bool
}

// columns returns the source's columns called name (ignoring case) as lineage.
func (s *source) columns(name string) ([]colKey, bool) {
	if s.table != nil {
		if c := s.table.Column(name); c != nil {
			return []colKey{{s.table, c}}, true
		}
		return nil, false
	}
	for _, oc := range s.cols {
		if strings.EqualFold(oc.name, name) {
			return oc.lineage, true
		}
	}
	return nil, false
}

// all returns every column of the source (for SELECT * and t.*).
func (s *source) all() []colKey {
	if s.table != nil {
		out := make([]colKey, len(s.table.Columns))
		for i, c := range s.table.Columns {
			out[i] = colKey{s.table, c}
		}
		return out
	}
	var out []colKey
	for _, oc := range s.cols {
		out = append(out, oc.lineage...)
	}
	return out
}

// names returns the source's column names, in order.
func (s *source) names() []string {
	if s.table != nil {
		out := make([]string, len(s.table.Columns))
		for i, c := range s.table.Columns {
			out[i] = c.Name
		}
		return out
	}
	out := make([]string, len(s.cols))
	for i, oc := range s.cols {
		out[i] = oc.name
	}
	return out
}

// scope is one SELECT core's name space: its FROM sources and result aliases, inside the
// scope of the query it is nested in (correlated subqueries see outer columns).
type scope struct {
	parent  *scope
	sources []*source
	aliases []outCol // result columns with an alias, for WHERE / GROUP BY / HAVING / ORDER BY
	// compound holds the output names of the first core of a compound SELECT, which an
	// ORDER BY written on its last core may name.
	compound []string
}

// source returns the innermost source called name, searching outwards.
func (sc *scope) source(name string) *source {
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.sources {
			if strings.EqualFold(src.name, name) {
				return src
			}
		}
	}
	return nil
}

// alias returns the result alias called name in this scope only.
func (sc *scope) alias(name string) (outCol, bool) {
	for _, a := range sc.aliases {
		if strings.EqualFold(a.name, name) {
			return a, true
		}
	}
	return outCol{}, false
}

// ctes is the chain of CTEs visible at a point of the query, innermost first.
type ctes struct {
	parent *ctes
	name   string
	cols   []outCol
}

func (c *ctes) lookup(name string) (*ctes, bool) {
	for e := c; e != nil; e = e.parent {
		if strings.EqualFold(e.name, name) {
			return e, true
		}
	}
	return nil, false
}
