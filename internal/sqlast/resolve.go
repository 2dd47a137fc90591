package sqlast

import (
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/sqlc-dev/meyer/ast"
)

// resolver walks one statement, resolving names against a schema and collecting what the
// statement uses.
type resolver struct {
	schema     *dbschema.Schema
	tables     map[*dbschema.Table]bool
	cols       map[colKey]bool
	unresolved map[string]bool
	ambiguous  map[string]bool
	unknown    map[string]bool // table names in FROM that are neither CTEs nor schema tables
	// sink, when set, also receives every base column resolved, so a result column
	// learns the lineage of its expression.
	sink *[]colKey
}

func newResolver(s *dbschema.Schema) *resolver {
	return &resolver{
		schema:     s,
		tables:     map[*dbschema.Table]bool{},
		cols:       map[colKey]bool{},
		unresolved: map[string]bool{},
		ambiguous:  map[string]bool{},
		unknown:    map[string]bool{},
	}
}

// use records base columns as used (and as lineage of the expression being collected).
func (r *resolver) use(keys []colKey) {
	for _, k := range keys {
		r.cols[k] = true
		r.tables[k.table] = true
	}
	if r.sink != nil {
		*r.sink = append(*r.sink, keys...)
	}
}

// selectStmt resolves a whole SELECT (WITH clause, compound cores) and returns its output
// columns: names from the first core, lineage merged position by position over all cores.
func (r *resolver) selectStmt(st *ast.SelectStmt, outer *scope, env *ctes) []outCol {
	if st == nil {
		return nil
	}
	if st.With != nil {
		env = r.with(st.With, outer, env)
	}
	var out []outCol
	var first []string
	for i, c := range st.Cores {
		var compound []string
		if i > 0 {
			compound = first
		}
		cols := r.core(c, outer, env, compound)
		if i == 0 {
			out = cols
			first = make([]string, len(cols))
			for j, oc := range cols {
				first[j] = oc.name
			}
			continue
		}
		for j := range min(len(out), len(cols)) {
			// Clip so appending never writes into a slice another output column shares.
			out[j].lineage = append(slices.Clip(out[j].lineage), cols[j].lineage...)
		}
	}
	return out
}

// with resolves CTE bodies in order and returns the CTE chain visible after them. A
// non-recursive CTE is visible only to later ones (its own name inside its body means
// the base table, as in SQLite); under WITH RECURSIVE it is visible in its own body,
// with its column names but no lineage yet.
func (r *resolver) with(w *ast.With, outer *scope, env *ctes) *ctes {
	for _, c := range w.CTEs {
		if c == nil || c.Name == nil {
			continue
		}
		var self *ctes
		if w.Recursive {
			self = &ctes{parent: env, name: c.Name.Name, cols: pendingColumns(c)}
			env = self
		}
		cols := r.selectStmt(c.Select, outer, env)
		if len(c.Columns) > 0 {
			renamed := make([]outCol, len(c.Columns))
			for i, id := range c.Columns {
				renamed[i].name = id.Name
				if i < len(cols) {
					renamed[i].lineage = cols[i].lineage
				}
			}
			cols = renamed
		}
		if self != nil {
			self.cols = cols
		} else {
			env = &ctes{parent: env, name: c.Name.Name, cols: cols}
		}
	}
	return env
}

// pendingColumns names a recursive CTE's columns before its body is resolved: the
// explicit column list, else the first core's result names.
func pendingColumns(c *ast.CTE) []outCol {
	var out []outCol
	if len(c.Columns) > 0 {
		for _, id := range c.Columns {
			out = append(out, outCol{name: id.Name})
		}
		return out
	}
	if c.Select == nil || len(c.Select.Cores) == 0 {
		return nil
	}
	if q, ok := c.Select.Cores[0].(*ast.SelectQuery); ok {
		for _, rc := range q.Columns {
			out = append(out, outCol{name: resultName(rc)})
		}
	}
	return out
}

// resultName is a result column's name: its alias, else the column it names.
func resultName(rc *ast.ResultColumn) string {
	if rc.Alias != nil {
		return rc.Alias.Name
	}
	switch e := rc.Expr.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.QualifiedRef:
		if len(e.Parts) > 0 {
			return e.Parts[len(e.Parts)-1].Name
		}
	}
	return ""
}

// core resolves one SELECT or VALUES term and returns its output columns.
func (r *resolver) core(c ast.SelectCore, outer *scope, env *ctes, compound []string) []outCol {
	switch c := c.(type) {
	case *ast.ValuesClause:
		var out []outCol
		for i, row := range c.Rows {
			for _, e := range row {
				r.expr(e, outer, env)
			}
			if i == 0 {
				out = make([]outCol, len(row))
			}
		}
		return out
	case *ast.SelectQuery:
		return r.selectQuery(c, outer, env, compound)
	}
	return nil
}

func (r *resolver) selectQuery(c *ast.SelectQuery, outer *scope, env *ctes, compound []string) []outCol {
	sc := &scope{parent: outer, compound: compound}
	for _, it := range c.From {
		r.fromItem(it, sc, outer, env)
	}
	// ON clauses are resolved once every FROM item is in scope: SQLite lets an inner
	// join's ON name a table joined after it (Spider's gold does).
	r.onClauses(c.From, sc, env)
	var out []outCol
	for _, rc := range c.Columns {
		if rc == nil {
			continue
		}
		if st, ok := rc.Expr.(*ast.Star); ok {
			out = append(out, r.star(st, sc)...)
			continue
		}
		var lineage []colKey
		prev := r.sink
		r.sink = &lineage
		r.expr(rc.Expr, sc, env)
		r.sink = prev
		if prev != nil {
			*prev = append(*prev, lineage...)
		}
		oc := outCol{name: resultName(rc), lineage: lineage}
		out = append(out, oc)
		if rc.Alias != nil {
			sc.aliases = append(sc.aliases, oc)
		}
	}
	// Result aliases exist from here on: SQLite lets WHERE, GROUP BY, HAVING and ORDER BY
	// name them (after the FROM columns, except a bare ORDER BY name, which is alias first).
	r.expr(c.Where, sc, env)
	for _, e := range c.GroupBy {
		r.expr(e, sc, env)
	}
	r.expr(c.Having, sc, env)
	for _, w := range c.Windows {
		r.window(w, sc, env)
	}
	for _, t := range c.OrderBy {
		if t == nil {
			continue
		}
		if id, ok := t.Expr.(*ast.Ident); ok {
			if a, ok := sc.alias(id.Name); ok {
				r.use(a.lineage)
				continue
			}
		}
		r.expr(t.Expr, sc, env)
	}
	if c.Limit != nil {
		r.expr(c.Limit.Count, sc, env)
		r.expr(c.Limit.Offset, sc, env)
	}
	return out
}

// star expands * or t.* into output columns, using every column it covers.
func (r *resolver) star(st *ast.Star, sc *scope) []outCol {
	var srcs []*source
	if st.Table == nil {
		srcs = sc.sources
	} else {
		for _, s := range sc.sources {
			if strings.EqualFold(s.name, st.Table.Name) {
				srcs = append(srcs, s)
				break
			}
		}
		if len(srcs) == 0 {
			r.unresolved[st.Table.Name+".*"] = true
			return nil
		}
	}
	var out []outCol
	for _, s := range srcs {
		if s.table != nil {
			for _, c := range s.table.Columns {
				k := []colKey{{s.table, c}}
				r.use(k)
				out = append(out, outCol{name: c.Name, lineage: k})
			}
			continue
		}
		for _, oc := range s.cols {
			r.use(oc.lineage)
			out = append(out, oc)
		}
	}
	return out
}

// fromItem adds one FROM item to sc. Subqueries in FROM see the enclosing query's scope
// (outer), not their siblings.
func (r *resolver) fromItem(it *ast.TableRef, sc, outer *scope, env *ctes) {
	if it == nil {
		return
	}
	var src *source
	switch {
	case it.Select != nil:
		src = &source{cols: r.selectStmt(it.Select, outer, env)}
	case len(it.List) > 0:
		// A parenthesised join: its items join this scope directly.
		for _, sub := range it.List {
			r.fromItem(sub, sc, outer, env)
		}
	case it.Name != nil && it.Name.Name != nil:
		name := it.Name.Name.Name
		switch {
		case it.HasArgs:
			for _, a := range it.Args {
				r.expr(a, sc, env)
			}
			src = &source{name: name, opaque: true}
		default:
			src = r.tableSource(name, it.Name.Schema == nil, env)
		}
	}
	if src != nil {
		if it.Alias != nil {
			src.name = it.Alias.Name
		}
		r.joinColumns(it, src, sc.sources)
		sc.sources = append(sc.sources, src)
	}
}

// onClauses resolves the ON expressions of FROM items, nested joins included.
func (r *resolver) onClauses(items []*ast.TableRef, sc *scope, env *ctes) {
	for _, it := range items {
		if it == nil {
			continue
		}
		r.onClauses(it.List, sc, env)
		r.expr(it.On, sc, env)
	}
}

// tableSource finds a named table: a visible CTE (unless schema-qualified), else a table
// of the schema, else an unknown table.
func (r *resolver) tableSource(name string, cteOK bool, env *ctes) *source {
	if cteOK {
		if c, ok := env.lookup(name); ok {
			return &source{name: name, cols: c.cols}
		}
	}
	if t := r.schema.Table(name); t != nil {
		r.tables[t] = true
		return &source{name: name, table: t}
	}
	r.unknown[name] = true
	return &source{name: name, opaque: true, unknown: true}
}

// joinColumns uses the columns a USING list or a NATURAL join compares, on both sides,
// and marks them merged so a later unqualified reference is not ambiguous.
func (r *resolver) joinColumns(it *ast.TableRef, src *source, left []*source) {
	var names []string
	natural := it.Join != nil && it.Join.Type&ast.JoinNatural != 0
	switch {
	case len(it.Using) > 0:
		for _, id := range it.Using {
			names = append(names, id.Name)
		}
	case natural:
		names = src.names()
	default:
		return
	}
	for _, n := range names {
		right, okR := src.columns(n)
		var lhs []colKey
		okL := false
		for _, l := range left {
			if l.merged[strings.ToLower(n)] {
				continue
			}
			if lhs, okL = l.columns(n); okL {
				break
			}
		}
		if natural && !okL {
			continue // not a shared column
		}
		if !okR || !okL {
			if !src.opaque {
				r.unresolved[n] = true
			}
			continue
		}
		r.use(lhs)
		r.use(right)
		if src.merged == nil {
			src.merged = map[string]bool{}
		}
		src.merged[strings.ToLower(n)] = true
	}
}

// window resolves a window definition's expressions.
func (r *resolver) window(w *ast.WindowDef, sc *scope, env *ctes) {
	if w == nil {
		return
	}
	for _, e := range w.Partition {
		r.expr(e, sc, env)
	}
	for _, t := range w.OrderBy {
		if t != nil {
			r.expr(t.Expr, sc, env)
		}
	}
	if w.StartBound != nil {
		r.expr(w.StartBound.Expr, sc, env)
	}
	if w.EndBound != nil {
		r.expr(w.EndBound.Expr, sc, env)
	}
}
