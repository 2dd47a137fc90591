package counterex

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// ErrUnsupported marks a pair the search cannot build variants for (a query that does
// not parse, or reads a view or a table the schema lacks): the record keeps ts_ex equal
// to its EX verdict and says no database was tried.
var ErrUnsupported = errors.New("counterexample search unsupported")

// spec is the schema of the variants for one pair: the tables either query touches plus
// the foreign-key parents they need, parents before children.
type spec struct {
	tables []*tableSpec
}

type tableSpec struct {
	t       *dbschema.Table
	cols    []colSpec
	fks     []fkSpec // enforced foreign keys (usable ones only)
	keys    [][]int  // column sets that must be unique (primary key first)
	rowidPK int      // index of an INTEGER PRIMARY KEY column (rowid alias), or -1
	ddl     string
	insert  string
}

type colSpec struct {
	name, typ, collate string
	notNull            bool
	aff                dbschema.Affinity
}

type fkSpec struct {
	cols   []int // in the child
	parent int   // index in spec.tables
	pcols  []int // in the parent
}

// buildSpec resolves which tables the pair touches and lays out their variant schema.
func buildSpec(d *dbInfo, queries []string) (*spec, error) {
	want := map[string]bool{}
	for i, q := range queries {
		u, err := sqlast.ExtractSchema(q, d.schema)
		if err != nil {
			return nil, fmt.Errorf("%w: query %d: %v", ErrUnsupported, i, err)
		}
		if len(u.UnknownTables) > 0 {
			return nil, fmt.Errorf("%w: unknown table %s", ErrUnsupported, u.UnknownTables[0])
		}
		for _, t := range u.Tables {
			want[strings.ToLower(t)] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("%w: no table", ErrUnsupported)
	}
	// Close over usable foreign keys' parents.
	for changed := true; changed; {
		changed = false
		for name := range want {
			t := d.schema.Table(name)
			for i, fk := range t.ForeignKeys {
				p := strings.ToLower(fk.RefTable)
				if d.fkOK[key(t.Name, fmt.Sprint(i))] && !want[p] {
					want[p] = true
					changed = true
				}
			}
		}
	}
	// Parents first: repeatedly take the tables whose kept parents are all placed; an
	// edge that would close a cycle is dropped.
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	placed := map[string]int{}
	s := &spec{}
	for len(placed) < len(names) {
		progress := false
		for _, n := range names {
			if _, ok := placed[n]; ok {
				continue
			}
			t := d.schema.Table(n)
			ready := true
			for i, fk := range t.ForeignKeys {
				p := strings.ToLower(fk.RefTable)
				if _, ok := placed[p]; d.fkOK[key(t.Name, fmt.Sprint(i))] && !ok {
					ready = false
				}
			}
			if ready {
				placed[n] = len(s.tables)
				s.tables = append(s.tables, newTableSpec(d, t, placed, s.tables))
				progress = true
			}
		}
		if !progress { // a cycle: place the first table left, without its open edges
			for _, n := range names {
				if _, ok := placed[n]; !ok {
					placed[n] = len(s.tables)
					s.tables = append(s.tables, newTableSpec(d, d.schema.Table(n), placed, s.tables))
					break
				}
			}
		}
	}
	return s, nil
}

// newTableSpec lays out t, keeping the usable foreign keys whose parent is placed.
func newTableSpec(d *dbInfo, t *dbschema.Table, placed map[string]int, done []*tableSpec) *tableSpec {
	ts := &tableSpec{t: t, rowidPK: -1}
	idx := map[string]int{}
	var defs []string
	for i, c := range t.Columns {
		cs := colSpec{name: c.Name, typ: c.Type, collate: d.collate[key(t.Name, c.Name)], notNull: c.NotNull || c.PrimaryKey, aff: dbschema.AffinityOf(c.Type)}
		ts.cols = append(ts.cols, cs)
		idx[strings.ToLower(c.Name)] = i
		def := sqlscan.QuoteIdent(c.Name)
		if c.Type != "" {
			def += " " + c.Type
		}
		if cs.collate != "" {
			def += " COLLATE " + cs.collate
		}
		if cs.notNull {
			def += " NOT NULL"
		}
		defs = append(defs, def)
	}
	cols := func(names []string) ([]int, bool) {
		var out []int
		for _, n := range names {
			i, ok := idx[strings.ToLower(n)]
			if !ok {
				return nil, false
			}
			out = append(out, i)
		}
		return out, true
	}
	if pk, ok := cols(t.PrimaryKey); ok && len(pk) > 0 {
		ts.keys = append(ts.keys, pk)
		defs = append(defs, "PRIMARY KEY ("+quoteList(t.PrimaryKey)+")")
		if len(pk) == 1 && strings.EqualFold(strings.TrimSpace(t.Columns[pk[0]].Type), "INTEGER") {
			ts.rowidPK = pk[0]
		}
	}
	for _, u := range t.Unique {
		if c, ok := cols(u); ok {
			ts.keys = append(ts.keys, c)
			defs = append(defs, "UNIQUE ("+quoteList(u)+")")
		}
	}
	for i, fk := range t.ForeignKeys {
		pi, ok := placed[strings.ToLower(fk.RefTable)]
		if !d.fkOK[key(t.Name, fmt.Sprint(i))] || !ok {
			continue
		}
		c, ok := cols(fk.Columns)
		if !ok {
			continue
		}
		var pc []int
		for _, rc := range fk.RefColumns {
			for j, col := range done[pi].cols {
				if strings.EqualFold(col.name, rc) {
					pc = append(pc, j)
					break
				}
			}
		}
		if len(pc) != len(c) {
			continue
		}
		ts.fks = append(ts.fks, fkSpec{cols: c, parent: pi, pcols: pc})
		defs = append(defs, fmt.Sprintf("FOREIGN KEY (%s) REFERENCES %s (%s)", quoteList(fk.Columns), sqlscan.QuoteIdent(fk.RefTable), quoteList(fk.RefColumns)))
	}
	ts.ddl = fmt.Sprintf("CREATE TABLE %s (\n  %s\n)", sqlscan.QuoteIdent(t.Name), strings.Join(defs, ",\n  "))
	var names, marks []string
	for _, c := range t.Columns {
		names = append(names, sqlscan.QuoteIdent(c.Name))
		marks = append(marks, "?")
	}
	ts.insert = fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", sqlscan.QuoteIdent(t.Name), strings.Join(names, ", "), strings.Join(marks, ", "))
	return ts
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = sqlscan.QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}
