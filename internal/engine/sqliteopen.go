package engine

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

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

// openError says what is wrong when SQLite cannot open the file at path (err, from
// dbError, is a fault): a database in WAL mode with its -wal file but no -shm, in a folder
// SQLite cannot create the -shm in (a read-only mount), fails as "unable to open database
// file: no such file or directory" although the file is there; that is said instead.
func openError(path string, err error) error {
	if !errors.Is(err, ErrInfrastructure) {
		return err
	}
	if _, werr := os.Lstat(path + "-wal"); werr != nil {
		return err
	}
	if _, serr := os.Lstat(path + "-shm"); serr == nil {
		return err
	}
	dir := filepath.Dir(path)
	aerr := dirWritable(dir)
	if aerr == nil {
		return err
	}
	return &FaultError{
		Op: "cannot open sqlite database in WAL mode",
		Err: fmt.Errorf("%s has a write-ahead log (%s-wal) but no shared-memory file (-shm), and SQLite cannot create one in %s (%v)",
			path, filepath.Base(path), dir, aerr),
		Hint: "open the database once where its folder is writable (sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)' folds the log into the file), or copy it with its -wal file to a writable folder",
	}
}

// dirWritable is nil when the process may create files in dir (access(2) W_OK: EROFS on
// a read-only mount, EACCES without permission). A variable for the tests, which run as
// root in CI, where only a read-only mount says no.
var dirWritable = func(dir string) error { return syscall.Access(dir, 2 /* W_OK */) }
