package export

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// Kind is the type a column gets on another engine, decided from the values it holds.
type Kind int

// Column kinds: integers only, numbers (integers and reals), text, blobs. A column that
// mixes text with other values is text.
const (
	KindInteger Kind = iota
	KindReal
	KindText
	KindBlob
)

// Column is one column of a table.
type Column struct {
	Name     string
	Declared string // declared type, as written in CREATE TABLE
	Kind     Kind
	PKOrder  int // 1-based position in the primary key, 0 if not in it
}

// Table is one table of an SQLite database.
type Table struct {
	Name    string
	Columns []Column
	// RowID is true when the table has a rowid (ordinary tables): documents of a table
	// without a primary key are keyed by it.
	RowID bool
}

// PK returns the primary-key columns in key order.
func (t Table) PK() []Column {
	var pk []Column
	for n := 1; ; n++ {
		found := false
		for _, c := range t.Columns {
			if c.PKOrder == n {
				pk = append(pk, c)
				found = true
			}
		}
		if !found {
			return pk
		}
	}
}

// ReadTables lists the tables of the SQLite database at path (sqlite_* internal tables
// left out), in name order, with each column's kind sampled from its stored values.
func ReadTables(ctx context.Context, e *engine.SQLite, path string) ([]Table, error) {
	res, err := e.Query(ctx, path, `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`, engine.Limits{})
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", path, err)
	}
	var tables []Table
	for rowI := range res.NumRows() {
		r := res.Row(rowI)
		name, _ := r[0].(string)
		ddl, _ := r[1].(string)
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(ddl)), "CREATE VIRTUAL") {
			continue // virtual tables (FTS, ...) have no rows of their own to copy
		}
		t := Table{Name: name, RowID: !strings.Contains(strings.ToUpper(ddl), "WITHOUT ROWID")}
		info, err := e.Query(ctx, path, "SELECT name, type, pk FROM pragma_table_info("+sqlscan.QuoteString(name)+")", engine.Limits{})
		if err != nil {
			return nil, fmt.Errorf("columns of %s.%s: %w", path, name, err)
		}
		for rowI := range info.NumRows() {
			c := info.Row(rowI)
			col := Column{Name: fmt.Sprint(c[0]), Declared: fmt.Sprint(c[1])}
			if pk, ok := c[2].(int64); ok {
				col.PKOrder = int(pk)
			}
			if col.Kind, err = sampleKind(ctx, e, path, name, col); err != nil {
				return nil, err
			}
			t.Columns = append(t.Columns, col)
		}
		tables = append(tables, t)
	}
	return tables, nil
}

// sampleKind reads which storage classes a column holds. With no value at all, the
// declared type's affinity decides, as SQLite's rules give it.
func sampleKind(ctx context.Context, e *engine.SQLite, path, table string, c Column) (Kind, error) {
	q := fmt.Sprintf("SELECT DISTINCT typeof(%s) FROM %s", sqlscan.QuoteIdent(c.Name), sqlscan.QuoteIdent(table))
	res, err := e.Query(ctx, path, q, engine.Limits{})
	if err != nil {
		return 0, fmt.Errorf("sample %s.%s: %w", table, c.Name, err)
	}
	seen := map[string]bool{}
	for rowI := range res.NumRows() {
		r := res.Row(rowI)
		seen[fmt.Sprint(r[0])] = true
	}
	switch {
	case seen["text"] || (seen["blob"] && (seen["integer"] || seen["real"])):
		return KindText, nil
	case seen["blob"]:
		return KindBlob, nil
	case seen["real"]:
		return KindReal, nil
	case seen["integer"]:
		return KindInteger, nil
	}
	return affinityKind(c.Declared), nil
}

// affinityKind is the kind of a column's declared type's SQLite affinity.
func affinityKind(decl string) Kind {
	switch dbschema.AffinityOf(decl) {
	case dbschema.AffinityInteger:
		return KindInteger
	case dbschema.AffinityText:
		return KindText
	case dbschema.AffinityBlob:
		return KindBlob
	case dbschema.AffinityReal:
		return KindReal
	}
	return KindText // NUMERIC affinity with no values: dates and the like, kept as text
}
