package dbschema

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Introspect reads the schema of the SQLite database file at path. The file is opened
// read-only (and query_only), so it is never modified. DBID is the file's base name without
// its extension. Tables named sqlite_* (SQLite's own) and views are left out.
//
// The PRAGMAs are read through their table-valued forms (pragma_table_xinfo(?) ...) with
// the table name as a bound parameter, so names holding spaces or quotes need no quoting.
func Introspect(ctx context.Context, path string) (*Schema, error) {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil, fmt.Errorf("introspect: %w: %s", ErrNoDatabase, path)
	}
	db, err := engine.OpenSQLiteReadOnly(path, 1)
	if err != nil {
		return nil, fmt.Errorf("introspect: %w", err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("introspect %s: %w", path, err)
	}
	defer conn.Close()

	s := &Schema{DBID: dbIDFromPath(path)}
	names, err := tableNames(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("introspect %s: %w", path, err)
	}
	for _, name := range names {
		t, err := readTable(ctx, conn, name)
		if err != nil {
			return nil, fmt.Errorf("introspect %s: table %q: %w", path, name, err)
		}
		s.Tables = append(s.Tables, t)
	}
	resolveImplicitRefs(s)
	return s, nil
}

func dbIDFromPath(path string) string {
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// tableNames lists the user tables in creation order.
func tableNames(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx,
		`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	return names, nil
}

func readTable(ctx context.Context, conn *sql.Conn, name string) (*Table, error) {
	t := &Table{Name: name}
	if err := readColumns(ctx, conn, t); err != nil {
		return nil, err
	}
	if err := readForeignKeys(ctx, conn, t); err != nil {
		return nil, err
	}
	if err := readUnique(ctx, conn, t); err != nil {
		return nil, err
	}
	return t, nil
}

func readColumns(ctx context.Context, conn *sql.Conn, t *Table) error {
	rows, err := conn.QueryContext(ctx,
		`SELECT name, type, "notnull", pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid`, t.Name)
	if err != nil {
		return fmt.Errorf("columns: %w", err)
	}
	defer rows.Close()
	type pkCol struct {
		pos  int
		name string
	}
	var pks []pkCol
	for rows.Next() {
		var (
			name, typ           string
			notNull, pk, hidden int
		)
		if err := rows.Scan(&name, &typ, &notNull, &pk, &hidden); err != nil {
			return fmt.Errorf("columns: %w", err)
		}
		if hidden == 1 { // a virtual table's hidden column: not part of SELECT *
			continue
		}
		t.Columns = append(t.Columns, &Column{Name: name, Type: typ, NotNull: notNull != 0, PrimaryKey: pk > 0})
		if pk > 0 {
			pks = append(pks, pkCol{pk, name})
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("columns: %w", err)
	}
	sort.Slice(pks, func(i, j int) bool { return pks[i].pos < pks[j].pos })
	for _, p := range pks {
		t.PrimaryKey = append(t.PrimaryKey, p.name)
	}
	return nil
}

func readForeignKeys(ctx context.Context, conn *sql.Conn, t *Table) error {
	rows, err := conn.QueryContext(ctx,
		`SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq`, t.Name)
	if err != nil {
		return fmt.Errorf("foreign keys: %w", err)
	}
	defer rows.Close()
	lastID := -1
	for rows.Next() {
		var (
			id       int
			ref, frm string
			to       sql.NullString
		)
		if err := rows.Scan(&id, &ref, &frm, &to); err != nil {
			return fmt.Errorf("foreign keys: %w", err)
		}
		// SQLite numbers foreign keys from the last declared; id DESC restores declaration order.
		if id != lastID || len(t.ForeignKeys) == 0 {
			t.ForeignKeys = append(t.ForeignKeys, ForeignKey{RefTable: ref})
			lastID = id
		}
		fk := &t.ForeignKeys[len(t.ForeignKeys)-1]
		fk.Columns = append(fk.Columns, frm)
		// A NULL target means "the referenced table's primary key": resolved later, once
		// every table has been read. Keep a placeholder so positions stay aligned.
		fk.RefColumns = append(fk.RefColumns, to.String)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign keys: %w", err)
	}
	return nil
}

func readUnique(ctx context.Context, conn *sql.Conn, t *Table) error {
	rows, err := conn.QueryContext(ctx,
		`SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY seq DESC`, t.Name)
	if err != nil {
		return fmt.Errorf("indexes: %w", err)
	}
	var idx []string
	for rows.Next() {
		var (
			name, origin    string
			unique, partial int
		)
		if err := rows.Scan(&name, &unique, &origin, &partial); err != nil {
			rows.Close()
			return fmt.Errorf("indexes: %w", err)
		}
		// The primary key's own index ('pk') is already in PrimaryKey; a partial index
		// guarantees nothing about the rows it leaves out.
		if unique != 0 && origin != "pk" && partial == 0 {
			idx = append(idx, name)
		}
	}
	err = rows.Err()
	rows.Close() // one connection: close before the next query
	if err != nil {
		return fmt.Errorf("indexes: %w", err)
	}
	for _, name := range idx {
		cols, ok, err := indexColumns(ctx, conn, name)
		if err != nil {
			return fmt.Errorf("index %q: %w", name, err)
		}
		if ok && !hasColumnSet(t.Unique, cols) {
			t.Unique = append(t.Unique, cols)
		}
	}
	return nil
}

// indexColumns returns the key columns of an index; ok is false for an index on an
// expression (or the rowid), which names no column.
func indexColumns(ctx context.Context, conn *sql.Conn, index string) (cols []string, ok bool, err error) {
	rows, err := conn.QueryContext(ctx, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, index)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	ok = true
	for rows.Next() {
		var n sql.NullString
		if err := rows.Scan(&n); err != nil {
			return nil, false, err
		}
		if !n.Valid {
			ok = false
		}
		cols = append(cols, n.String)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return cols, ok && len(cols) > 0, nil
}

// hasColumnSet reports whether sets already holds cols (the same names, ignoring order and case).
func hasColumnSet(sets [][]string, cols []string) bool {
	for _, s := range sets {
		if len(s) == len(cols) && subset(s, cols) && subset(cols, s) {
			return true
		}
	}
	return false
}

// resolveImplicitRefs fills the target columns of foreign keys declared without them
// (REFERENCES t), which SQLite takes to mean t's primary key. When t is missing or its key
// does not match in length, RefColumns is left nil: the key is broken in the file itself.
func resolveImplicitRefs(s *Schema) {
	for _, t := range s.Tables {
		for i := range t.ForeignKeys {
			fk := &t.ForeignKeys[i]
			implicit := false
			for _, c := range fk.RefColumns {
				if c == "" {
					implicit = true
				}
			}
			if !implicit {
				continue
			}
			ref := s.Table(fk.RefTable)
			if ref == nil || len(ref.PrimaryKey) != len(fk.Columns) {
				fk.RefColumns = nil
				continue
			}
			fk.RefColumns = append([]string(nil), ref.PrimaryKey...)
		}
	}
}
