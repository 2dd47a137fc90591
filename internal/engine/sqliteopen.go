package engine

import (
	"database/sql"
	"fmt"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

// The openings below are the only ones outside this package's own (SQLite.Query and
// LoadScript), so that every SQLite handle in the tool is made here, with the same URIs.

// OpenSQLiteReadOnly opens the SQLite file at path read-only (ReadOnlyDSN: mode=ro and
// query_only) with at most maxConns connections, for a package that reads a database's
// structure or samples through database/sql (schema introspection, counterexample probes)
// rather than through SQLite.Query.
func OpenSQLiteReadOnly(path string, maxConns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", ReadOnlyDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxConns)
	return db, nil
}

// OpenSQLiteMemory opens a private in-memory database with foreign keys enforced, on one
// connection (each connection of an in-memory database is a database of its own). It is
// for DDL and rows the caller generates itself; a script from a file goes through
// LoadScript, which holds it to a whitelist.
func OpenSQLiteMemory() (*sql.DB, error) {
	db, err := sql.Open("sqlite3", scratchDSN)
	if err != nil {
		return nil, fmt.Errorf("open scratch database: %w", err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// OpenSQLiteFile opens the SQLite file at path read-write, creating it when missing, on
// one connection (so a PRAGMA applies to every statement after it), with extra URI
// parameters (e.g. "_journal_mode=OFF"). It is for databases the tool builds itself.
func OpenSQLiteFile(path, params string) (*sql.DB, error) {
	uri := "mode=rwc"
	if params != "" {
		uri += "&" + params
	}
	db, err := sql.Open("sqlite3", SQLiteURI(path, uri))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}
