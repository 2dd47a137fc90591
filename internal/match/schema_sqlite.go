package match

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// SchemaFromSQLite reads the schema the official evaluation parses against (process_sql's
// get_schema): every table of sqlite_master, SQLite's own sqlite_sequence included, with
// its columns from table_info, all lowercased. The file is opened read-only.
//
// This, not tables.json, is the schema evaluation.py uses for ESM; the two differ in case
// and sometimes in names, which changes which queries parse.
func SchemaFromSQLite(ctx context.Context, path string) (*spidersql.Schema, error) {
	db, err := engine.OpenSQLiteReadOnly(path, 1)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	defer db.Close()
	names, err := tableNames(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read schema %s: %w", path, err)
	}
	tables := make(map[string][]string, len(names))
	for _, t := range names {
		cols, err := columnNames(ctx, db, t)
		if err != nil {
			return nil, fmt.Errorf("read schema %s: table %q: %w", path, t, err)
		}
		tables[t] = cols
	}
	return spidersql.NewSchema(tables), nil
}

func tableNames(ctx context.Context, db *sql.DB) ([]string, error) {
	return queryNames(ctx, db, `SELECT name FROM sqlite_master WHERE type = 'table'`)
}

func columnNames(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	return queryNames(ctx, db, `SELECT name FROM pragma_table_info(?)`, table)
}

// queryNames returns the one text column of a query's rows.
func queryNames(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
